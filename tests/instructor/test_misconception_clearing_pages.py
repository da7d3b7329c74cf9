"""The misconception profile counts who showed and cleared each tag; a student's page lists
their open misconceptions."""

import pytest

from grading.models import Submission
from tests.grading.test_misconception_clearing import _answers, carriers  # noqa: F401

pytestmark = pytest.mark.django_db
C, W = Submission.Outcome.CORRECT, Submission.Outcome.INCORRECT


def test_the_profile_and_the_student_page_show_cleared_and_open(client, course, irene,
                                                                 carriers):  # noqa: F811
    shown, q1, q2 = carriers
    ids = _answers(course, {"cleared": [(shown, W, "linear-decay"), (q1, C, ""), (q2, C, "")],
                            "open": [(shown, W, "linear-decay"), (q1, W, ""), (q1, C, "")]})
    client.force_login(irene)
    base = f"/courses/{course.slug}/dashboard"
    profile = client.get(f"{base}/misconceptions/").content.decode()
    table = profile.split('<table class="clearing">')[1].split("</table>")[0]
    assert "linear-decay" in table
    assert '<td class="num">2</td><td class="num">1</td><td class="num">1</td>' in table
    page = client.get(f"{base}/students/{ids['open']}/").content.decode()
    open_list = page.split('<ul class="open-misconceptions">')[1].split("</ul>")[0]
    assert "linear-decay" in open_list and "first attempts wrong" in open_list
    cleared = client.get(f"{base}/students/{ids['cleared']}/").content.decode()
    assert '<ul class="open-misconceptions">' not in cleared
