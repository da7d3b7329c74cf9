"""Routes of the operations endpoints (see ops/views.py)."""

from django.urls import path

from ops import views

urlpatterns = [
    path("health/live/", views.liveness, name="health-live"),
    path("health/ready/", views.ReadinessView.as_view(), name="health-ready"),
    path("metrics", views.metrics, name="metrics"),
]
