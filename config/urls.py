"""URL routes of the service."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import path

from courses import views as course_views

urlpatterns = [
    path("", course_views.home, name="home"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("courses/<slug:course_slug>/", course_views.course_module, name="course-module"),
    path("admin/", admin.site.urls),
]
