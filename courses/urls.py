"""Web pages of courses."""

from django.urls import path

from courses import views

urlpatterns = [
    path("", views.home, name="home"),
    path("courses/<slug:course_slug>/", views.course_module, name="course-module"),
]
