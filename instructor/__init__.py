"""The instructor's and TA's pages (the course dashboard): progress, statistics, reviews,
overrides, deadlines and exports. An interface over courses, grading and labs."""
