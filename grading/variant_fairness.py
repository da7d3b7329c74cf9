"""Which variants of a course's parts are harder than their others: first-attempt success per
variant (per parameter band for parameters drawn from a long range) counted in SQL over the
kept progress rows, fed to the pure statistics of grading/fairness_statistics.py."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Max, Q

from courses.models import Course, Exercise
from courses.selectors import course_students
from grading.fairness_statistics import VariantCounts, VariantTest, variant_tests
from grading.gradebook import PartColumn, gradebook_columns
from grading.models import PartProgress
from grading.variants import format_value, variant_drawer

#: A parameter drawn from a grid of more values than this is grouped in BANDS bands.
BAND_ABOVE = 12
BANDS = 4


@dataclass(frozen=True)
class VariantRow:
    """One variant (or band) of a part: its parameters as shown ("0.85", or "0.5 to 0.6"
    for a band) and its statistics."""

    key: str  # stable within the part: the parameters as shown, joined
    params: dict[str, str]
    test: VariantTest


@dataclass(frozen=True)
class PartFairness:
    """The variants of one part with parameters, hardest first."""

    column: PartColumn
    variants: list[VariantRow]

    @property
    def flagged(self) -> list[VariantRow]:
        return [v for v in self.variants if v.test.flagged]


def _bands(parameters: Mapping[str, Any]) -> dict[str, list[tuple[float, float]]]:
    """For each parameter drawn from a grid longer than BAND_ABOVE values, BANDS equal
    ranges of grid positions as (low, high) values."""
    bands = {}
    for name, spec in parameters.items():
        if "choices" in spec or "min" not in spec or "max" not in spec:
            continue
        step = spec.get("step", 1)
        count = round((spec["max"] - spec["min"]) / step) + 1
        if count <= BAND_ABOVE:
            continue
        edges = [round(k * count / BANDS) for k in range(BANDS + 1)]
        bands[name] = [(spec["min"] + edges[k] * step, spec["min"] + (edges[k + 1] - 1) * step)
                       for k in range(BANDS)]
    return bands


def _shown(params: Mapping[str, Any], bands: Mapping[str, list[tuple[float, float]]],
           ) -> dict[str, str]:
    shown = {}
    for name in sorted(params):
        value = params[name]
        ranges = bands.get(name)
        if ranges is None:
            shown[name] = format_value(value)
            continue
        low, high = next(((lo, hi) for lo, hi in ranges if value <= hi + 1e-12 * abs(hi) + 1e-12),
                         ranges[-1])
        shown[name] = f"{format_value(low)} to {format_value(high)}"
    return shown


def _counts(course: Course, group: str, part_ids: list[int]) -> list[dict[str, Any]]:
    """Per part and variant key: students who answered (used an attempt), those right at
    the first attempt, and one seed of the variant. One query."""
    return list(
        PartProgress.objects.filter(
            course=course, part_id__in=part_ids, attempts__gt=0,
            student_id__in=course_students(course=course, group=group).values("user_id"))
        .values("part_id", "variant_key")
        .annotate(answered=Count("id"), first=Count("id", filter=Q(to_correct=1)),
                  seed=Max("variant_seed"))
        .order_by("part_id", "variant_key")
    )


def variant_fairness(*, course: Course, group: str = "",
                     part_id: int | None = None) -> list[PartFairness]:
    """Every active part of the course whose exercise has parameters, with its variants'
    first-attempt success, 95% interval, p-value of "harder than the others" and flag
    (Benjamini-Hochberg over all the course's variants, so that one part's page shows the
    same flags as the course's). `part_id` keeps one part in the result. Four queries
    whatever the number of students; the draws of one seed per distinct variant."""
    columns = gradebook_columns(course=course)
    exercises = {e["pk"]: e for e in Exercise.objects.filter(
        pk__in={c.exercise_id for c in columns}).values("pk", "parameters")}
    columns = [c for c in columns if exercises[c.exercise_id]["parameters"]]
    rows = _counts(course, group, [c.id for c in columns])
    by_part: dict[int, dict[str, list[Any]]] = {}
    shown: dict[tuple[int, str], dict[str, str]] = {}
    exercise_of = {c.id: c.exercise_id for c in columns}
    draws: dict[int, Any] = {}
    for row in rows:
        parameters = exercises[exercise_of[row["part_id"]]]["parameters"]
        drawer = draws.setdefault(exercise_of[row["part_id"]], variant_drawer(parameters))
        # A key kept under older definitions is merged by what its seed draws now.
        params = _shown(drawer(row["seed"]), _bands(parameters))
        label = ", ".join(f"{k} = {v}" for k, v in params.items())
        shown[(row["part_id"], label)] = params
        group_counts = by_part.setdefault(row["part_id"], {}).setdefault(label, [0, 0])
        group_counts[0] += row["answered"]
        group_counts[1] += row["first"]
    counts = [VariantCounts(part=part, variant=label, answered=n, first_correct=s)
              for part, labels in by_part.items() for label, (n, s) in labels.items()]
    tests = variant_tests(counts)
    per_part: dict[int, list[VariantRow]] = {}
    for test in tests:
        part, label = test.counts.part, str(test.counts.variant)
        assert isinstance(part, int)  # noqa: S101 (the keys given above)
        per_part.setdefault(part, []).append(
            VariantRow(key=label, params=shown[(part, label)], test=test))
    result = []
    for column in columns:
        if part_id is not None and column.id != part_id:
            continue
        variants = per_part.get(column.id, [])
        variants.sort(key=lambda v: (v.test.rate if v.test.rate is not None else 2.0, v.key))
        result.append(PartFairness(column=column, variants=variants))
    return result

