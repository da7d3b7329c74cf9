"""URL routes of the load test only (`config.settings.load`): the service's routes plus the
baseline view. The normal settings use `config.urls`, where /load/baseline/ does not exist."""

from django.urls import include, path

from config import load_baseline
from config.urls import handler400, handler403, handler404, handler500  # noqa: F401

urlpatterns = [
    path("load/baseline/", load_baseline.baseline, name="load-baseline"),
    path("", include("config.urls")),
]
