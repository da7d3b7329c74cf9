"""Live routes: the staff pages under a course's dashboard, the students' under /live/."""

from django.urls import path

from live import views

app_name = "live"
STAFF = "courses/<slug:course_slug>/dashboard/live/"

urlpatterns = [
    path(STAFF, views.sessions, name="sessions"),
    path(STAFF + "open/", views.session_open, name="open"),
    path(STAFF + "settings/", views.settings_update, name="settings"),
    path(STAFF + "<int:session_id>/", views.projector, name="projector"),
    path(STAFF + "<int:session_id>/state.json", views.room_state, name="room-state"),
    path(STAFF + "<int:session_id>/control/", views.control, name="control"),
    path(STAFF + "<int:session_id>/run/", views.run, name="run"),
    path(STAFF + "<int:session_id>/report/", views.report, name="report"),
    path(STAFF + "<int:session_id>/answers.csv", views.answers_csv, name="csv"),
    path("live/", views.join, name="join"),
    path("live/<str:code>/", views.phone, name="phone"),
    path("live/<str:code>/state.json", views.phone_state, name="phone-state"),
]
