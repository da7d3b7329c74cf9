"""Fixtures of the labs tests that the live tests define too (a room on the analogy prediction)."""

from tests.live.conftest import analogy, staff  # noqa: F401  (fixtures, shared)
