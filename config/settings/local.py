"""Local development: DEBUG on, an insecure key is acceptable, embedded services by default."""

from config.settings.base import *
from config.settings.base import env

DEBUG = env.bool("DEBUG", default=True)
SECRET_KEY = env("SECRET_KEY", default="local-development-key-not-for-production")
