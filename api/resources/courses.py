"""REST API: the course, its module, sections and exercises (students see their own variant)."""

from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.access import STUDENT_VARIANT, CourseAccess, acting_student, principal_of
from api.base import ApiView
from api.errors import ApiError
from api.fields import id_field
from courses.models import Course, Exercise, Section
from courses.selectors import course_exercises, course_list_for_user
from grading.public_spec import public_spec
from grading.variant_assignment import Variant, default_variant, variant_for


def exercise_representation(exercise: Exercise, access: CourseAccess,
                            for_student: User | None = None) -> dict[str, Any]:
    """An exercise as the caller may see it (student: own variant, public spec). Staff and
    keys see the full spec and the default numbers, or with `for_student` that student's
    variant (its prompt and its parameter values)."""
    student = access.user if not access.is_staff else None
    whose = student if student is not None else for_student
    variant: Variant = (variant_for(student=whose, course=access.course, exercise=exercise)
                        if whose is not None else default_variant(exercise=exercise))
    data: dict[str, Any] = {
        "uuid": str(exercise.uuid), "slug": exercise.slug, "kind": exercise.kind,
        "title": exercise.title, "section": exercise.section.number, "order": exercise.order,
        "max_attempts": exercise.max_attempts, "penalty": exercise.penalty,
        "prompt": variant.prompt(exercise.prompt),
        "parts": [
            {"id": part.pk, "key": part.key, "answer_type": part.answer_type,
             "points": part.points, "prompt": variant.prompt(part.prompt),
             "spec": dict(part.spec) if student is None else public_spec(part.spec, variant.params)}
            for part in exercise.parts.all()
        ],
    }
    if student is None:
        data["parameters"] = exercise.parameters
        data["derived"] = exercise.derived
        if for_student is not None:
            data["student"] = for_student.pk
            data["variant"] = dict(variant.params)
    return data


class ExerciseQuery(serializers.Serializer):
    student = id_field(required=False, help_text=STUDENT_VARIANT)


def _for_student(view: ApiView, access: CourseAccess) -> User | None:
    """The student named by `?student=` (staff and keys; a student may name only themself)."""
    student_id = view.query(ExerciseQuery).get("student")
    if student_id is None:
        return None
    student = acting_student(access, student_id)
    return student if access.is_staff else None


class ModuleSerializer(serializers.Serializer):
    slug = serializers.CharField()
    number = serializers.CharField()
    title = serializers.CharField()


class CourseOutput(serializers.Serializer):
    slug = serializers.SlugField()
    title = serializers.CharField()
    module = ModuleSerializer()
    created_at = serializers.DateTimeField()


class CourseListApi(ApiView):
    @extend_schema(responses=CourseOutput(many=True), operation_id="courses_list")
    def get(self, request: Request) -> Response:
        """Courses the caller belongs to (an API key: its one course)."""
        principal = principal_of(request)
        courses: QuerySet[Course]
        if principal.api_key is not None:
            courses = Course.objects.filter(pk=principal.api_key.course_id).select_related("module")
        else:
            courses = course_list_for_user(user=request.user)
        return self.paginated(request, courses.order_by("title", "id"), CourseOutput)


class CourseDetailApi(ApiView):
    class OutputSerializer(CourseOutput):
        role = serializers.CharField(help_text="the caller's role: student, ta, instructor, lms, read_only")

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, course_slug: str) -> Response:
        """One course and the caller's role in it."""
        access = self.access(course_slug)
        data = {**CourseOutput(access.course).data, "role": access.role}
        return Response(self.OutputSerializer(data).data)


class ModuleDetailApi(ApiView):
    class OutputSerializer(serializers.Serializer):
        uuid = serializers.UUIDField()
        slug = serializers.CharField()
        number = serializers.CharField()
        title = serializers.CharField()
        intro = serializers.CharField()
        references = serializers.JSONField()

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, course_slug: str) -> Response:
        """The course's module (Markdown text)."""
        access = self.access(course_slug)
        return Response(self.OutputSerializer(access.course.module).data)


class SectionSummary(serializers.Serializer):
    uuid = serializers.UUIDField()
    number = serializers.CharField()
    slug = serializers.CharField()
    title = serializers.CharField()
    order = serializers.IntegerField()


class SectionListApi(ApiView):
    @extend_schema(responses=SectionSummary(many=True))
    def get(self, request: Request, course_slug: str) -> Response:
        """The module's sections in order."""
        access = self.access(course_slug)
        sections = Section.objects.active().filter(
            module_id__in=access.course.module_ids()).order_by("module__number", "order")
        return self.paginated(request, sections, SectionSummary)


class SectionDetailApi(ApiView):
    class OutputSerializer(SectionSummary):
        body = serializers.CharField(help_text="Markdown with LaTeX")

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, course_slug: str, section_slug: str) -> Response:
        """One section with its body."""
        access = self.access(course_slug)
        section = (Section.objects.active()
                   .filter(module_id__in=access.course.module_ids(), slug=section_slug).first())
        if section is None:
            raise ApiError(404, "not_found", "No such section.")
        return Response(self.OutputSerializer(section).data)


class PartOutput(serializers.Serializer):
    id = serializers.IntegerField()
    key = serializers.CharField()
    answer_type = serializers.CharField()
    points = serializers.FloatField()
    prompt = serializers.CharField(allow_blank=True)
    spec = serializers.DictField(help_text="students: the public part only; staff: the full spec")


class ExerciseOutput(serializers.Serializer):
    uuid = serializers.UUIDField()
    slug = serializers.CharField()
    kind = serializers.CharField()
    title = serializers.CharField()
    section = serializers.CharField()
    order = serializers.IntegerField()
    max_attempts = serializers.IntegerField()
    penalty = serializers.FloatField()
    prompt = serializers.CharField()
    parts = PartOutput(many=True)
    parameters = serializers.DictField(required=False, help_text="staff only")
    derived = serializers.DictField(required=False, help_text="staff only")
    student = serializers.IntegerField(required=False, help_text="staff, with ?student=: whose variant")
    variant = serializers.DictField(required=False, help_text=(
        "staff, with ?student=: the student's parameter values"))


class ExerciseListApi(ApiView):
    @extend_schema(parameters=[ExerciseQuery], responses=ExerciseOutput(many=True))
    def get(self, request: Request, course_slug: str) -> Response:
        """The module's exercises; a student sees their own variant of each prompt, staff and
        keys the one of `?student=`."""
        access = self.access(course_slug)
        for_student = _for_student(self, access)
        exercises = [exercise_representation(e, access, for_student)
                     for e in course_exercises(course=access.course)]
        return self.paginated(request, exercises, ExerciseOutput)


class ExerciseDetailApi(ApiView):
    @extend_schema(parameters=[ExerciseQuery], responses=ExerciseOutput)
    def get(self, request: Request, course_slug: str, exercise_slug: str) -> Response:
        """One exercise; a student sees their own variant and no answer key, staff and keys
        the variant of `?student=`."""
        access = self.access(course_slug)
        for_student = _for_student(self, access)
        exercise = course_exercises(course=access.course).filter(slug=exercise_slug).first()
        if exercise is None:
            raise ApiError(404, "not_found", "No such exercise.")
        return Response(ExerciseOutput(exercise_representation(exercise, access, for_student)).data)
