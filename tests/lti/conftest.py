"""Fixtures of the LTI tests: a real HTTP server playing the LMS."""

from collections.abc import Iterator

import pytest

from tests.lti.lms_server import LmsServer
from tests.lti.platform import Platform


@pytest.fixture
def lms_server() -> Iterator[LmsServer]:
    """A running LMS HTTP server with no routes yet; the platform modules add them."""
    server = LmsServer().start()
    yield server
    server.stop()


@pytest.fixture
def platform(lms_server: LmsServer, live_server, module_05) -> Iterator[Platform]:
    """An LTI 1.3 platform (lti1p3platform on the LMS server) registered with the tool
    running on the live server, with an active deployment; the tool has a signing key."""
    from django.core.cache import cache
    from lti_tool.models import Key

    cache.clear()  # keysets, OIDC states and nonces of other tests
    Key.objects.generate()
    platform = Platform(lms_server, live_server.url)
    platform.registration_in_tool = platform.register_in_tool()
    yield platform
    cache.clear()
