"""Sync health: what each student's score delivery to the LMS is doing, for instructors."""
