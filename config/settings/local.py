"""Local development: DEBUG on, an insecure key is acceptable, embedded services by default."""

from config.settings.base import *
from config.settings.base import LOG_LEVEL, env
from ops.logs import logging_config

DEBUG = env.bool("DEBUG", default=True)
SECRET_KEY = env("SECRET_KEY", default="local-development-key-not-for-production")
# Readable log lines in development (LOG_FORMAT=json for the production format).
LOG_FORMAT = env("LOG_FORMAT", default="console")
LOGGING = logging_config(fmt=LOG_FORMAT, level=LOG_LEVEL)
