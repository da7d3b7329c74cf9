"""REST API routes of labs (under /api/v1/)."""

from django.urls import path

from labs import apis

urlpatterns = [
    path("courses/<slug:course_slug>/lab-runs/", apis.LabRunListApi.as_view(), name="api-lab-runs"),
    path("courses/<slug:course_slug>/lab-runs/<uuid:run_id>/", apis.LabRunDetailApi.as_view(),
         name="api-lab-run"),
]
