"""The LMS sync pages, included under courses/<course_slug>/dashboard/lms/."""

from django.urls import path

from lti.sync import views

app_name = "lti-sync"

urlpatterns = [
    path("", views.health, name="health"),
    path("deliveries/<int:delivery_id>/resend/", views.resend, name="resend"),
    path("contexts/<int:context_id>/roster/", views.roster, name="roster"),
]
