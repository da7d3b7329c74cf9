"""Assignment and Grade Services: scores of exercises sent to the LMS gradebook."""
