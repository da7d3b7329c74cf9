"""Deep linking offers a course's quizzes and exams: the picker lists them after their
module's items, each becomes a resource link with a line item out of 100, and a launch of
that link opens the assessment's page."""

import pytest

from exams.models import Assessment
from lti.models import ResourceTarget
from lti.selectors import picker_items, target_path
from lti.services.deep_linking import deep_link_resources
from lti.services.launch import TARGET_PARAMETER

pytestmark = pytest.mark.django_db


def test_the_picker_offers_the_quiz_after_its_module_s_items(quiz_course):
    items = picker_items(course=quiz_course.course)
    assert items[-1].kind == "assessment"
    quiz = items[-1]
    assert quiz.uuid == str(quiz_course.assessment.uuid)
    assert quiz.title == "Quiz: Quiz 1: recurrence" and quiz.points == 100.0
    assert quiz.module == "exam-module"
    assert [i.kind for i in items][:2] == ["module", "section"]


def test_an_archived_assessment_is_not_offered_and_its_link_opens_the_course(quiz_course):
    course = quiz_course.course
    target = ResourceTarget(kind="assessment", content_uuid=quiz_course.assessment.uuid)
    assert target_path(course=course, target=target) == (
        f"/courses/{course.slug}/assessments/quiz-1/")
    Assessment.objects.filter(pk=quiz_course.assessment.pk).update(archived_at="2030-01-01T00:00Z")
    assert "assessment" not in {i.kind for i in picker_items(course=course)}
    assert target_path(course=course, target=target) == f"/courses/{course.slug}/"


def test_a_chosen_assessment_becomes_a_resource_link_with_a_line_item_out_of_100(quiz_course):
    [quiz] = [i for i in picker_items(course=quiz_course.course) if i.kind == "assessment"]
    [resource] = deep_link_resources(items=[quiz], launch_url="https://tool.example/lti/launch/")
    data = resource.to_dict()
    assert data["custom"] == {TARGET_PARAMETER: f"assessment:{quiz_course.assessment.uuid}"}
    assert data["lineItem"] == {"scoreMaximum": 100.0, "label": "Quiz: Quiz 1: recurrence",
                                "resourceId": str(quiz_course.assessment.uuid),
                                "tag": "grader-assessment"}
