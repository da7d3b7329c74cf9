"""labs app."""
