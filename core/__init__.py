"""Infrastructure shared by every app, with no knowledge of courses, grading or labs."""
