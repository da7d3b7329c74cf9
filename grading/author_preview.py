"""An exercise as a student would see it in any numbered variant, for the course's staff: the
parameter values, each part's key (as typed, in canonical form, and as a readable value when
it is a number or a list of numbers: a 50-digit fraction reads as 0.0015023), its
misconceptions with their values in the variant, and answers tried against it. A part marked
against earlier answers (``answer("scores")``) is tried with earlier answers the author types
(by default the answers tried for those parts), graded as a student's would be. Grading here
stores nothing: no Submission, no progress, no event."""

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from courses.models import Exercise
from courses.rendering import latex_to_html
from grading.checkers import Result, checker_for, grade
from grading.checkers.base import misconception_list
from grading.checkers.carried import (
    carried_keys,
    carried_name,
    earlier_from_answers,
    grade_carried,
    key_value,
    resolved_spec,
)
from grading.difficulty_guard import KeySpread, key_spreads
from grading.variant_numbers import VariantNumber
from grading.variant_space import NumberedVariant, variant_count, variant_numbered
from grading.variants import format_value, render_prompt


@dataclass(frozen=True)
class PartPreview:
    """One part in the previewed variant; `tried` is the grade of the answer tried, if any."""

    key: str
    answer_type: str
    prompt: str
    key_answer: str  # the key as a student would type it ("" when it cannot be computed)
    key_canonical: str
    misconceptions: list[dict[str, str]]
    tried_answer: str = ""
    tried: Result | None = None
    note: str = ""
    key_latex: str = ""  # the key as read, typeset as the module's maths is ("" for none)
    key_value: str = ""  # the key's value, readable ("0.00150356"; "" when not a number)
    #: a part marked against earlier answers: (earlier part key, field name, answer used)
    earlier: list[tuple[str, str, str]] = field(default_factory=list)
    spread: KeySpread | None = None  # the key over all the variants (a number key only)

    @property
    def key_is_long(self) -> bool:
        """Whether the key as typed is too long to read at a glance (shown folded)."""
        return len(self.key_answer) > 40

    @property
    def key_maths(self) -> str:
        """The key as MathML (sanitised HTML), "" when it has no maths to show."""
        return latex_to_html(self.key_latex) if self.key_latex else ""

    @property
    def tried_maths(self) -> str:
        """The tried answer as read, as MathML (sanitised HTML)."""
        latex = self.tried.latex if self.tried is not None else ""
        return latex_to_html(latex) if latex else ""


@dataclass(frozen=True)
class ExercisePreview:
    exercise: Exercise
    variant: NumberedVariant
    count: int  # the numbered variants besides 0
    exhaustive: bool  # every variant is numbered (else a sample of seeded draws)
    prompt: str
    numbers: list[VariantNumber]
    parts: list[PartPreview] = field(default_factory=list)

    @property
    def next_number(self) -> int:
        """The variant after this one (wrapping to 0)."""
        return 0 if self.variant.number >= self.count else self.variant.number + 1


def earlier_field(part_key: str, used_key: str) -> str:
    """The form field of the earlier answer to `used_key` that part `part_key` is tried with
    (a dot cannot occur in a part key)."""
    return f"earlier.{part_key}.{used_key}"


def exercise_preview(*, exercise: Exercise, number: int,
                     answers: Mapping[str, str] | None = None,
                     earlier: Mapping[str, str] | None = None) -> ExercisePreview:
    """Variant `number` of `exercise` (ValueError if it has none such), with `answers`
    (part key -> raw answer) graded in it; a part that uses earlier answers is graded with
    `earlier` (``earlier_field(part, used)`` -> raw answer), or else with the answers tried
    for those parts; each part's key spread over all the variants. Reads the exercise's active
    parts; writes nothing."""
    count, exhaustive = variant_count(exercise.parameters)
    variant = variant_numbered(exercise.parameters, exercise.derived, number)
    params = variant.params
    answers = answers or {}
    earlier = earlier or {}
    numbers = [VariantNumber(name=n, label=str((exercise.parameters[n] or {}).get("label") or n),
                             value=format_value(params[n]),
                             unit=str((exercise.parameters[n] or {}).get("unit") or ""))
               for n in variant.drawn]
    rows = list(exercise.parts.active().order_by("order", "pk"))
    specs = {p.key: p.spec for p in rows}
    spreads = key_spreads(exercise.parameters, exercise.derived, specs)
    parts = [replace(_part(p.key, p.spec, p.prompt, params, answers.get(p.key, ""), specs,
                           {k: earlier.get(earlier_field(p.key, k), "").strip()
                            or answers.get(k, "") for k in carried_keys(p.spec)}),
                     spread=spreads.get(p.key))
             for p in rows]
    return ExercisePreview(exercise=exercise, variant=variant, count=count,
                           exhaustive=exhaustive, prompt=render_prompt(exercise.prompt, params),
                           numbers=numbers, parts=parts)


def readable(value: Any) -> str:
    """A number, or a list of numbers, at 6 significant figures ("" for anything else)."""
    if isinstance(value, list):
        items = [readable(v) for v in value]
        return "[" + ", ".join(items) + "]" if items and all(items) else ""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return ""
    if isinstance(value, int) and abs(value) < 10**15:
        return str(value)
    return f"{value:.6g}"


def _value(spec: Mapping[str, Any], reference: Any, params: Mapping[str, Any],
           specs: Mapping[str, Mapping[str, Any]]) -> str:
    if spec.get("type") not in ("numeric", "integer", "vector") or "units" in spec:
        return ""
    try:
        return readable(key_value({**spec, "reference": reference}, params, specs))
    except (ValueError, TypeError, ArithmeticError, KeyError):
        return ""


def _part(key: str, spec: dict[str, Any], prompt: str, params: dict[str, Any], raw: str,
          specs: Mapping[str, Mapping[str, Any]], given: dict[str, str]) -> PartPreview:
    items = [{"tag": str(m.get("tag", "")), "answer": str(m.get("answer", "")),
              "label": str(m.get("label", "")),
              "value": _value(spec, m.get("answer"), params, specs)}
             for m in misconception_list(spec)]
    answer_type = str(spec.get("type", ""))
    shown = render_prompt(prompt or "", params)
    used = carried_keys(spec)
    graded_spec, graded_params = spec, params
    try:
        if used:  # the key with the earlier parts' keys in place of the student's answers
            graded_spec = resolved_spec(spec)
            graded_params = {**params, **{carried_name(k): key_value(specs[k], params, specs)
                                          for k in used}}
        key_answer = checker_for(graded_spec).reference_answer(graded_spec, graded_params)
        read = grade(key_answer, graded_spec, graded_params)
        key_canonical, key_latex = read.canonical, read.latex
    except (ValueError, TypeError, ArithmeticError, KeyError) as exc:
        key_answer, key_canonical, key_latex = "", f"(cannot be computed: {exc})", ""
    value = _value(spec, spec.get("reference"), params, specs)
    if used:
        fields = [(k, earlier_field(key, k), given.get(k, "")) for k in used]
        try:
            tried = grade_carried(raw, spec, params, earlier_from_answers(
                spec, params, given, specs)) if raw.strip() else None
        except ValueError as exc:
            return PartPreview(key=key, answer_type=answer_type, prompt=shown,
                               misconceptions=items, key_answer=key_answer,
                               key_canonical=key_canonical, note=f"Cannot be tried: {exc}")
        return PartPreview(key=key, answer_type=answer_type, prompt=shown, misconceptions=items,
                           key_answer=key_answer, key_canonical=key_canonical,
                           tried_answer=raw, tried=tried, key_latex=key_latex,
                           key_value=value, earlier=fields)
    tried = grade(raw, spec, params) if raw.strip() else None
    return PartPreview(key=key, answer_type=answer_type, prompt=shown, misconceptions=items,
                       key_answer=key_answer, key_canonical=key_canonical,
                       tried_answer=raw, tried=tried, key_latex=key_latex, key_value=value)
