"""What labs holds about a person: the lab runs they asked for (no text they typed)."""

from typing import Any

from django.contrib.auth.models import User

from core.personal_data import PersonalDataSource, personal_data_register
from labs.models import LabRun


def lab_runs_export(user: User) -> list[dict[str, Any]]:
    """Every run the person requested: lab, parameters, seed, status and when."""
    return [
        {"id": str(run.uuid), "course": run.course.slug, "lab": run.lab.slug, "params": run.params,
         "seed": run.seed, "status": run.status, "for_prediction": run.submission_id,
         "queued_at": run.queued_at.isoformat(),
         "finished_at": run.finished_at.isoformat() if run.finished_at else None}
        for run in LabRun.objects.filter(requester=user).select_related("course", "lab")
        .defer("result").order_by("queued_at", "id")
    ]


def lab_runs_erase(user: User, pseudonym: str) -> int:
    """Nothing to remove: a run holds parameters chosen from forms and a seed, not personal
    text; it stays with the (anonymised) account for the class's lab statistics."""
    return 0


def register() -> None:
    """Register labs' personal data (called from labs' hooks)."""
    personal_data_register(PersonalDataSource("lab runs", lab_runs_export, lab_runs_erase))
