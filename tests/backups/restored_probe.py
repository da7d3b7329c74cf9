"""Run as `python -m tests.backups.restored_probe JSON` against a restored database: grade one
answer through the service, render a lab run's plot and authenticate an API key; prints JSON.

Arguments (one JSON object): course, student, exercise, part, answer, run_uuid, token.
"""

import hashlib
import json
import sys

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402

from api.keys import api_key_authenticate  # noqa: E402
from courses.models import Course, Part  # noqa: E402
from grading.services import submission_create  # noqa: E402
from labs.models import LabRun  # noqa: E402
from labs.services import lab_run_plot  # noqa: E402


def main() -> None:
    ask = json.loads(sys.argv[1])
    course = Course.objects.get(slug=ask["course"])
    part = Part.objects.get(exercise__slug=ask["exercise"], key=ask["part"])
    student = get_user_model().objects.get(username=ask["student"])
    graded = submission_create(student=student, course=course, part=part, raw_answer=ask["answer"])
    run = LabRun.objects.get(uuid=ask["run_uuid"])
    key = api_key_authenticate(token=ask["token"])
    print(json.dumps({
        "outcome": graded.outcome, "score": graded.score, "feedback": graded.feedback,
        "misconception": graded.misconception, "attempt_counted": graded.counts_as_attempt,
        "plot_sha256": hashlib.sha256(lab_run_plot(run=run).encode()).hexdigest(),
        "api_key_course": key.course.slug if key else None,
    }))


if __name__ == "__main__":
    main()
