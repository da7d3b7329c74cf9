"""REST API routes of grading (under /api/v1/)."""

from django.urls import path

import config.api.fields  # noqa: F401 (registers the <id:...> converter)
from grading import apis

urlpatterns = [
    path("courses/<slug:course_slug>/submissions/", apis.SubmissionListApi.as_view(),
         name="api-submissions"),
    path("courses/<slug:course_slug>/submissions/<id:submission_id>/",
         apis.SubmissionDetailApi.as_view(), name="api-submission"),
    path("courses/<slug:course_slug>/gradebook/", apis.GradebookApi.as_view(), name="api-gradebook"),
    path("courses/<slug:course_slug>/gradebook/students/<id:student_id>/",
         apis.StudentGradebookApi.as_view(), name="api-gradebook-student"),
]
