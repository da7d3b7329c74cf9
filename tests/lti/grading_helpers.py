"""Answers to Module 5's exercises for the LTI tests."""

from courses.models import Course, Part
from grading.variant_assignment import variant_for

EXTEND_ANSWER = ("Seq2seq squeezes the whole sentence into one fixed-size vector, so early words "
                 "get overwritten; attention lets the decoder look back at every encoder state.")


def correct_bound_answer(student, course: Course, part: Part) -> str:
    """The right answer to apply-1-gradient-bound in the student's variant."""
    params = variant_for(student=student, course=course, exercise=part.exercise).params
    return f"{params['sigma']}^{params['steps']}"
