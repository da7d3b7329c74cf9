"""The rename test's app: three hot fields stored under other column names (issue 39)."""
