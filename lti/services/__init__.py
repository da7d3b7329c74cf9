"""Services of the LTI tool: what a launch changes, what a deep-linking answer says."""
