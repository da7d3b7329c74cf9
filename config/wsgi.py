"""WSGI entry point for production servers."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

application = get_wsgi_application()

from config.process_start import process_prepare  # noqa: E402  (after Django is set up)

process_prepare()  # the first units answer must not pay for pint's registry
