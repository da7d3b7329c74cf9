"""Production: DEBUG off, SECRET_KEY and hosts must come from the environment."""

from django.core.exceptions import ImproperlyConfigured

from config.settings.base import *
from config.settings.base import DEBUG, SECRET_KEY, env

if not DEBUG and not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set in the environment when DEBUG is off.")

SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=True)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=True)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True

# The LMS shows the tool in an iframe on its own site: the session and CSRF cookies must be
# sent in that third-party context, which browsers allow only for SameSite=None; Secure.
if SESSION_COOKIE_SECURE:
    SESSION_COOKIE_SAMESITE = "None"
if CSRF_COOKIE_SECURE:
    CSRF_COOKIE_SAMESITE = "None"
