"""Web pages of labs."""

from django.urls import path

from labs import views

urlpatterns = [
    path("courses/<slug:course_slug>/labs/<slug:lab_slug>/", views.lab_detail, name="lab"),
    path("courses/<slug:course_slug>/runs/<uuid:run_uuid>/", views.lab_run_detail, name="lab-run"),
    path("courses/<slug:course_slug>/runs/<uuid:run_uuid>/status/", views.lab_run_status,
         name="lab-run-status"),
]
