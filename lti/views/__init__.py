"""Pages of the LTI tool."""
