"""What starting an attempt reads, in two compiled queries whatever the number of questions:
the course's link to the assessment's module with everything about the student that start
decides on (active enrolment, default variant, access code, window extension,
accommodation), and the student's attempts at the assessment.

Start is the request a whole class sends in the same minute: every statement it builds and
compiles costs a millisecond or more of Python, so these are compiled once per process
(core/compiled_query.py). A statement the benchmark (tests/benchmarks/test_exam_rush.py)
showed was the start's cost: eleven reads, each built and compiled per request.
"""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Exists, OuterRef, QuerySet, Subquery

from core.compiled_query import CompiledQuery
from courses.models import CourseModule, Enrollment
from exams.models import Accommodation, Attempt, Proctoring, WindowExtension
from grading.models import DefaultVariant


@dataclass(frozen=True)
class StartFacts:
    """The course's link to the module (None: the assessment is not part of the course) and
    the student's standing in it."""

    link: CourseModule | None
    enrolled: bool
    default_variant: bool
    access_code: str
    extension_closes_at: datetime | None
    time_factor: float
    extra_attempts: int


def _link(course_id: int, module_id: int, student_id: int, assessment_id: int
          ) -> QuerySet[CourseModule]:
    mine = {"course_id": OuterRef("course_id"), "student_id": student_id}
    of_assessment = {**mine, "assessment_id": assessment_id}
    accommodation = Accommodation.objects.filter(**mine)
    return (CourseModule.objects.filter(course_id=course_id, module_id=module_id)
            .annotate(
                enrolled=Exists(Enrollment.objects.filter(
                    course_id=OuterRef("course_id"), user_id=student_id, is_active=True)),
                default_variant=Exists(DefaultVariant.objects.filter(**mine)),
                access_code=Subquery(Proctoring.objects.filter(
                    course_id=OuterRef("course_id"), assessment_id=assessment_id)
                    .values("access_code")[:1]),
                extension_closes_at=Subquery(WindowExtension.objects.filter(**of_assessment)
                                             .values("closes_at")[:1]),
                time_factor=Subquery(accommodation.values("time_factor")[:1]),
                extra_attempts=Subquery(accommodation.values("extra_attempts")[:1]))
            .order_by("id")[:1])


def _enrolled(course_id: int, student_id: int) -> QuerySet[Enrollment]:
    return Enrollment.objects.filter(course_id=course_id, user_id=student_id,
                                     is_active=True).order_by("id")[:1]


def _attempts(course_id: int, student_id: int, assessment_id: int) -> QuerySet[Attempt]:
    return Attempt.objects.filter(course_id=course_id, student_id=student_id,
                                  assessment_id=assessment_id).order_by("number")


_LINK = CompiledQuery(_link, course_id=int, module_id=int, student_id=int, assessment_id=int)
_ENROLLED = CompiledQuery(_enrolled, course_id=int, student_id=int)
_ATTEMPTS = CompiledQuery(_attempts, course_id=int, student_id=int, assessment_id=int)


def start_facts(*, course_id: int, module_id: int, student_id: int, assessment_id: int
                ) -> StartFacts:
    """What start decides on; one compiled query (two when the module is not in the course,
    to tell a non-member from a member of another course's assessment)."""
    link = _LINK.first(course_id=course_id, module_id=module_id, student_id=student_id,
                       assessment_id=assessment_id)
    if link is None:
        enrolled = _ENROLLED.first(course_id=course_id, student_id=student_id) is not None
        return StartFacts(None, enrolled, False, "", None, 1.0, 0)
    found = link.__dict__
    return StartFacts(
        link=link, enrolled=bool(found["enrolled"]),
        default_variant=bool(found["default_variant"]),
        access_code=found["access_code"] or "",
        extension_closes_at=found["extension_closes_at"],
        time_factor=1.0 if found["time_factor"] is None else float(found["time_factor"]),
        extra_attempts=int(found["extra_attempts"] or 0))


def attempts_of_student(*, course_id: int, student_id: int, assessment_id: int
                        ) -> list[Attempt]:
    """The student's attempts at the assessment in the course, by number; one compiled query."""
    return _ATTEMPTS.rows(course_id=course_id, student_id=student_id,
                          assessment_id=assessment_id)
