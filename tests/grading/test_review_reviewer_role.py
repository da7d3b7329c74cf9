"""A review without a comment tells the student who reviewed it (issue 37): a TA's review
read "Reviewed by your instructor."."""

import pytest
from django.test import Client

from courses.models import Part
from grading.reviews import review_create
from grading.services import submission_create

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("reviewer", "said"), [
    ("tara", "Reviewed by your teaching assistant."),
    ("irene", "Reviewed by your instructor."),
])
def test_a_review_without_a_comment_names_the_reviewer_s_role(request, course, alice,
                                                             reviewer, said):
    part = Part.objects.get(exercise__slug="extend-bottleneck")
    submission = submission_create(student=alice, course=course, part=part,
                                   raw_answer="One fixed-size vector holds all the words.")
    review_create(course=course, submission_id=submission.pk,
                  reviewer=request.getfixturevalue(reviewer), points=float(part.points))
    submission.refresh_from_db()
    assert submission.feedback == said
    student = Client()
    student.force_login(alice)
    assert said in student.get(f"/courses/{course.slug}/").content.decode()
