"""URL routes of the service: web pages per app, the REST API under /api/v1/, the admin."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

urlpatterns = [
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/v1/", include("api.urls")),
    path("admin/", admin.site.urls),
    path("", include("ops.urls")),
    path("", include("courses.urls")),
    path("", include("grading.urls")),
    path("", include("labs.urls")),
]
