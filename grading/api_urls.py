"""REST API routes of grading (under /api/v1/)."""

from django.urls import path

from grading import apis

urlpatterns = [
    path("courses/<slug:course_slug>/submissions/", apis.SubmissionListApi.as_view(),
         name="api-submissions"),
    path("courses/<slug:course_slug>/submissions/<int:submission_id>/",
         apis.SubmissionDetailApi.as_view(), name="api-submission"),
    path("courses/<slug:course_slug>/gradebook/", apis.GradebookApi.as_view(), name="api-gradebook"),
    path("courses/<slug:course_slug>/gradebook/students/<int:student_id>/",
         apis.StudentGradebookApi.as_view(), name="api-gradebook-student"),
]
