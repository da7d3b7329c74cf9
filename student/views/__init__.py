"""The student's pages, by what they show: the module, answers, labs."""
