"""Settings of the load test (`bin/load`): production settings over plain HTTP on this host,
plus the bare baseline view (`config/load_urls.py`) that measures the ceiling of the stack.

Never used by the service itself: only `bin/load` sets DJANGO_SETTINGS_MODULE to this module.
"""

from config.settings.production import *
from config.settings.production import env

# gunicorn listens on 127.0.0.1 without TLS: the cookies must travel over plain HTTP.
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=False)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=False)
# ... and the pages too: production redirects plain HTTP to https (every request of the last
# run was a 301 to https://127.0.0.1, so the rush measured redirects, not answers).
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=False)
# The service's routes plus /load/baseline/ (a view that inserts one row).
ROOT_URLCONF = "config.load_urls"
