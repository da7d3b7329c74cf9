"""A URL whose view raises, for the test that a 500 is logged once (with its traceback)."""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def failing(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("the view broke")


urlpatterns = [
    path("broken/", failing),
    path("", include("config.urls")),
]
