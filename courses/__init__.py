"""Courses: the module's content (sections, figures, labs, exercises) and who is enrolled."""
