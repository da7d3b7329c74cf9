"""Misconceptions shown and cleared through the API."""

import pytest

from grading.models import Submission
from tests.grading.test_misconception_clearing import _answers, carriers  # noqa: F401

pytestmark = pytest.mark.django_db
C, W = Submission.Outcome.CORRECT, Submission.Outcome.INCORRECT


def test_the_class_counts_and_a_students_open_tags(course, key_client, readonly_token,
                                                    client_for, carriers):  # noqa: F811
    shown, q1, q2 = carriers
    ids = _answers(course, {"cleared": [(shown, W, "linear-decay"), (q1, C, ""), (q2, C, "")],
                            "open": [(shown, W, "linear-decay"), (q1, C, "")]})
    base = f"/api/v1/courses/{course.slug}/misconception-clearing/"
    body = key_client(readonly_token).get(base).json()
    assert body["clear_after"] == 2
    [row] = [t for t in body["tags"] if t["tag"] == "linear-decay"]
    assert (row["showed"], row["cleared"], row["open"]) == (2, 1, 1)
    mine = key_client(readonly_token).get(f"{base}students/{ids['open']}/").json()
    assert [(o["tag"], o["since"]) for o in mine["open"]] == [("linear-decay", [True])]
    assert key_client(readonly_token).get(f"{base}students/{ids['cleared']}/").json()["open"] == []


def test_a_student_reads_only_their_own(course, client_for, carriers):  # noqa: F811
    shown, q1, _ = carriers
    ids = _answers(course, {"me": [(shown, W, "linear-decay")], "other": [(q1, C, "")]})
    from django.contrib.auth.models import User

    me = client_for(User.objects.get(pk=ids["me"]))
    base = f"/api/v1/courses/{course.slug}/misconception-clearing/"
    assert [o["tag"] for o in me.get(f"{base}students/{ids['me']}/").json()["open"]] == [
        "linear-decay"]
    assert me.get(f"{base}students/{ids['other']}/").status_code == 403
    assert me.get(base).status_code == 403
