"""Roster sync: one list in, enrolments created, updated and deactivated, and the diff out."""

import json
from typing import cast

import pytest
from django.contrib.auth.models import User

from courses.models import Enrollment, Part
from courses.roster import RosterEntry, RosterInvalid, RosterMassDeactivation, roster_sync
from grading.models import Submission
from grading.services import SubmissionRefused, submission_create
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def entry(external_id: str, name: str = "", email: str = "", role: str = "student",
          group: str = "") -> RosterEntry:
    return RosterEntry(external_id=external_id, name=name or f"Student {external_id}",
                       email=email or f"{external_id}@uni.example", role=role, group=group)


def test_a_first_sync_creates_users_and_enrolments(course) -> None:
    diff = roster_sync(course=course, entries=[entry("s1", "Ada Lovelace", group="A"),
                                               entry("s2", role="ta")])
    assert (diff.created, diff.updated, diff.deactivated, diff.unchanged) == (["s1", "s2"], [], [], [])
    ada = Enrollment.objects.select_related("user").get(course=course, external_id="s1")
    assert (ada.user.first_name, ada.user.last_name, ada.group, ada.role) == ("Ada", "Lovelace", "A",
                                                                                "student")
    assert not ada.user.has_usable_password()
    assert Enrollment.objects.get(course=course, external_id="s2").role == "ta"


def test_a_second_sync_reports_updates_deactivations_and_unchanged(course) -> None:
    roster_sync(course=course, entries=[entry("s1"), entry("s2"), entry("s3")])
    diff = roster_sync(course=course, entries=[entry("s1"), entry("s2", group="B"),
                                               entry("s4", "New Person")])
    assert diff.created == ["s4"]
    assert diff.updated == ["s2"]
    assert diff.deactivated == ["s3"]
    assert diff.unchanged == ["s1"]
    assert not Enrollment.objects.get(course=course, external_id="s3").is_active


def test_a_deactivated_student_keeps_their_work_and_comes_back_when_listed_again(course) -> None:
    roster_sync(course=course, entries=[entry("s1")])
    student = User.objects.get(enrollments__external_id="s1")
    part = Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
    submission_create(student=student, course=course, part=part, raw_answer="0.1")

    assert roster_sync(course=course, entries=[], allow_mass_deactivation=True).deactivated == ["s1"]
    assert Submission.objects.filter(student=student).count() == 1
    with pytest.raises(SubmissionRefused):
        submission_create(student=student, course=course, part=part, raw_answer="0.2")

    assert roster_sync(course=course, entries=[entry("s1")]).updated == ["s1"]
    assert Enrollment.objects.get(course=course, user=student).is_active


def test_enrolments_made_by_hand_are_never_deactivated(course, irene, alice) -> None:
    diff = roster_sync(course=course, entries=[entry("s1")])
    assert diff.deactivated == []
    assert Enrollment.objects.filter(course=course, user__in=[irene, alice], is_active=True).count() == 2


def test_an_enrolment_made_here_by_hand_is_adopted_by_email(course, alice) -> None:
    diff = roster_sync(course=course, entries=[entry("alice-42", "Alice Liddell",
                                                     email="ALICE@example.org")])
    assert diff.updated == ["alice-42"]  # alice's enrolment here, now LMS-managed
    assert Enrollment.objects.get(course=course, user=alice).external_id == "alice-42"
    assert User.objects.filter(email__iexact="alice@example.org").count() == 1


def test_accounts_of_other_courses_are_never_taken_over_or_renamed(course, other_course) -> None:
    roster_sync(course=other_course, entries=[entry("B-0007", "Sam Other", email="sam@uni-b.example")])
    sam = User.objects.get(enrollments__course=other_course, enrollments__external_id="B-0007")
    olga = cast(User, UserFactory(username="olga", first_name="Olga", email="olga@uni-b.example"))
    Enrollment.objects.create(user=olga, course=other_course, role=Enrollment.Role.INSTRUCTOR)

    diff = roster_sync(course=course, entries=[
        entry("B-0007", "Renamed Sam", email="attacker@evil.example"),
        entry("x1", "Mallory Evil", email="olga@uni-b.example"),
    ])

    assert diff.created == ["B-0007", "x1"]
    sam.refresh_from_db()
    olga.refresh_from_db()
    assert (sam.get_full_name(), sam.email) == ("Sam Other", "sam@uni-b.example")
    assert (olga.first_name, olga.email) == ("Olga", "olga@uni-b.example")
    here = set(Enrollment.objects.filter(course=course, external_id__in=["B-0007", "x1"])
               .values_list("user__username", flat=True))
    assert not here & {sam.username, "olga"}


def test_a_shared_account_enrolled_here_by_hand_is_adopted_but_not_renamed(
    course, other_course, alice
) -> None:
    Enrollment.objects.create(user=alice, course=other_course, role=Enrollment.Role.STUDENT)
    roster_sync(course=course, entries=[entry("a-1", "Someone Else", email="alice@example.org")])
    alice.refresh_from_db()
    assert Enrollment.objects.get(course=course, user=alice).external_id == "a-1"
    assert alice.first_name != "Someone"


def test_a_roster_cannot_make_or_adopt_instructors(course, irene) -> None:
    with pytest.raises(RosterInvalid) as error:
        roster_sync(course=course, entries=[entry("boss", role="instructor")])
    assert "instructors are added in the service" in error.value.errors["0.role"][0]

    roster_sync(course=course, entries=[entry("i-1", email=irene.email)])
    assert Enrollment.objects.get(course=course, user=irene).role == Enrollment.Role.INSTRUCTOR
    assert Enrollment.objects.get(course=course, user=irene).external_id == ""


def test_an_ambiguous_email_links_nobody(course) -> None:
    for name in ("twin1", "twin2"):
        twin = cast(User, UserFactory(username=name, email="twin@example.org"))
        Enrollment.objects.create(user=twin, course=course, role=Enrollment.Role.STUDENT)
    roster_sync(course=course, entries=[entry("t", email="twin@example.org")])
    user = Enrollment.objects.get(course=course, external_id="t").user
    assert user.username not in ("twin1", "twin2")


def test_new_usernames_never_collide(course) -> None:
    UserFactory(username="s1")
    roster_sync(course=course, entries=[entry("s1", email="someone-else@example.org")])
    assert Enrollment.objects.get(course=course, external_id="s1").user.username == "s1-2"


def test_an_invalid_roster_changes_nothing(course) -> None:
    roster_sync(course=course, entries=[entry("s1")])
    with pytest.raises(RosterInvalid) as error:
        roster_sync(course=course, entries=[entry("s2"), entry("s2"), entry("s3", role="dean")])
    assert set(error.value.errors) == {"0.external_id", "1.external_id", "2.role"}
    assert list(Enrollment.objects.filter(course=course, external_id__startswith="s")
                .values_list("external_id", "is_active")) == [("s1", True)]


@pytest.mark.parametrize("size", [5, 40])
def test_the_number_of_queries_does_not_grow_with_the_roster(course, size, django_assert_max_num_queries):
    roster_sync(course=course, entries=[entry(f"old{n}") for n in range(size)])
    entries = [entry(f"old{n}", group="G") for n in range(size // 2)]
    entries += [entry(f"new{n}") for n in range(size)]
    with django_assert_max_num_queries(14):
        diff = roster_sync(course=course, entries=entries, allow_mass_deactivation=True)
    assert len(diff.created) == size and len(diff.updated) == size // 2
    assert len(diff.deactivated) == size - size // 2


def test_the_roster_api_answers_with_the_diff(course, irene, client) -> None:
    client.force_login(irene)
    url = f"/api/v1/courses/{course.slug}/roster/"
    body = {"roster": [{"external_id": "s1", "name": "Ada Lovelace", "email": "ada@uni.example",
                        "group": "A"}]}
    first = client.put(url, body, content_type="application/json")
    assert first.status_code == 200
    assert first.json() == {"created": ["s1"], "updated": [], "deactivated": [], "unchanged": []}
    assert client.put(url, body, content_type="application/json").json()["unchanged"] == ["s1"]
    emptied = client.put(url, {"roster": [], "allow_mass_deactivation": True},
                         content_type="application/json")
    assert emptied.json()["deactivated"] == ["s1"]
    listed = client.get(url).json()["results"]
    assert {r["external_id"]: r["is_active"] for r in listed}["s1"] is False


def test_the_roster_api_names_the_bad_fields(course, irene, client) -> None:
    client.force_login(irene)
    url = f"/api/v1/courses/{course.slug}/roster/"
    response = client.put(url, {"roster": [{"external_id": "s1", "email": "not an email"},
                                           {"external_id": "s1"}]},
                          content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert "roster.0.email" in response.json()["fields"]
    response = client.put(url, {"roster": [{"external_id": "s1"}, {"external_id": "s1"}]},
                          content_type="application/json")
    assert response.status_code == 400 and "roster.1.external_id" in response.json()["fields"]


def _lms_roster(course, client, irene, size: int = 5) -> str:
    client.force_login(irene)
    url = f"/api/v1/courses/{course.slug}/roster/"
    roster = [{"external_id": f"s{n}", "email": f"s{n}@uni.example"} for n in range(size)]
    assert client.put(url, {"roster": roster}, content_type="application/json").status_code == 200
    return url


@pytest.mark.parametrize(("content_type", "body"), [
    ("multipart/form-data; boundary=BoUnDaRy", b""),
    ("multipart/form-data; boundary=BoUnDaRy",
     b'--BoUnDaRy\r\nContent-Disposition: form-data; name="foo"\r\n\r\nbar\r\n--BoUnDaRy--\r\n'),
    ("application/x-www-form-urlencoded", b"foo=bar"),
    ("application/x-www-form-urlencoded", b""),
    ("text/plain", b'{"roster": []}'),
])
def test_a_roster_put_that_is_not_json_is_refused_and_changes_nothing(
        course, irene, client, content_type, body) -> None:
    url = _lms_roster(course, client, irene)
    # The test client leaves Content-Type out for an empty body; a real client sends it.
    response = client.generic("PUT", url, body, content_type=content_type, CONTENT_TYPE=content_type)
    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"
    assert Enrollment.objects.filter(course=course, external_id__gt="", is_active=True).count() == 5


@pytest.mark.parametrize("body", [{}, {"foo": "bar"}, [], [{"external_id": "s1"}], "roster", None,
                                  {"roster": None}, {"allow_mass_deactivation": True}])
def test_a_roster_put_without_the_roster_field_is_refused_and_changes_nothing(
        course, irene, client, body) -> None:
    url = _lms_roster(course, client, irene)
    response = client.put(url, json.dumps(body), content_type="application/json")
    assert response.status_code == 400
    assert "roster" in response.json()["fields"]
    assert Enrollment.objects.filter(course=course, external_id__gt="", is_active=True).count() == 5


def test_a_roster_put_with_an_empty_body_is_refused(course, irene, client) -> None:
    url = _lms_roster(course, client, irene)
    response = client.put(url, b"", content_type="application/json")
    assert response.status_code == 400
    assert Enrollment.objects.filter(course=course, external_id__gt="", is_active=True).count() == 5


def test_a_sync_deactivating_more_than_the_allowed_share_is_refused_unless_confirmed(
        course, irene, client, settings) -> None:
    settings.ROSTER_MAX_DEACTIVATION_SHARE = 0.2
    url = _lms_roster(course, client, irene, size=10)
    keep = [{"external_id": f"s{n}"} for n in range(7)]  # would drop 3 of 10: 30%
    refused = client.put(url, {"roster": keep}, content_type="application/json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "mass_deactivation_refused"
    assert "3 of the 10" in refused.json()["message"]
    assert Enrollment.objects.filter(course=course, external_id__gt="", is_active=True).count() == 10

    within = client.put(url, {"roster": [*keep, {"external_id": "s7"}, {"external_id": "s8"}]},
                        content_type="application/json")  # drops 1 of 10
    assert within.status_code == 200 and within.json()["deactivated"] == ["s9"]

    confirmed = client.put(url, {"roster": keep, "allow_mass_deactivation": True},
                           content_type="application/json")
    assert confirmed.status_code == 200
    assert sorted(confirmed.json()["deactivated"]) == ["s7", "s8"]


def test_the_deactivation_share_is_a_rule_of_the_service(course, settings) -> None:
    settings.ROSTER_MAX_DEACTIVATION_SHARE = 0.5
    roster_sync(course=course, entries=[entry(f"s{n}") for n in range(4)])
    with pytest.raises(RosterMassDeactivation, match="3 of the 4"):
        roster_sync(course=course, entries=[entry("s0")])
    assert Enrollment.objects.filter(course=course, is_active=True).count() == 4
    assert roster_sync(course=course, entries=[entry("s0"), entry("s1")]).deactivated == ["s2", "s3"]
