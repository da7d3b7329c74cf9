"""Fixtures of the LTI tests: a real HTTP server playing the LMS."""

from collections.abc import Iterator

import pytest

from tests.lti.lms_server import LmsServer


@pytest.fixture
def lms_server() -> Iterator[LmsServer]:
    """A running LMS HTTP server with no routes yet; the platform modules add them."""
    server = LmsServer().start()
    yield server
    server.stop()
