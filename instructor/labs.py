"""Labs and predictions: runs per lab, failures, and predictions against measured results."""

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, Q
from django.db.models.fields.json import KT

from courses.models import Course, Lab, Part
from courses.selectors import course_students
from grading.models import Submission
from labs.models import LabRun


@dataclass(frozen=True)
class LabUsage:
    lab: Lab
    runs: int
    succeeded: int
    failed: int
    unfinished: int  # queued or running
    students: int

    @property
    def failure_pct(self) -> float | None:
        finished = self.succeeded + self.failed
        return 100.0 * self.failed / finished if finished else None


@dataclass(frozen=True)
class CalibrationCell:
    predicted: str
    measured: str
    count: int

    @property
    def agrees(self) -> bool:
        return self.predicted.strip().lower() == self.measured.strip().lower()


@dataclass
class Calibration:
    """How one prediction part's predictions compare with what the lab measured."""

    part: Part
    lab_slug: str
    measure: str
    predictions: int = 0  # predictions that used the attempt
    agreed: int = 0  # graded correct against the measurement
    awaiting_lab: int = 0
    lab_failed: int = 0
    cells: list[CalibrationCell] = field(default_factory=list)  # commonest first

    @property
    def agreed_pct(self) -> float | None:
        graded = self.predictions - self.awaiting_lab - self.lab_failed
        return 100.0 * self.agreed / graded if graded > 0 else None


@dataclass(frozen=True)
class LabsOverview:
    labs: list[LabUsage]
    calibrations: list[Calibration]


def labs_overview(*, course: Course) -> LabsOverview:
    """Runs per lab by the course's students (succeeded, failed, unfinished) and, for each
    prediction part, predicted against measured values. 5 queries plus one per prediction
    part of the module (a fixed number: it does not grow with the class)."""
    students = course_students(course=course).values("user_id")
    runs = LabRun.objects.filter(course=course, requester_id__in=students)
    labs = list(Lab.objects.active().filter(module_id__in=course.module_ids()).order_by("order"))
    counts: dict[int, dict[str, int]] = defaultdict(dict)
    for lab_id, status, n in runs.values_list("lab_id", "status").annotate(n=Count("id")).order_by():
        counts[lab_id][status] = n
    people = dict(runs.values_list("lab_id").annotate(n=Count("requester_id", distinct=True))
                  .order_by())
    usage = [
        LabUsage(
            lab=lab, runs=sum(counts[lab.pk].values()),
            succeeded=counts[lab.pk].get(LabRun.Status.SUCCEEDED, 0),
            failed=counts[lab.pk].get(LabRun.Status.FAILED, 0),
            unfinished=counts[lab.pk].get(LabRun.Status.QUEUED, 0)
            + counts[lab.pk].get(LabRun.Status.RUNNING, 0),
            students=people.get(lab.pk, 0),
        )
        for lab in labs
    ]
    parts = [p for p in Part.objects.active().select_related("exercise")
             .filter(exercise__module_id__in=course.module_ids(), exercise__archived_at__isnull=True)
             .order_by("exercise__order", "order")
             if p.spec.get("lab") and p.spec.get("measure")]
    calibrations = {p.pk: Calibration(part=p, lab_slug=p.spec["lab"], measure=p.spec["measure"])
                    for p in parts}
    if not parts:
        return LabsOverview(labs=usage, calibrations=[])
    outcomes = (
        Submission.objects.filter(course=course, part_id__in=calibrations,
                                  student_id__in=students, counts_as_attempt=True)
        .values_list("part_id")
        .annotate(n=Count("id"),
                  agreed=Count("id", filter=Q(outcome=Submission.Outcome.CORRECT)),
                  waiting=Count("id", filter=Q(outcome=Submission.Outcome.PENDING)),
                  failed=Count("id", filter=Q(outcome=Submission.Outcome.ERROR)))
        .order_by()
    )
    for part_id, n, agreed, waiting, failed in outcomes:
        cal = calibrations[part_id]
        cal.predictions, cal.agreed, cal.awaiting_lab, cal.lab_failed = n, agreed, waiting, failed
    for part in parts:
        path = "__".join(part.spec["measure"].split("."))
        pairs = (
            runs.filter(submission__part=part, status=LabRun.Status.SUCCEEDED)
            .annotate(measured=KT(f"result__{path}"))
            .values_list("submission__canonical", "measured")
            .annotate(n=Count("id")).order_by("-n", "submission__canonical")
        )
        calibrations[part.pk].cells = [
            CalibrationCell(predicted=predicted or "", measured="" if measured is None
                            else str(measured), count=n)
            for predicted, measured, n in pairs
        ]
    return LabsOverview(labs=usage, calibrations=list(calibrations.values()))
