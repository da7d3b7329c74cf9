"""Plain pages the launch answers with when it cannot go on: a refused launch (logged with
its reason), a context that no instructor has set up yet."""

import logging

import structlog
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from lti.rejections import Rejection

logger = logging.getLogger("lti.security")


def rejected(request: HttpRequest, rejection: Rejection, *, issuer: str) -> HttpResponse:
    """A 403 page saying why the launch was refused, and one warning log line with the
    reason code, the issuer the token claimed and pylti1p3's own words."""
    logger.warning("LTI launch rejected: reason=%s issuer=%s detail=%s", rejection.reason,
                   issuer.encode("unicode_escape").decode("ascii") or "-",
                   rejection.detail.encode("unicode_escape").decode("ascii"))
    structlog.contextvars.bind_contextvars(reason=f"lti {rejection.reason}")
    response = render(request, "lti/rejected.html", {"rejection": rejection}, status=403)
    response._has_been_logged = True  # type: ignore[attr-defined]  # our line says it all
    return response
