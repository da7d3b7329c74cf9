"""The REST API, version 1 (under /api/v1/): routes by resource, the schema and offline docs."""

from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

import api.fields  # noqa: F401 (registers the <id:...> converter)
from api.errors import not_found_view
from api.resources import (
    api_keys,
    courses,
    exam_access,
    gradebook,
    lab_runs,
    lms_sync,
    misconceptions,
    roster,
    submissions,
    variant_fairness,
    webhooks,
)

COURSE = "courses/<slug:course_slug>/"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its start-up script as a file: no inline script under the CSP.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("courses/", courses.CourseListApi.as_view(), name="api-courses"),
    path(COURSE, courses.CourseDetailApi.as_view(), name="api-course"),
    path(COURSE + "module/", courses.ModuleDetailApi.as_view(), name="api-module"),  # deprecated
    path(COURSE + "modules/", courses.ModuleListApi.as_view(), name="api-modules"),
    path(COURSE + "sections/", courses.SectionListApi.as_view(), name="api-sections"),
    path(COURSE + "sections/<slug:section_slug>/", courses.SectionDetailApi.as_view(),
         name="api-section"),
    path(COURSE + "exercises/", courses.ExerciseListApi.as_view(), name="api-exercises"),
    path(COURSE + "exercises/<slug:exercise_slug>/", courses.ExerciseDetailApi.as_view(),
         name="api-exercise"),
    path(COURSE + "roster/", roster.RosterApi.as_view(), name="api-roster"),
    path(COURSE + "api-keys/", api_keys.ApiKeyListApi.as_view(), name="api-keys"),
    path(COURSE + "api-keys/<id:key_id>/", api_keys.ApiKeyRevokeApi.as_view(), name="api-key"),
    path(COURSE + "webhooks/", webhooks.WebhookListApi.as_view(), name="api-webhooks"),
    path(COURSE + "webhooks/<id:webhook_id>/", webhooks.WebhookDetailApi.as_view(),
         name="api-webhook"),
    path(COURSE + "webhook-deliveries/", webhooks.WebhookDeliveryListApi.as_view(),
         name="api-webhook-deliveries"),
    path(COURSE + "webhook-deliveries/<id:delivery_id>/replay/",
         webhooks.WebhookDeliveryReplayApi.as_view(), name="api-webhook-delivery-replay"),
    path(COURSE + "submissions/", submissions.SubmissionListApi.as_view(), name="api-submissions"),
    path(COURSE + "submissions/<id:submission_id>/", submissions.SubmissionDetailApi.as_view(),
         name="api-submission"),
    path(COURSE + "gradebook/", gradebook.GradebookApi.as_view(), name="api-gradebook"),
    path(COURSE + "gradebook/students/<id:student_id>/", gradebook.StudentGradebookApi.as_view(),
         name="api-gradebook-student"),
    path(COURSE + "lab-runs/", lab_runs.LabRunListApi.as_view(), name="api-lab-runs"),
    path(COURSE + "lab-runs/<uuid:run_id>/", lab_runs.LabRunDetailApi.as_view(), name="api-lab-run"),
    path(COURSE + "lms-sync/", lms_sync.LmsSyncApi.as_view(), name="api-lms-sync"),
    path(COURSE + "misconception-clearing/", misconceptions.MisconceptionClearingApi.as_view(),
         name="api-misconception-clearing"),
    path(COURSE + "misconception-clearing/students/<id:student_id>/",
         misconceptions.StudentOpenMisconceptionsApi.as_view(), name="api-open-misconceptions"),
    path(COURSE + "variant-fairness/", variant_fairness.VariantFairnessApi.as_view(),
         name="api-variant-fairness"),
    path(COURSE + "accommodations/", exam_access.AccommodationListApi.as_view(),
         name="api-accommodations"),
    path(COURSE + "accommodations/<id:student_id>/", exam_access.AccommodationApi.as_view(),
         name="api-accommodation"),
    path(COURSE + "exam-extensions/", exam_access.ExtensionListApi.as_view(),
         name="api-exam-extensions"),
    path(COURSE + "assessments/<slug:assessment_slug>/attempts/<id:attempt_id>/reopen/",
         exam_access.AttemptReopenApi.as_view(), name="api-exam-reopen"),
    re_path(r"^.*$", not_found_view),
]
