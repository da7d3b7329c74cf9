"""Dashboard routes, included under courses/<course_slug>/dashboard/."""

from django.urls import path

from instructor import people_views, views

app_name = "dashboard"

urlpatterns = [
    path("", views.overview, name="overview"),
    path("progress/", views.matrix, name="matrix"),
    path("statistics/", views.statistics, name="statistics"),
    path("statistics/parts/<int:part_id>/", views.part, name="part"),
    path("exercises/<int:exercise_id>/preview/", views.preview, name="preview"),
    path("misconceptions/", views.misconceptions, name="misconceptions"),
    path("labs/", views.labs, name="labs"),
    path("students/<int:student_id>/", views.student, name="student"),
    path("students/<int:student_id>/override/", views.student_override, name="override"),
    path("students/<int:student_id>/extension/", views.student_extension, name="extension"),
    path("reviews/", views.reviews, name="reviews"),
    path("reviews/<int:submission_id>/", views.review, name="review"),
    path("deadlines/", views.deadlines, name="deadlines"),
    path("content/", views.content, name="content"),
    path("people/", people_views.people, name="people"),
    path("people/upload/", people_views.people_upload, name="people-upload"),
    path("people/accommodations/", people_views.accommodation, name="people-accommodation"),
    path("people/<int:enrollment_id>/role/", people_views.member_role, name="member-role"),
    path("people/<int:enrollment_id>/active/", people_views.member_active, name="member-active"),
    path("people/<int:enrollment_id>/password-link/", people_views.member_password_link,
         name="member-password-link"),
    path("people/invites/", people_views.invite_new, name="invite-new"),
    path("people/invites/<int:invite_id>/end/", people_views.invite_end, name="invite-end"),
    path("export/gradebook.csv", views.gradebook_csv, name="gradebook-csv"),
    path("export/submissions.csv", views.submissions_csv, name="submissions-csv"),
]
