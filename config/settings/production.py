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
