"""REST API: the course's score deliveries to its LMS (LTI grade passback) and their states.

The data comes from the course report "lms-sync" that the lti app registers (interface apps
do not import each other); without it the endpoint is 404.
"""

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.access import Level
from api.base import ApiView
from api.errors import ApiError
from api.fields import MAX_ID
from core.course_reports import course_report_provider

LMS_SYNC = "lms-sync"


class LmsSyncQuery(serializers.Serializer):
    state = serializers.ChoiceField(choices=["sent", "waiting", "retrying", "failed"],
                                    required=False)
    page = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False,
                                    help_text="page of 100 deliveries (past the last: the last)")


class LmsDeliveryOutput(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    student_id = serializers.IntegerField(read_only=True)
    username = serializers.CharField()
    exercise = serializers.CharField()
    score = serializers.FloatField(help_text="the latest score decided, in points")
    out_of = serializers.FloatField()
    decided_at = serializers.DateTimeField()
    state = serializers.ChoiceField(choices=["sent", "waiting", "retrying", "failed"])
    last_sent_score = serializers.FloatField(allow_null=True)
    last_sent_at = serializers.DateTimeField(allow_null=True)
    attempts = serializers.IntegerField(read_only=True)
    message = serializers.CharField(allow_blank=True, help_text="the platform's last error")
    next_attempt_at = serializers.DateTimeField(allow_null=True)


class LmsSyncOutput(serializers.Serializer):
    course = serializers.CharField()
    counts = serializers.DictField(read_only=True, child=serializers.IntegerField())
    page = serializers.IntegerField(read_only=True)
    pages = serializers.IntegerField(read_only=True)
    total = serializers.IntegerField(read_only=True, help_text="deliveries in the state asked for (or all)")
    deliveries = LmsDeliveryOutput(many=True, help_text="this page: failed first, then "
                                   "retrying, waiting, sent; by student and exercise")


class LmsSyncApi(ApiView):
    @extend_schema(parameters=[LmsSyncQuery], responses=LmsSyncOutput)
    def get(self, request: Request, course_slug: str) -> Response:
        """Each student's latest exercise score for the LMS gradebook and its delivery state
        (sent / waiting / retrying / failed with the platform's message), with counts (staff
        and keys, like the gradebook)."""
        access = self.access(course_slug, Level.STAFF)
        filters = self.query(LmsSyncQuery)
        provider = course_report_provider(LMS_SYNC)
        if provider is None:
            raise ApiError(404, "not_found", "LMS grade passback is not installed.")
        data: dict[str, Any] = provider(course=access.course, params=filters)
        return Response(data)
