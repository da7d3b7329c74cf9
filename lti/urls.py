"""Routes of the LTI tool (under /lti/)."""

from django.urls import path

from lti.views import deep_linking, keys, launch, registration, setup

app_name = "lti"

urlpatterns = [
    path("jwks/", keys.jwks, name="jwks"),
    path("login/", launch.LoginView.as_view(), name="login-any"),
    path("login/<uuid:registration_uuid>/", launch.LoginView.as_view(), name="login"),
    path("launch/", launch.launch, name="launch"),
    path("deep-link/", deep_linking.deep_link, name="deep-link"),
    path("setup/", setup.setup, name="setup"),
    path("register/", registration.DynamicRegistrationView.as_view(), name="register"),
]
