"""Web pages of grading."""

from django.urls import include, path

from grading import views

urlpatterns = [
    path("courses/<slug:course_slug>/parts/<int:part_id>/answer/", views.part_answer,
         name="part-answer"),
    path("courses/<slug:course_slug>/parts/<int:part_id>/preview/", views.part_preview,
         name="part-preview"),
    path("courses/<slug:course_slug>/answers/<int:submission_id>/", views.submission_detail,
         name="submission"),
    path("courses/<slug:course_slug>/answers/<int:submission_id>/status/",
         views.submission_status, name="submission-status"),
    path("courses/<slug:course_slug>/dashboard/", include("grading.dashboard.urls")),
]
