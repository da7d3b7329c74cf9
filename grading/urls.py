"""Web pages of grading."""

from django.urls import URLPattern, URLResolver, include, path

urlpatterns: list[URLPattern | URLResolver] = [
    path("courses/<slug:course_slug>/dashboard/", include("grading.dashboard.urls")),
]
