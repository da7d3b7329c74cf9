"""The instructor's dashboard: class progress, statistics, reviews, deadlines and exports."""
