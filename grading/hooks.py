"""What grading plugs into the apps below it, installed once by GradingConfig.ready()."""

from typing import Any

from courses.content_validation import content_validators_register
from events.catalog import event_type_register
from grading.events import GRADE_CHANGED, SUBMISSION_GRADED
from grading.personal_data import register as personal_data_register


def _part_spec_problems(context: dict[str, Any]) -> list[str]:
    # Imported when a spec is checked, not at start-up: the checkers import sympy (seconds),
    # which `migrate`, `collectstatic` and most commands never need.
    from grading.content_checks import part_spec_problems

    return part_spec_problems(context)


def install() -> None:
    """Register grading's content validator (part specs) and its event names."""
    content_validators_register(part_spec=_part_spec_problems)
    event_type_register(SUBMISSION_GRADED, "A submission was graded, reviewed or regraded")
    event_type_register(GRADE_CHANGED, "A student's grade on an exercise changed: an override, "
                        "a regrade, an answer awaiting review, an extension")
    personal_data_register()
