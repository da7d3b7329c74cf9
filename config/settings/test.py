"""Test settings: fast hashing, the database and broker from the environment if given."""

from config.settings.base import *

DEBUG = False
SECRET_KEY = "test-key-not-secret"  # noqa: S105
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
