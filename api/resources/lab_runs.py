"""REST API of labs: request a run (202 + Location) and poll its status, progress and result."""

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api.access import STUDENT_ACTING, STUDENT_FILTER, CourseAccess, acting_for, acting_student
from api.base import ApiView
from api.errors import ApiError
from api.fields import BodySerializer, id_field
from api.idempotency import Note, idempotent, resource_ident, resource_name
from courses.models import Lab
from labs.models import LabRun
from labs.services import LabParamsInvalid, LabRunRefused, lab_run_request


class LabRunOutput(serializers.ModelSerializer):
    id = serializers.UUIDField(source="uuid")
    lab = serializers.CharField(source="lab.slug")
    requester = serializers.IntegerField(read_only=True, source="requester_id")
    submission = serializers.IntegerField(read_only=True, source="submission_id", allow_null=True)
    reused = serializers.SerializerMethodField()

    class Meta:
        model = LabRun
        fields = ["id", "lab", "requester", "submission", "status", "progress", "params", "seed",
                  "result", "error", "reused", "queued_at", "started_at", "finished_at"]

    def get_reused(self, run: LabRun) -> bool:
        return run.reused_from_id is not None


def course_lab_runs(*, access: CourseAccess, student: User | None) -> QuerySet[LabRun]:
    """Runs of the course the caller may see (a student: the ones they requested)."""
    rows = LabRun.objects.filter(course=access.course).select_related("lab")
    if student is not None:
        rows = rows.filter(requester=student)
    return rows.order_by("-queued_at", "-id")


def _location(course_slug: str, run: LabRun) -> str:
    return reverse("api-lab-run", kwargs={"course_slug": course_slug, "run_id": run.uuid})


class LabRunListApi(ApiView):
    class InputSerializer(BodySerializer):
        lab = serializers.SlugField(help_text="the lab's slug")
        params = serializers.DictField(required=False, default=dict)
        student = id_field(required=False, help_text=STUDENT_ACTING)

    class FilterSerializer(serializers.Serializer):
        student = id_field(required=False, help_text=STUDENT_FILTER)

    @extend_schema(parameters=[FilterSerializer],
                   responses=LabRunOutput(many=True))
    def get(self, request: Request, course_slug: str) -> Response:
        """Lab runs, newest first; a student sees their own."""
        access = self.access(course_slug)
        filters = self.query(self.FilterSerializer)
        student = None
        if not access.is_staff or "student" in filters:
            student = acting_student(access, filters.get("student"))
        return self.paginated(request, course_lab_runs(access=access, student=student), LabRunOutput)

    @extend_schema(request=InputSerializer, responses={202: LabRunOutput},
                   parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER)])
    def post(self, request: Request, course_slug: str) -> Response:
        """Request a run: 202 with its Location; poll it for status, progress and result.

        409 `predict_first` when the lab would show the answer to a prediction the student
        has not made yet (as on the lab's page); 409 `unsolved_key` when its parameters are
        the student's own variant of an exercise they have not solved; staff are not held back.
        """
        access = self.access(course_slug)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        requester = acting_for(access, data.get("student"), doing="run labs")
        lab = Lab.objects.active().filter(module_id__in=access.course.module_ids(), slug=data["lab"]).first()
        if lab is None:
            raise ApiError(400, "invalid", "No such lab in this course.", {"lab": ["Unknown lab."]})

        def respond(run: LabRun) -> Response:
            response = Response(LabRunOutput(run).data, status=status.HTTP_202_ACCEPTED)
            response["Location"] = _location(course_slug, run)
            return response

        def perform(note: Note) -> Response:
            try:
                run = lab_run_request(lab=lab, course=access.course, requester=requester,
                                      params=data["params"],
                                      on_stored=lambda stored: note(
                                          resource_name("lab_run", stored.uuid)))
            except LabParamsInvalid as exc:
                fields = {f"params.{k}" if k != "__all__" else "params": [v]
                          for k, v in exc.errors.items()}
                raise ApiError(400, "invalid", "The lab parameters are not valid; see fields.",
                               fields) from exc
            except LabRunRefused as exc:
                raise ApiError(409, exc.code, str(exc)) from exc
            return respond(run)

        def replay(resource: str) -> Response | None:
            ident = resource_ident(resource, "lab_run")
            if ident is None:
                return None
            stored = course_lab_runs(access=access, student=requester).filter(uuid=ident).first()
            return respond(stored) if stored is not None else None

        return idempotent(request, access.principal, perform, replay=replay)


class LabRunDetailApi(ApiView):
    @extend_schema(responses=LabRunOutput)
    def get(self, request: Request, course_slug: str, run_id: str) -> Response:
        """A run's status, progress and, once finished, its result or error."""
        access = self.access(course_slug)
        student = None if access.is_staff else access.user
        run = course_lab_runs(access=access, student=student).filter(uuid=run_id).first()
        if run is None:
            raise ApiError(404, "not_found", "No such lab run.")
        return Response(LabRunOutput(run).data)
