"""Routes of the student pages."""

from django.urls import path

from student.views import accounts, answers, invites, labs, language, module

COURSE = "courses/<slug:course_slug>/"

urlpatterns = [
    path("", module.home, name="home"),
    path("invite/<str:token>/", invites.invite, name="invite"),
    path("accounts/language/", language.language, name="language"),
    path("accounts/password/<uidb64>/<token>/", accounts.PasswordSetView.as_view(),
         name="password_reset_confirm"),
    path("accounts/password-reset/", accounts.PasswordResetRequestView.as_view(),
         name="password_reset"),
    path("accounts/password-reset/sent/", accounts.PasswordResetSentView.as_view(),
         name="password_reset_done"),
    path(COURSE, module.course_module, name="course-module"),
    path(COURSE + "modules/<slug:module_slug>/", module.module_page, name="module-page"),
    path(COURSE + "parts/<int:part_id>/", answers.part_fragment, name="part-fragment"),
    path(COURSE + "parts/<int:part_id>/answer/", answers.part_answer, name="part-answer"),
    path(COURSE + "parts/<int:part_id>/preview/", answers.part_preview, name="part-preview"),
    path(COURSE + "answers/<int:submission_id>/", answers.submission_detail, name="submission"),
    path(COURSE + "answers/<int:submission_id>/status/", answers.submission_status,
         name="submission-status"),
    path(COURSE + "labs/<slug:lab_slug>/", labs.lab_detail, name="lab"),
    path(COURSE + "runs/<uuid:run_uuid>/", labs.lab_run_detail, name="lab-run"),
    path(COURSE + "runs/<uuid:run_uuid>/status/", labs.lab_run_status, name="lab-run-status"),
]
