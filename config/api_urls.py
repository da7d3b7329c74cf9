"""The REST API, version 1: each app contributes its routes; schema and offline docs."""

from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.api.errors import not_found_view

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("", include("courses.api_urls")),
    path("", include("grading.api_urls")),
    path("", include("labs.api_urls")),
    re_path(r"^.*$", not_found_view),
]
