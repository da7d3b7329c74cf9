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
from core.course_reports import course_report_provider

LMS_SYNC = "lms-sync"


class LmsSyncQuery(serializers.Serializer):
    state = serializers.ChoiceField(choices=["sent", "waiting", "retrying", "failed"],
                                    required=False)
    page = serializers.IntegerField(min_value=1, required=False,
                                    help_text="page of 100 deliveries (past the last: the last)")


class LmsDeliveryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    student_id = serializers.IntegerField()
    username = serializers.CharField()
    exercise = serializers.CharField()
    score = serializers.FloatField(help_text="the latest score decided, in points")
    out_of = serializers.FloatField()
    decided_at = serializers.DateTimeField()
    state = serializers.ChoiceField(choices=["sent", "waiting", "retrying", "failed"])
    last_sent_score = serializers.FloatField(allow_null=True)
    last_sent_at = serializers.DateTimeField(allow_null=True)
    attempts = serializers.IntegerField()
    message = serializers.CharField(allow_blank=True, help_text="the platform's last error")
    next_attempt_at = serializers.DateTimeField(allow_null=True)


class LmsSyncOutput(serializers.Serializer):
    course = serializers.CharField()
    counts = serializers.DictField(child=serializers.IntegerField())
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    total = serializers.IntegerField(help_text="deliveries in the state asked for (or all)")
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
