"""The REST API, version 1: each app contributes its routes."""

from django.urls import include, path

urlpatterns = [
    path("", include("courses.api_urls")),
    path("", include("grading.api_urls")),
    path("", include("labs.api_urls")),
]
