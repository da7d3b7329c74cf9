"""Routes of the exam pages, under a course."""

from django.urls import path

from exams import staff_views, views

app_name = "exams"
COURSE = "courses/<slug:course_slug>/"

urlpatterns = [
    path(COURSE + "assessments/", views.assessment_list, name="list"),
    path(COURSE + "assessments/<slug:slug>/", views.assessment_page, name="assessment"),
    path(COURSE + "assessments/<slug:slug>/start/", views.attempt_begin, name="start"),
    path(COURSE + "attempts/<int:attempt_id>/", views.attempt_page, name="attempt"),
    path(COURSE + "attempts/<int:attempt_id>/save/", views.attempt_save, name="save"),
    path(COURSE + "attempts/<int:attempt_id>/submit/", views.attempt_submit, name="submit"),
    path(COURSE + "assessments/<slug:slug>/staff/", staff_views.staff_page, name="staff"),
    path(COURSE + "assessments/<slug:slug>/staff/release/", staff_views.release,
         name="release"),
    path(COURSE + "assessments/<slug:slug>/staff/accommodations/", staff_views.accommodation,
         name="accommodation"),
    path(COURSE + "assessments/<slug:slug>/staff/access-code/", staff_views.access_code,
         name="access-code"),
    path(COURSE + "assessments/<slug:slug>/staff/extensions/", staff_views.extension,
         name="extension"),
    path(COURSE + "assessments/<slug:slug>/staff/attempts/<int:attempt_id>/reopen/",
         staff_views.reopen, name="reopen"),
]
