"""Simulated crashes for recovery tests: a grader bug, an answer a dying process left pending."""

from datetime import timedelta

from django.utils import timezone

from grading.models import Submission
from grading.variant_assignment import variant_for

LONG_AGO = timedelta(minutes=10)


def stored_but_never_graded(student, course, part, raw: str, age=LONG_AGO) -> Submission:
    """What a web process leaves when it dies between storing an answer and grading it."""
    variant = variant_for(student=student, course=course, exercise=part.exercise)
    submission = Submission.objects.create(student=student, course=course, part=part,
                                           raw_answer=raw, variant_seed=variant.seed)
    Submission.objects.filter(pk=submission.pk).update(created_at=timezone.now() - age)
    return submission


class GraderBug:
    """Makes the grader crash, as a bug in a checker would, until it is "fixed"."""

    def __init__(self, monkeypatch) -> None:
        import grading.carried_answers
        import labs.predictions

        self.monkeypatch = monkeypatch
        # (module, the grading function it calls)
        self.targets = ((grading.carried_answers, "grade_keyed"), (labs.predictions, "grade"))
        self.real = {name: getattr(module, name) for module, name in self.targets}
        for module, name in self.targets:
            monkeypatch.setattr(module, name, self.crash)

    @staticmethod
    def crash(*_args, **_kwargs):
        raise OverflowError("a grader bug")

    def fix(self, *, new_version: str | None = None) -> None:
        import grading.recovery
        import grading.verdicts
        import labs.recovery

        for module, name in self.targets:
            self.monkeypatch.setattr(module, name, self.real[name])
        if new_version:
            for module in (grading.verdicts, grading.recovery, labs.recovery):
                self.monkeypatch.setattr(module, "GRADER_VERSION", new_version)


def age_verdict(submission: Submission) -> None:
    Submission.objects.filter(pk=submission.pk).update(graded_at=timezone.now() - LONG_AGO,
                                                       created_at=timezone.now() - LONG_AGO)
