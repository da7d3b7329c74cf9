"""grading app."""
