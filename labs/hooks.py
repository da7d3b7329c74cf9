"""What labs plugs into the apps below it, installed once by LabsConfig.ready(): the lab
validators of content sync, its event name, and the handler grading calls for lab-graded
parts (predictions)."""

from typing import Any

from courses.content_validation import content_validators_register
from events.catalog import event_type_register
from grading.lab_graded import lab_grading_register
from grading.models import Submission
from labs.content_checks import lab_param_schema, lab_problems
from labs.events import LAB_RUN_FINISHED
from labs.personal_data import register as personal_data_register


def _prediction_submit(submission: Submission, params: dict[str, Any]) -> Submission:
    # Imported when a prediction is submitted, not at start-up: predictions import the
    # checkers (sympy) and the lab runner (matplotlib), seconds that most commands never need.
    from labs.predictions import prediction_submit

    return prediction_submit(submission, params)


def install() -> None:
    """Register labs' content validators, event name and prediction handler."""
    content_validators_register(lab=lab_problems, lab_schema=lab_param_schema)
    event_type_register(LAB_RUN_FINISHED, "A lab run finished (succeeded or failed)")
    lab_grading_register(_prediction_submit)
    personal_data_register()
