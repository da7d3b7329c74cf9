"""Deep linking: an instructor picks exercises, sections and labs; the platform verifies the
answer's JWT with the tool's JWKS (over HTTP) and gets resource links with line items."""

import re

import pytest
from django.core.management import call_command
from django.db.models import Sum

from courses.models import Exercise, Lab, Section
from lti.services.launch import TARGET_PARAMETER
from tests.lti.platform import INSTRUCTOR, LEARNER, LaunchSpec, Platform

pytestmark = pytest.mark.django_db(transaction=True)


def _field(page: str, name: str) -> str:
    match = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert match, page[:800]
    return match.group(1)


def _picker(platform: Platform):
    http, response = platform.launch_over_http(
        LaunchSpec("teacher-1", [INSTRUCTOR], name="Ingrid Teach", deep_link=True))
    assert response.status_code == 302, response.text[:800]
    assert response.headers["Location"] == "/lti/deep-link/"
    picker = http.get(platform.tool_url + "/lti/deep-link/", timeout=10)
    assert picker.status_code == 200
    return http, picker


def _answer(http, platform: Platform, picker, values: list[str]):
    return http.post(platform.tool_url + "/lti/deep-link/", timeout=10, data={
        "csrfmiddlewaretoken": _field(picker.text, "csrfmiddlewaretoken"), "item": values},
        headers={"Referer": platform.tool_url + "/lti/deep-link/"})


def _pick(platform: Platform, values: list[str]):
    http, picker = _picker(platform)
    answer = _answer(http, platform, picker, values)
    assert answer.status_code == 200, answer.text[:800]
    action = re.search(r'action="([^"]*)" id="lti-deep-link-return"', answer.text)
    assert action and action.group(1) == f"{platform.issuer}/deep-link-return"
    return picker, http.post(action.group(1), data={"JWT": _field(answer.text, "JWT")},
                             timeout=10)


def test_the_picker_lists_the_modules_sections_exercises_and_labs(platform):
    http, picker = _picker(platform)
    for model in (Section, Exercise, Lab):
        for item in model.objects.filter(module__slug="module-05"):
            assert str(item.uuid) in picker.text

    nothing = _answer(http, platform, picker, [])

    assert nothing.status_code == 400
    assert "Choose at least one item." in nothing.text


def test_chosen_items_come_back_as_resource_links_the_platform_verifies(platform):
    exercise = Exercise.objects.get(slug="apply-1-gradient-bound")
    lab = Lab.objects.filter(module__slug="module-05").first()
    section = Section.objects.filter(module__slug="module-05").first()
    points = exercise.parts.aggregate(total=Sum("points"))["total"]

    _, returned = _pick(platform, [f"exercise:{exercise.uuid}", f"lab:{lab.uuid}",
                                   f"section:{section.uuid}"])

    assert returned.status_code == 200, platform.deep_link_errors
    [items] = platform.deep_link_items
    by_target = {item["custom"][TARGET_PARAMETER]: item for item in items}
    assert set(by_target) == {f"section:{section.uuid}", f"exercise:{exercise.uuid}",
                              f"lab:{lab.uuid}"}
    graded = by_target[f"exercise:{exercise.uuid}"]
    assert graded["type"] == "ltiResourceLink"
    assert graded["url"] == platform.tool_url + "/lti/launch/"
    assert graded["lineItem"] == {"scoreMaximum": points, "label": exercise.title,
                                  "resourceId": str(exercise.uuid), "tag": "grader-exercise"}
    assert "lineItem" not in by_target[f"lab:{lab.uuid}"]


def test_after_a_tool_key_rotation_the_platform_still_verifies_the_answer(platform):
    call_command("rotate_keys", "--deactivate-after", "7")  # the old key stays in the JWKS
    exercise = Exercise.objects.get(slug="apply-1-gradient-bound")

    _, returned = _pick(platform, [f"exercise:{exercise.uuid}"])

    assert returned.status_code == 200, platform.deep_link_errors


def test_a_student_cannot_deep_link(platform):
    _, response = platform.launch_over_http(LaunchSpec("student-1", [LEARNER], deep_link=True))
    assert response.status_code == 403
    assert "instructors can add activities" in response.text
