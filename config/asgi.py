"""ASGI entry point: the pages (as under WSGI) and live mode's WebSockets (Django Channels).

Served by daphne (`manage.py runserver` on the embedded defaults, `daphne config.asgi:application`
beside gunicorn in production, see docs/operations.md). WebSockets are same-origin only and
signed in with the session cookie.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402  (after Django is set up)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.process_start import process_prepare  # noqa: E402
from live.routing import websocket_urlpatterns  # noqa: E402

process_prepare()  # the first units answer must not pay for pint's registry

application = ProtocolTypeRouter({
    "http": django_asgi_app,
    "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
})
