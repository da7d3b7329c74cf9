"""Fixtures of the API tests: clients for the named users and course API keys."""

from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from api.keys import api_key_create
from api.models import ApiKey
from courses.models import Course, Part


@pytest.fixture(autouse=True)
def _fresh_throttles() -> None:
    """Throttle counters live in the cache; each test starts with none."""
    cache.clear()


@pytest.fixture
def client_for():
    """An API client logged in as `user` (or anonymous for None)."""

    def make(user: Any = None) -> APIClient:
        client = APIClient()
        if user is not None:
            client.force_login(user)
        return client

    return make


@pytest.fixture
def key_client():
    """An API client authenticating with a key token."""

    def make(token: str) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        return client

    return make


@pytest.fixture
def lms_token(course: Course, irene) -> str:
    return api_key_create(course=course, name="LMS", role=ApiKey.Role.LMS, created_by=irene).token


@pytest.fixture
def readonly_token(course: Course, irene) -> str:
    return api_key_create(course=course, name="Reports", role=ApiKey.Role.READ_ONLY,
                          created_by=irene).token


@pytest.fixture
def other_course_token(other_course: Course, irene) -> str:
    return api_key_create(course=other_course, name="Other", role=ApiKey.Role.LMS,
                          created_by=irene).token


@pytest.fixture
def numeric_part(course: Course) -> Part:
    """apply-1's numeric part (0.85^40 in the default variant; 5 attempts)."""
    return Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
