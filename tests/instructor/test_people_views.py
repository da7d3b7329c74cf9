"""The People tab, the invite page and the new-course page (issue 23 item 3): who may see
and change what, the CSV upload's preview and apply, joining through a link."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from courses.models import Course, CourseInvite, Enrollment
from courses.people import invite_create
from tests.factories import EnrollmentFactory, UserFactory

pytestmark = pytest.mark.django_db


def _people(course: Course) -> str:
    return reverse("dashboard:people", args=[course.slug])


def test_instructors_manage_tas_see_students_are_refused_others_do_not_find_it(
        client, course, other_course, irene, alice):
    ta = UserFactory(username="tom")
    EnrollmentFactory(course=course, user=ta, role="ta")
    client.force_login(irene)
    page = client.get(_people(course)).content.decode()
    assert "Add people from a CSV file" in page and "alice" in page
    client.force_login(ta)
    page = client.get(_people(course)).content.decode()
    assert "alice" in page and "Add people from a CSV file" not in page
    member = Enrollment.objects.get(course=course, user=alice)
    assert client.post(reverse("dashboard:member-role", args=[course.slug, member.pk]),
                       {"role": "ta"}).status_code == 403
    client.force_login(alice)
    assert client.get(_people(course)).status_code == 403
    client.force_login(irene)
    assert client.get(_people(other_course)).status_code == 404


def test_a_csv_upload_previews_then_applies(client, course, irene):
    client.force_login(irene)
    text = b"username,email,role\nnewbie,newbie@example.org,student\n"
    url = reverse("dashboard:people-upload", args=[course.slug])
    preview = client.post(url, {"action": "preview",
                                "people": SimpleUploadedFile("class.csv", text)})
    assert "Preview: nothing changed yet" in preview.content.decode()
    assert not Enrollment.objects.filter(user__username="newbie").exists()
    applied = client.post(url, {"action": "apply",
                                "people": SimpleUploadedFile("class.csv", text)})
    assert "Upload applied" in applied.content.decode()
    assert Enrollment.objects.filter(course=course, user__username="newbie").exists()


def test_a_bad_line_is_shown_as_file_and_line(client, course, irene):
    client.force_login(irene)
    response = client.post(reverse("dashboard:people-upload", args=[course.slug]), {
        "action": "apply",
        "people": SimpleUploadedFile("class.csv", b"username,role\nzed,boss\n")})
    assert "class.csv:2: unknown role" in response.content.decode()


def test_a_signed_in_person_joins_through_the_link(client, course, irene):
    link = invite_create(course=course, by=irene, role="student")
    newcomer = UserFactory(username="nia")
    client.force_login(newcomer)
    url = reverse("invite", args=[link.token])
    assert "Join the course" in client.get(url).content.decode()
    response = client.post(url, {"action": "join"})
    assert response.status_code == 302
    assert response["Location"] == reverse("course-module", args=[course.slug])
    assert Enrollment.objects.get(course=course, user=newcomer).role == "student"


def test_a_new_person_creates_an_account_through_the_link_and_is_signed_in(client, course,
                                                                          irene):
    link = invite_create(course=course, by=irene, role="student")
    url = reverse("invite", args=[link.token])
    response = client.post(url, {"action": "sign-up", "username": "omar",
                                 "email": "omar@example.org",
                                 "password": "a long passphrase 47"})
    assert response.status_code == 302
    assert client.get(reverse("course-module", args=[course.slug])).status_code == 200
    weak = Client().post(url, {"action": "sign-up", "username": "pia",
                               "email": "p@example.org", "password": "1"})
    assert weak.status_code == 400
    assert "too short" in weak.content.decode()
    assert not Enrollment.objects.filter(user__username="pia").exists()


def test_an_unknown_link_is_404_and_an_ended_one_says_so(client, course, irene):
    assert client.get(reverse("invite", args=["nope"])).status_code == 404
    link = invite_create(course=course, by=irene, role="student")
    CourseInvite.objects.filter(pk=link.pk).update(max_uses=1, uses=1)
    assert "has ended" in client.get(reverse("invite", args=[link.token])).content.decode()


def test_an_instructor_creates_a_course_on_its_page(client, course, irene, module_05):
    client.force_login(irene)
    assert client.get(reverse("new-course")).status_code == 200
    response = client.post(reverse("new-course"), {"title": "NN 2027", "slug": "nn-2027",
                                                   "modules": [str(module_05.pk)]})
    assert response.status_code == 302
    assert response["Location"] == reverse("dashboard:content", args=["nn-2027"])
    assert Enrollment.objects.get(course__slug="nn-2027", user=irene).role == "instructor"


def test_a_student_may_not_create_courses(client, alice):
    client.force_login(alice)
    assert client.get(reverse("new-course")).status_code == 403


def test_the_csv_preview_shows_each_person_s_role_and_group(client, course, irene):
    client.force_login(irene)
    text = b"username,email,role,group\nnewbie,newbie@example.org,ta,Lab 2\n"
    page = client.post(reverse("dashboard:people-upload", args=[course.slug]), {
        "action": "preview", "people": SimpleUploadedFile("class.csv", text)}).content.decode()
    assert "What would change" in page
    assert ("<tr><td>newbie</td><td>enrol (new account)</td>\n  <td>Teaching assistant</td>\n"
            "  <td>Lab 2</td></tr>") in page


def test_a_flash_message_is_shown_once_on_a_dashboard_page(client, course, irene):
    client.force_login(irene)
    page = client.post(reverse("dashboard:invite-new", args=[course.slug]), {"role": "student"},
                       follow=True).content.decode()
    assert page.count("Invite link created.") == 1


def test_an_instructor_gets_a_password_link_for_a_member_without_a_password(
        client, course, irene, alice, tara):
    from courses.people_import import people_import
    people_import(course=course, by=irene, apply=True,
                  text="username,email\ncarol,carol@example.org\n")
    carol = Enrollment.objects.get(course=course, user__username="carol")
    client.force_login(irene)
    page = client.get(_people(course)).content.decode()
    assert 'aria-label="Password link for carol"' in page
    assert 'aria-label="Password link for alice"' not in page
    url = reverse("dashboard:member-password-link", args=[course.slug, carol.pk])
    shown = client.post(url).content.decode()
    assert "Password link for carol" in shown
    assert 'value="http://testserver/accounts/password/' in shown
    alice_member = Enrollment.objects.get(course=course, user=alice)
    refused = client.post(reverse("dashboard:member-password-link",
                                  args=[course.slug, alice_member.pk]), follow=True)
    assert "alice has a password already" in refused.content.decode()
    client.force_login(tara)
    assert client.post(url).status_code == 403
