"""Local runs (bin/run): an insecure key is acceptable, embedded services by default, and
DEBUG off unless asked for (`DEBUG=true bin/run`).

bin/run is how a course team tries the service: its people (students opening another's
lab run, a page that is not theirs) must meet the site's own error pages, as in production,
not Django's technical ones, which show the code's routes and settings. A developer who
wants those sets DEBUG. Static files are served by WhiteNoise from the collected files
either way (bin/run collects them first)."""

from config.settings.base import *
from config.settings.base import LOG_LEVEL, env
from ops.logs import logging_config

DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = env("SECRET_KEY", default="local-development-key-not-for-production")
# Readable log lines in development (LOG_FORMAT=json for the production format).
LOG_FORMAT = env("LOG_FORMAT", default="console")
LOGGING = logging_config(fmt=LOG_FORMAT, level=LOG_LEVEL)
# A course team trying the service connects the repository on its own disk (a path or a
# file:// URL) on the Content page; production keeps base's https-only allow-list.
CONTENT_REPOSITORY_ALLOWED_SCHEMES = env.list("CONTENT_REPOSITORY_ALLOWED_SCHEMES",
                                              default=["https", "file"])
