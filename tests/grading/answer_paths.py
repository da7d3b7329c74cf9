"""One answer through the two student paths: the live preview, then the REST API."""

from django.urls import reverse
from rest_framework.test import APIClient

from grading.checkers import GRADER_VERSION
from grading.models import Submission


def preview_then_submit(client, student, course, part, spec, answer: str,
                        canonical: str | None, outcome: str) -> Submission:
    """Give ``part`` the ``spec``, check that the preview reads ``answer`` as ``canonical``
    (skipped when None) with MathML, post it through the API as ``student`` and check the
    stored outcome and grader version; returns the stored submission."""
    Part = type(part)
    Part.objects.filter(pk=part.pk).update(spec={**spec, "points": 1})
    client.force_login(student)
    if canonical is not None:
        preview = client.get(reverse("part-preview", args=[course.slug, part.pk]),
                             {"answer": answer}).json()
        assert preview["valid"] and preview["canonical"] == canonical, preview
        assert "<math" in preview["mathml"]
    api = APIClient()
    api.force_login(student)
    response = api.post(f"/api/v1/courses/{course.slug}/submissions/",
                        {"part": part.pk, "answer": answer}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["outcome"] == outcome
    stored = Submission.objects.get(pk=response.json()["id"])
    assert stored.grader_version == GRADER_VERSION
    return stored
