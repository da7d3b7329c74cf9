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

# Session and CSRF cookies stay SameSite=Lax (Django's default); LTI responses get
# SameSite=None; Secure, which the LMS's iframe needs (lti.middleware.ThirdPartyCookiesMiddleware).

# HTTPS: plain-HTTP requests are redirected (except the health checks and metrics a load
# balancer or Prometheus may read over HTTP inside the network), and browsers are told to use
# HTTPS only for SECURE_HSTS_SECONDS. Preload stays off unless asked for: it is hard to undo.
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
SECURE_REDIRECT_EXEMPT = env.list("SECURE_REDIRECT_EXEMPT", default=[r"^health/", r"^metrics$"])
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
if not SECURE_HSTS_PRELOAD:
    # W021 only says the site cannot join the browsers' preload list: off on purpose.
    SILENCED_SYSTEM_CHECKS = ["security.W021"]
