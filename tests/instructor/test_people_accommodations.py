"""Exam accommodations on the People page: the instructors' form (bad numbers named, nothing
changed), and the CSV columns `time_factor` and `extra_attempts` (checked as a whole before
anything is applied; applied after the people are enrolled; a newcomer gets theirs)."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from courses.models import Enrollment
from exams.models import Accommodation
from tests.factories import EnrollmentFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_an_instructor_sets_an_accommodation_and_bad_numbers_change_nothing(
        client, course, irene, alice):
    client.force_login(irene)
    url = reverse("dashboard:people-accommodation", args=[course.slug])
    page = client.post(url, {"username": "alice", "time_factor": "1.5", "extra_attempts": "1"},
                       follow=True).content.decode()
    assert "The exam accommodation of alice is saved." in page
    assert "<td>alice</td>" in page
    accommodation = Accommodation.objects.get(course=course, student=alice)
    assert (accommodation.time_factor, accommodation.extra_attempts) == (1.5, 1)
    for data, message in (
            ({"username": "alice", "time_factor": "7", "extra_attempts": "1"},
             "Time factor: Ensure this value is less than or equal to 5.0."),
            ({"username": "alice", "time_factor": "2", "extra_attempts": "999999999999"},
             "Extra attempts: Ensure this value is less than or equal to 20."),
            ({"username": "irene", "time_factor": "2", "extra_attempts": "0"},
             "That person is not a student of this course.")):
        page = client.post(url, data, follow=True).content.decode()
        assert message in page
    accommodation.refresh_from_db()
    assert (accommodation.time_factor, accommodation.extra_attempts) == (1.5, 1)


def test_a_ta_may_not_set_an_accommodation(client, course, alice):
    ta = UserFactory(username="tom")
    EnrollmentFactory(course=course, user=ta, role="ta")
    client.force_login(ta)
    url = reverse("dashboard:people-accommodation", args=[course.slug])
    assert client.post(url, {"username": "alice", "time_factor": "2",
                             "extra_attempts": "0"}).status_code == 403
    assert not Accommodation.objects.exists()


def test_the_csv_sets_accommodations_after_enrolling_the_newcomers(client, course, irene, alice):
    client.force_login(irene)
    text = (b"username,email,role,time_factor,extra_attempts\n"
            b"alice,,student,1.25,\n"
            b"newbie,newbie@example.org,student,2,1\n"
            b"plain,plain@example.org,student,,\n")
    url = reverse("dashboard:people-upload", args=[course.slug])
    preview = client.post(url, {"action": "preview",
                                "people": SimpleUploadedFile("class.csv", text)}).content.decode()
    assert "2 students would get an accommodation" in preview
    assert not Accommodation.objects.exists()
    applied = client.post(url, {"action": "apply",
                                "people": SimpleUploadedFile("class.csv", text)}).content.decode()
    assert "Exam accommodations set" in applied
    got = dict(Accommodation.objects.values_list("student__username", "time_factor"))
    assert got == {"alice": 1.25, "newbie": 2.0}
    assert Accommodation.objects.get(student__username="newbie").extra_attempts == 1


def test_a_bad_accommodation_cell_refuses_the_whole_file(client, course, irene):
    client.force_login(irene)
    text = b"username,email,time_factor\nnewbie,newbie@example.org,9\n"
    page = client.post(reverse("dashboard:people-upload", args=[course.slug]), {
        "action": "apply", "people": SimpleUploadedFile("class.csv", text)}).content.decode()
    assert "class.csv:2: time_factor must be between 1 and 5, not 9" in page
    assert not Enrollment.objects.filter(user__username="newbie").exists()
    assert not Accommodation.objects.exists()
