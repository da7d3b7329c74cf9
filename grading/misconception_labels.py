"""One-line descriptions of misconception tags, from the parts' specs (the content's `label`),
for every page that shows a tag."""

from collections.abc import Iterable, Mapping
from typing import Any

from courses.models import Course, Part
from grading.checkers.base import misconception_list
from grading.checkers.forms import FORMS
from grading.checkers.marking_rules import partial_credit_rules


def part_misconception_labels(spec: Mapping[str, Any]) -> dict[str, str]:
    """tag -> label of one part's misconceptions (tags without a label are left out), and of
    the tags the checkers give an equal answer in a required form (``form:<name>``) and the
    named wrong forms of ``partial_credit`` (``rule:<rule>``)."""
    labels: dict[str, str] = {}
    for item in misconception_list(spec):
        tag, label = item.get("tag"), item.get("label")
        if isinstance(tag, str) and isinstance(label, str) and label.strip():
            labels.setdefault(tag, label.strip())
    forms = spec.get("form")
    for name in [forms] if isinstance(forms, str) else forms if isinstance(forms, list) else []:
        if isinstance(name, str) and name in FORMS:
            labels.setdefault(f"form:{name}", f"equal to the key, but not {FORMS[name]}")
    if spec.get("required_functions"):
        labels.setdefault("form:required_functions",
                          "equal to the key, without a required function")
    if "answer(" in str(spec.get("reference", "")):
        labels.setdefault("carried", "right given the student's own earlier answer")
    for entry in partial_credit_rules(spec):
        rule = entry.get("rule")
        if isinstance(rule, str) and rule in _RULE_LABELS:
            labels.setdefault(str(entry.get("tag") or f"rule:{rule}"), _RULE_LABELS[rule])
    return labels


_RULE_LABELS = {
    "sign": "the key with the wrong sign",
    "factor": "the key times a constant",
    "constant": "the key plus a constant",
    "power_of_ten": "the key off by a power of ten",
}


def misconception_label(spec: Mapping[str, Any], tag: str) -> str:
    """The label of `tag` in one part's spec ("" when it has none)."""
    return part_misconception_labels(spec).get(tag, "") if tag else ""


class MisconceptionLabels:
    """Labels of a course's tags per part, and per tag over all parts (the first one found
    in module order, for pages that count a tag over several parts)."""

    def __init__(self, specs: Iterable[tuple[int, Mapping[str, Any]]]) -> None:
        self.by_part: dict[int, dict[str, str]] = {}
        self.by_tag: dict[str, str] = {}
        for part_id, spec in specs:
            labels = part_misconception_labels(spec)
            self.by_part[part_id] = labels
            for tag, label in labels.items():
                self.by_tag.setdefault(tag, label)

    def of(self, tag: str, part_id: int | None = None) -> str:
        """The label of `tag` (on `part_id` when given and labelled there), or ""."""
        if part_id is not None and tag in self.by_part.get(part_id, {}):
            return self.by_part[part_id][tag]
        return self.by_tag.get(tag, "")


def course_misconception_labels(*, course: Course) -> MisconceptionLabels:
    """The labels of every tag of the course's module (one query)."""
    specs = (Part.objects.filter(exercise__module_id__in=course.module_ids())
             .order_by("exercise__order", "order").values_list("pk", "spec"))
    return MisconceptionLabels(specs)
