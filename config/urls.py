"""URL routes of the service: the student pages, the instructor dashboard, the REST API under
/api/v1/, the admin."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from config.favicon import favicon
from config.guides import guide
from instructor.people_views import new_course
from student.views.accounts import SignInView

urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),
    path("docs/", guide, name="guides"),
    path("docs/<slug:name>.html", guide, name="guide"),
    path("accounts/login/", SignInView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/v1/", include("api.urls")),
    path("admin/", admin.site.urls),
    path("lti/", include("lti.urls")),
    path("", include("ops.urls")),
    path("courses/<slug:course_slug>/dashboard/lms/", include("lti.sync.urls")),
    path("", include("live.urls")),
    path("courses/new/", new_course, name="new-course"),
    path("courses/<slug:course_slug>/dashboard/", include("instructor.urls")),
    path("", include("exams.urls")),
    path("", include("student.urls")),
]

# Error pages with the site's layout, a reason and a way back (JSON under /api/).
handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
