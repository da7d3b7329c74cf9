"""Benchmark-only URLconf: the service's URLs plus two bare Django JSON endpoints (baselines).

- /bench/bare/grade/: a plain Django view (no DRF, no authentication, no throttling, no
  serializers) that grades the same submission through the same service: the baseline of
  the API's target.
- /bench/bare/echo/: parses JSON and answers JSON, with no database at all: Django's floor.
"""

import json

from django.contrib.auth.models import User
from django.http import HttpRequest, JsonResponse
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt

from courses.models import Course, Part
from grading.services import submission_create


@csrf_exempt
def bare_echo(request: HttpRequest) -> JsonResponse:
    body = json.loads(request.body or b"{}")
    return JsonResponse({"ok": True, "answer": body.get("answer")}, status=201)


@csrf_exempt
def bare_grade(request: HttpRequest, course_slug: str) -> JsonResponse:
    body = json.loads(request.body)
    course = Course.objects.get(slug=course_slug)
    part = Part.objects.select_related("exercise").get(pk=body["part"])
    student = User.objects.get(pk=body["student"])
    submission = submission_create(student=student, course=course, part=part, raw_answer=body["answer"])
    return JsonResponse({"id": submission.pk, "outcome": submission.outcome, "score": submission.score,
                         "feedback": submission.feedback}, status=201)


urlpatterns = [
    path("bench/bare/echo/", bare_echo),
    path("bench/bare/grade/<slug:course_slug>/", bare_grade),
    path("", include("config.urls")),
]
