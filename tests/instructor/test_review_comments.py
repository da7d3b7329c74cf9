"""A TA's review comment is shown to the student and on the dashboard without loading
anything from another host (no tracking pixel) and with links that pass no rank or opener."""

import pytest
from django.test import Client

from courses.models import Part
from grading.reviews import review_create
from grading.services import submission_create

pytestmark = pytest.mark.django_db

COMMENT = ("Good. ![seen](https://tracker.example/p.gif?student=alice) "
           "See [the notes](https://notes.example/attention).")


def test_a_review_comment_renders_no_foreign_image_and_links_nofollow(course, irene, alice):
    part = Part.objects.get(exercise__slug="extend-bottleneck")
    submission = submission_create(student=alice, course=course, part=part,
                                   raw_answer="One fixed-size vector holds all the words.")
    review_create(course=course, submission_id=submission.pk, reviewer=irene,
                  points=float(part.points), comment=COMMENT)
    staff, student = Client(), Client()
    staff.force_login(irene)
    student.force_login(alice)

    pages = [staff.get(f"/courses/{course.slug}/dashboard/students/{alice.pk}/"),
             student.get(f"/courses/{course.slug}/")]

    for page in pages:
        html = page.content.decode()
        assert page.status_code == 200
        assert "See " in html and "the notes" in html
        assert "tracker.example" not in html
        assert 'href="https://notes.example/attention" rel="nofollow noopener noreferrer"' in html
