"""Operator tool: back up the service's database (and any files it keeps on disk), restore it."""
