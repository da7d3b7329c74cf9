"""One-line descriptions of misconception tags, from the parts' specs (the content's `label`),
for every page that shows a tag."""

from collections.abc import Iterable, Mapping
from typing import Any

from courses.models import Course, Part
from grading.checkers.base import misconception_list


def part_misconception_labels(spec: Mapping[str, Any]) -> dict[str, str]:
    """tag -> label of one part's misconceptions (tags without a label are left out)."""
    labels: dict[str, str] = {}
    for item in misconception_list(spec):
        tag, label = item.get("tag"), item.get("label")
        if isinstance(tag, str) and isinstance(label, str) and label.strip():
            labels.setdefault(tag, label.strip())
    return labels


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
    specs = (Part.objects.filter(exercise__module_id=course.module_id)
             .order_by("exercise__order", "order").values_list("pk", "spec"))
    return MisconceptionLabels(specs)
