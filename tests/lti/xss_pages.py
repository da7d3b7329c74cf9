"""The LTI pages that show text from an LMS or its admin (context and course titles, names,
registration names and ids, the platform's return URL), with every XSS payload in that text;
used by the project's stored-XSS test (tests/courses/test_stored_xss.py)."""

from django.template.loader import render_to_string
from django.test import Client
from lti_tool.models import LtiContext, LtiDeployment, LtiRegistration

from courses.models import Course
from lti.rejections import Rejection
from lti.selectors import picker_items
from tests.xss import PAYLOADS, executable_markup


def lti_page_problems(*, admin: Client, course: Course) -> list[str]:
    """Executable markup found in the LTI pages with payloads in every LMS-given text."""
    problems: list[str] = []
    for index, payload in enumerate(PAYLOADS):
        registration = LtiRegistration.objects.create(
            name=payload[:255], issuer=f"https://lms{index}.example/{payload[:100]}",
            client_id=payload[:255], auth_url="https://lms.example/auth",
            token_url="https://lms.example/token", keyset_url="https://lms.example/jwks")
        LtiDeployment.objects.create(registration=registration, deployment_id=payload[:255])
    page = admin.get("/lti/setup/").content.decode()
    problems += [f"/lti/setup/: {p}" for p in executable_markup(page)]
    items = picker_items(course=course)
    for payload in PAYLOADS:
        context = LtiContext(title=payload, label=payload)
        pages = {
            "not_set_up": render_to_string("lti/not_set_up.html", {"context": context}),
            "deep_link": render_to_string("lti/deep_link.html", {
                "course": course, "items": items, "context": context, "error": payload}),
            # the view only ever sends an http(s) return URL (others are refused)
            "deep_link_return": render_to_string("lti/deep_link_return.html", {
                "return_url": "https://lms.example/return?x=" + payload, "jwt": payload}),
            "not_allowed": render_to_string("lti/not_allowed.html", {"reason": payload}),
            "register": render_to_string("lti/register.html", {
                "config": {"issuer": payload}, "scopes": [payload]}),
            "registered": render_to_string("lti/registered.html", {
                "registration": LtiRegistration.objects.filter(client_id=payload[:255]).first()}),
            "rejected": render_to_string("lti/rejected.html", {
                "rejection": Rejection(reason=payload, message=payload, detail=payload)}),
        }
        for name, html in pages.items():
            problems += [f"lti {name}: {p}" for p in executable_markup(html)]
    return problems
