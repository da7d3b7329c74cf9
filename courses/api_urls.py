"""REST API routes of courses (under /api/v1/)."""

from django.urls import path

import config.api.fields  # noqa: F401 (registers the <id:...> converter)
from courses import apis

urlpatterns = [
    path("courses/", apis.CourseListApi.as_view(), name="api-courses"),
    path("courses/<slug:course_slug>/", apis.CourseDetailApi.as_view(), name="api-course"),
    path("courses/<slug:course_slug>/module/", apis.ModuleDetailApi.as_view(), name="api-module"),
    path("courses/<slug:course_slug>/sections/", apis.SectionListApi.as_view(), name="api-sections"),
    path("courses/<slug:course_slug>/sections/<slug:section_slug>/", apis.SectionDetailApi.as_view(),
         name="api-section"),
    path("courses/<slug:course_slug>/exercises/", apis.ExerciseListApi.as_view(), name="api-exercises"),
    path("courses/<slug:course_slug>/exercises/<slug:exercise_slug>/",
         apis.ExerciseDetailApi.as_view(), name="api-exercise"),
    path("courses/<slug:course_slug>/roster/", apis.RosterApi.as_view(), name="api-roster"),
    path("courses/<slug:course_slug>/api-keys/", apis.ApiKeyListApi.as_view(), name="api-keys"),
    path("courses/<slug:course_slug>/api-keys/<id:key_id>/", apis.ApiKeyRevokeApi.as_view(),
         name="api-key"),
    path("courses/<slug:course_slug>/webhooks/", apis.WebhookListApi.as_view(), name="api-webhooks"),
    path("courses/<slug:course_slug>/webhooks/<id:webhook_id>/", apis.WebhookDetailApi.as_view(),
         name="api-webhook"),
    path("courses/<slug:course_slug>/webhook-deliveries/", apis.WebhookDeliveryListApi.as_view(),
         name="api-webhook-deliveries"),
    path("courses/<slug:course_slug>/webhook-deliveries/<id:delivery_id>/replay/",
         apis.WebhookDeliveryReplayApi.as_view(), name="api-webhook-delivery-replay"),
]
