"""REST API: the course, its modules, sections and exercises (students see their own variant
and only the modules released to them)."""

from typing import Any

from django.contrib.auth.models import User
from django.db.models import OuterRef, Prefetch, QuerySet, Subquery
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.access import (
    STUDENT_VARIANT,
    CourseAccess,
    acting_student,
    principal_of,
    visible_module_ids,
)
from api.base import ApiView
from api.errors import ApiError
from api.fields import id_field
from courses.models import Course, CourseModule, Exercise, Section
from courses.selectors import course_exercises, course_list_for_user
from grading.public_spec import public_spec
from grading.variant_assignment import Variant, default_variant, variant_for


def _module_place(course: Course) -> Subquery:
    """An item's module's place in the course (CourseModule.order), for ordering."""
    return Subquery(CourseModule.objects.filter(course_id=course.pk,
                                                module_id=OuterRef("module_id"))
                    .values("order")[:1])


class ModuleQuery(serializers.Serializer):
    module = serializers.SlugField(required=False, help_text="only the items of this module (slug)")


def _of_module(view: ApiView, items: QuerySet[Any, Any]) -> QuerySet[Any, Any]:
    """`items` narrowed to `?module=<slug>` if given."""
    slug = view.query(ModuleQuery).get("module")
    return items.filter(module__slug=slug) if slug else items


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
        "title": exercise.title, "module": exercise.module.slug,
        "module_number": exercise.module.number, "section": exercise.section.number,
        "order": exercise.order,
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


class ExerciseQuery(ModuleQuery):
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

    @extend_schema(responses=OutputSerializer, deprecated=True)
    def get(self, request: Request, course_slug: str) -> Response:
        """The course's first module (Markdown text). Deprecated: a course runs several
        modules; read them with `modules/`. 404 for a course that runs no module yet."""
        access = self.access(course_slug)
        if access.course.module is None:
            raise ApiError(404, "not_found", "This course runs no module yet.")
        return Response(self.OutputSerializer(access.course.module).data)


class ModuleItem(serializers.Serializer):
    slug = serializers.CharField()
    number = serializers.CharField(required=False)
    title = serializers.CharField()


class ModuleOutput(serializers.Serializer):
    uuid = serializers.UUIDField()
    slug = serializers.CharField()
    number = serializers.CharField()
    title = serializers.CharField()
    intro = serializers.CharField(help_text="Markdown with LaTeX")
    references = serializers.JSONField()
    order = serializers.IntegerField(read_only=True, help_text="the module's place in the course, from 0")
    release_at = serializers.DateTimeField(allow_null=True,
                                           help_text="students see the module from then (null: now)")
    due_at = serializers.DateTimeField(
        allow_null=True, help_text="due date of its exercises that have no deadline of their own")
    weight = serializers.FloatField(help_text="its weight in the course total")
    sections = ModuleItem(many=True)
    exercises = ModuleItem(many=True)
    sections_url = serializers.CharField(help_text="its sections: sections/?module=<slug>")
    exercises_url = serializers.CharField(help_text="its exercises: exercises/?module=<slug>")


def module_representation(link: CourseModule, request: Request) -> dict[str, Any]:
    """One module of the course with its place, dates, weight and its items' slugs."""
    module = link.module
    slug = {"course_slug": link.course.slug}
    sections = request.build_absolute_uri(reverse("api-sections", kwargs=slug))
    exercises = request.build_absolute_uri(reverse("api-exercises", kwargs=slug))
    return {
        "uuid": module.uuid, "slug": module.slug, "number": module.number,
        "title": module.title, "intro": module.intro, "references": module.references,
        "order": link.order, "release_at": link.release_at, "due_at": link.due_at,
        "weight": link.weight,
        "sections": [{"slug": s.slug, "number": s.number, "title": s.title}
                     for s in module.sections.all()],
        "exercises": [{"slug": e.slug, "title": e.title} for e in module.exercises.all()],
        "sections_url": f"{sections}?module={module.slug}",
        "exercises_url": f"{exercises}?module={module.slug}",
    }


class ModuleListApi(ApiView):
    @extend_schema(responses=ModuleOutput(many=True))
    def get(self, request: Request, course_slug: str) -> Response:
        """The modules the course runs, in order, each with its release and due dates, its
        weight in the course total, and its sections and exercises (a student sees only the
        modules released to them). Three queries."""
        access = self.access(course_slug)
        links = (CourseModule.objects.filter(course=access.course,
                                             module_id__in=visible_module_ids(access))
                 .select_related("module", "course").order_by("order", "pk")
                 .prefetch_related(
                     Prefetch("module__sections",
                              queryset=Section.objects.active().order_by("order")),
                     Prefetch("module__exercises",
                              queryset=Exercise.objects.active().order_by("order"))))
        return self.paginated(request, [module_representation(link, request) for link in links],
                              ModuleOutput)


class SectionSummary(serializers.Serializer):
    uuid = serializers.UUIDField()
    module = serializers.CharField(source="module.slug")
    module_number = serializers.CharField(source="module.number")
    number = serializers.CharField()
    slug = serializers.CharField()
    title = serializers.CharField()
    order = serializers.IntegerField(read_only=True)


class SectionListApi(ApiView):
    @extend_schema(parameters=[ModuleQuery], responses=SectionSummary(many=True))
    def get(self, request: Request, course_slug: str) -> Response:
        """The sections of the course's modules (of `?module=`), module by module in the
        course's order."""
        access = self.access(course_slug)
        sections = _of_module(self, Section.objects.active().filter(
            module_id__in=visible_module_ids(access)).select_related("module")
            .annotate(place=_module_place(access.course)).order_by("place", "module_id", "order"))
        return self.paginated(request, sections, SectionSummary)


class SectionDetailApi(ApiView):
    class OutputSerializer(SectionSummary):
        body = serializers.CharField(help_text="Markdown with LaTeX")

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, course_slug: str, section_slug: str) -> Response:
        """One section with its body."""
        access = self.access(course_slug)
        section = (Section.objects.active().select_related("module")
                   .filter(module_id__in=visible_module_ids(access), slug=section_slug)
                   .annotate(place=_module_place(access.course)).order_by("place").first())
        if section is None:
            raise ApiError(404, "not_found", "No such section.")
        return Response(self.OutputSerializer(section).data)


class PartOutput(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
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
    module = serializers.CharField(help_text="the slug of the exercise's module")
    module_number = serializers.CharField()
    section = serializers.CharField()
    order = serializers.IntegerField(read_only=True)
    max_attempts = serializers.IntegerField(read_only=True)
    penalty = serializers.FloatField()
    prompt = serializers.CharField()
    parts = PartOutput(many=True)
    parameters = serializers.DictField(required=False, help_text="staff only")
    derived = serializers.DictField(required=False, help_text="staff only")
    student = id_field(required=False, help_text="staff, with ?student=: whose variant")
    variant = serializers.DictField(required=False, help_text=(
        "staff, with ?student=: the student's parameter values"))


def _course_exercises(view: ApiView, access: CourseAccess) -> QuerySet[Exercise]:
    """`course_exercises` of the modules the caller may read (and `?module=`), in the course's
    module order."""
    return _of_module(view, course_exercises(course=access.course)
                      .filter(module_id__in=visible_module_ids(access))
                      .select_related("module")
                      .annotate(place=_module_place(access.course))
                      .order_by("place", "module_id", "order"))


class ExerciseListApi(ApiView):
    @extend_schema(parameters=[ExerciseQuery], responses=ExerciseOutput(many=True))
    def get(self, request: Request, course_slug: str) -> Response:
        """The exercises of the course's modules (of `?module=`), module by module; a student
        sees their own variant of each prompt and only released modules, staff and keys the
        variant of `?student=`."""
        access = self.access(course_slug)
        for_student = _for_student(self, access)
        exercises = [exercise_representation(e, access, for_student)
                     for e in _course_exercises(self, access)]
        return self.paginated(request, exercises, ExerciseOutput)


class ExerciseDetailApi(ApiView):
    @extend_schema(parameters=[ExerciseQuery], responses=ExerciseOutput)
    def get(self, request: Request, course_slug: str, exercise_slug: str) -> Response:
        """One exercise; a student sees their own variant and no answer key, staff and keys
        the variant of `?student=`."""
        access = self.access(course_slug)
        for_student = _for_student(self, access)
        exercise = _course_exercises(self, access).filter(slug=exercise_slug).first()
        if exercise is None:
            raise ApiError(404, "not_found", "No such exercise.")
        return Response(ExerciseOutput(exercise_representation(exercise, access, for_student)).data)
