"""An exercise as a student would see it in any numbered variant, for the course's staff: the
parameter values, each part's key (as typed and in canonical form), its misconceptions, and
answers tried against it. Grading here stores nothing: no Submission, no progress, no event."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from courses.models import Exercise
from courses.rendering import latex_to_html
from grading.checkers import Result, checker_for, grade
from grading.checkers.base import misconception_list
from grading.checkers.carried import carried_keys
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


def exercise_preview(*, exercise: Exercise, number: int,
                     answers: Mapping[str, str] | None = None) -> ExercisePreview:
    """Variant `number` of `exercise` (ValueError if it has none such), with `answers`
    (part key -> raw answer) graded in it. Reads the exercise's active parts; writes nothing."""
    count, exhaustive = variant_count(exercise.parameters)
    variant = variant_numbered(exercise.parameters, exercise.derived, number)
    params = variant.params
    answers = answers or {}
    numbers = [VariantNumber(name=n, label=str((exercise.parameters[n] or {}).get("label") or n),
                             value=format_value(params[n]),
                             unit=str((exercise.parameters[n] or {}).get("unit") or ""))
               for n in variant.drawn]
    parts = [_part(p.key, p.spec, p.prompt, params, answers.get(p.key, ""))
             for p in exercise.parts.active().order_by("order", "pk")]
    return ExercisePreview(exercise=exercise, variant=variant, count=count,
                           exhaustive=exhaustive, prompt=render_prompt(exercise.prompt, params),
                           numbers=numbers, parts=parts)


def _part(key: str, spec: dict[str, Any], prompt: str, params: dict[str, Any],
          raw: str) -> PartPreview:
    items = [{"tag": str(m.get("tag", "")), "answer": str(m.get("answer", "")),
              "label": str(m.get("label", ""))} for m in misconception_list(spec)]
    answer_type = str(spec.get("type", ""))
    shown = render_prompt(prompt or "", params)
    if carried_keys(spec):
        return PartPreview(key=key, answer_type=answer_type, prompt=shown, misconceptions=items,
                           key_answer="", key_canonical="",
                           note="This part uses earlier answers: try it with check_answers.")
    try:
        key_answer = checker_for(spec).reference_answer(spec, params)
        read = grade(key_answer, spec, params)
        key_canonical, key_latex = read.canonical, read.latex
    except (ValueError, TypeError, ArithmeticError) as exc:
        key_answer, key_canonical, key_latex = "", f"(cannot be computed: {exc})", ""
    tried = grade(raw, spec, params) if raw.strip() else None
    return PartPreview(key=key, answer_type=answer_type, prompt=shown, misconceptions=items,
                       key_answer=key_answer, key_canonical=key_canonical,
                       tried_answer=raw, tried=tried, key_latex=key_latex)
