"""The student's pages: courses and progress, the module with its exercises, answers and the
live preview, and the labs. An interface over courses, grading and labs."""
