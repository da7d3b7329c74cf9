"""The lab pages' hand-written statements (labs/lab_statements.py) read what the ORM reads:
the same instances, rows and order, each in one statement."""

from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import Exists, OuterRef
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from courses.models import CourseModule, Enrollment, Exercise, Lab, Module, Part
from grading.models import Submission
from labs.lab_statements import enrolled_lab_get, lab_predictions_due, lab_runs_latest
from labs.models import LabRun
from labs.services import lab_run_request

pytestmark = pytest.mark.django_db


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields
            if f.attname not in instance.get_deferred_fields()}


def test_the_enrolment_and_lab_are_those_the_orm_reads(alice, course):
    with CaptureQueriesContext(connection) as queries:
        found = enrolled_lab_get(user_id=alice.pk, course_slug=course.slug, lab_slug="attention")
    assert len(queries) == 1
    orm = Enrollment.objects.select_related("course__module").get(user=alice, course=course)
    lab = Lab.objects.select_related("section").get(slug="attention")
    assert found.enrollment is not None and found.lab is not None
    assert _fields(found.enrollment) == _fields(orm)
    assert _fields(found.enrollment.course) == _fields(orm.course)
    assert _fields(found.enrollment.course.module) == _fields(orm.course.module)
    assert _fields(found.lab) == _fields(lab)  # param_schema (JSON), uuid, archived_at, ...
    with CaptureQueriesContext(connection) as queries:
        assert _fields(found.lab.section) == _fields(lab.section)
        assert found.enrollment.course.module.pk == orm.course.module_id
    assert len(queries) == 0  # the related objects came with the statement


def test_no_lab_when_archived_unknown_or_of_a_module_the_course_does_not_run(alice, course):
    def lab(slug="rnn"):
        return enrolled_lab_get(user_id=alice.pk, course_slug=course.slug, lab_slug=slug)

    assert lab().lab is not None
    assert lab("no-such-lab").lab is None and lab("no-such-lab").enrollment is not None
    Lab.objects.filter(slug="rnn").update(archived_at=timezone.now())
    assert lab().lab is None
    Lab.objects.filter(slug="rnn").update(archived_at=None)
    six = Lab.objects.filter(module__slug="module-06").first()
    assert six is not None and lab(six.slug).lab is None  # the course runs Module 5 only
    CourseModule.objects.create(course=course, module=Module.objects.get(slug="module-06"),
                                order=1)
    assert lab(six.slug).lab == six


def test_no_enrolment_for_a_stranger_an_inactive_member_or_another_course(
        alice, bob, course, other_course):
    assert enrolled_lab_get(user_id=alice.pk, course_slug=other_course.slug,
                            lab_slug="rnn").enrollment is None
    Enrollment.objects.filter(user=bob, course=course).update(is_active=False)
    assert enrolled_lab_get(user_id=bob.pk, course_slug=course.slug,
                            lab_slug="rnn").enrollment is None


def test_the_latest_runs_are_the_orm_s_newest_first_their_result_deferred(
        alice, bob, course, other_course):
    lab = Lab.objects.get(slug="rnn")
    for seed in range(5):
        lab_run_request(lab=lab, course=course, requester=alice, params={}, seed=seed)
    lab_run_request(lab=lab, course=other_course, requester=alice, params={}, seed=9)
    lab_run_request(lab=lab, course=course, requester=bob, params={}, seed=8)
    LabRun.objects.filter(seed=2).update(queued_at=timezone.now() + timedelta(minutes=1))
    runs = lab_runs_latest(lab_id=lab.pk, course_id=course.pk, requester_id=alice.pk, limit=3)
    orm = list(LabRun.objects.filter(lab=lab, course=course, requester=alice).defer("result")
               .order_by("-queued_at", "-id")[:3])
    assert [r.seed for r in runs] == [r.seed for r in orm] == [2, 4, 3]
    assert [_fields(r) for r in runs] == [_fields(r) for r in orm]
    assert runs[0].get_deferred_fields() == {"result"}
    assert runs[0].result is None  # loaded on use, as a deferred field is


def _orm_due(lab: Lab, course, student_id) -> list[Exercise]:
    """The ORM query the statement replaced."""
    committed = Submission.objects.filter(part=OuterRef("pk"), student_id=student_id,
                                          course=course, counts_as_attempt=True)
    due = (Part.objects.active().select_related("exercise")
           .filter(exercise__module_id=lab.module_id, exercise__archived_at__isnull=True,
                   spec__lab=lab.slug)
           .filter(~Exists(committed)).order_by("exercise__order"))
    return list({part.exercise_id: part.exercise for part in due}.values())


def test_the_predictions_due_are_the_orm_s_before_and_after_each_commitment(
        alice, bob, course, other_course):
    from grading.services import submission_create

    labs = list(Lab.objects.filter(slug__in=["word-vectors", "attention", "rnn"]))

    def both(lab, student_id, in_course=course):
        read = lab_predictions_due(module_id=lab.module_id, lab_slug=lab.slug,
                                   course_id=in_course.pk, student_id=student_id)
        return [_fields(e) for e in read], [_fields(e) for e in _orm_due(lab, in_course,
                                                                           student_id)]

    for lab in labs:
        read, orm = both(lab, alice.pk)
        assert read == orm
    word_vectors = next(lab for lab in labs if lab.slug == "word-vectors")
    assert [e["slug"] for e in both(word_vectors, alice.pk)[0]] == ["predict-analogy"]
    part = Part.objects.get(exercise__slug="predict-analogy", key="endpoint")
    submission_create(student=alice, course=course, part=part, raw_answer="((")  # unreadable
    assert both(word_vectors, alice.pk)[0] == both(word_vectors, alice.pk)[1] != []
    submission_create(student=alice, course=course, part=part, raw_answer="queen")
    for lab in labs:
        for student_id, where in ((alice.pk, course), (bob.pk, course),
                                  (alice.pk, other_course), (None, course)):
            read, orm = both(lab, student_id, where)
            assert read == orm
    assert both(word_vectors, alice.pk)[0] == []
    assert both(word_vectors, alice.pk, other_course)[0] != []  # committed in the other only
    Part.objects.filter(pk=part.pk).update(archived_at=timezone.now())
    assert both(word_vectors, bob.pk) == ([], [])
