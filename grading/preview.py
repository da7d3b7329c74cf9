"""How an answer was read, before it is submitted: the checker's parse, never its check.

The preview uses only ``checker_for(spec).parse(raw, spec)``: it shows the expression as we read
it (canonical text and MathML) or the invalid-input message with its position. It never
evaluates the reference, misconceptions or rubric, so nothing of the answer key can leak.
"""

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from courses.rendering import latex_to_html
from grading.checkers import FormatError, checker_for
from grading.checkers.forms import FORMS, KEY_FORMS, form_check

#: Answer types whose reading is worth previewing (maths typed as text, and strings, whose
#: reading folds case and spaces as the spec says).
PREVIEWED_TYPES = frozenset({"numeric", "integer", "symbolic", "vector", "matrix", "quantity",
                             "set", "list", "equation", "string"})


@dataclass(frozen=True)
class AnswerPreview:
    """What the preview shows: ``valid`` with canonical text and MathML, or the message."""

    valid: bool
    empty: bool = False
    canonical: str = ""
    mathml: str = ""
    message: str = ""
    position: int | None = None
    form: str = ""  # the required form as the reader sees it ("expanded", "not factored ...")

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON-serialisable form (what the preview endpoint returns)."""
        return asdict(self)


def answer_preview(*, raw: str, spec: Mapping[str, Any]) -> AnswerPreview:
    """How `raw` would be read for a part with `spec`: canonical text + MathML, or why not.

    Reading needs no variant parameters, and nothing about the reference is computed. An
    empty answer is reported as `empty`, not as an error. Raises ValueError for an answer
    type that has no preview (choice, text).
    """
    answer_type = spec.get("type")
    if answer_type not in PREVIEWED_TYPES:
        raise ValueError(f"no preview for answer type {answer_type!r}")
    if not raw.strip():
        return AnswerPreview(valid=False, empty=True)
    checker = checker_for(spec)
    try:
        answer = checker.parse(raw, spec)
    except FormatError as exc:
        return AnswerPreview(valid=False, message=exc.message, position=exc.position)
    mathml = latex_to_html(answer.latex) if answer.latex else ""
    return AnswerPreview(valid=True, canonical=answer.canonical, mathml=mathml,
                         form=_form_seen(answer, spec))


def _form_seen(answer: Any, spec: Mapping[str, Any]) -> str:
    """Which of the spec's required forms the answer is in, decided on its own tree (the
    forms that compare with the key are left out: the preview never reads the key)."""
    forms = spec.get("form")
    names = [forms] if isinstance(forms, str) else forms if isinstance(forms, list) else []
    names = [n for n in names if isinstance(n, str) and n in FORMS and n not in KEY_FORMS]
    expr = getattr(answer, "expr", None)
    if not names or expr is None:
        return ""
    variables = [str(v) for v in spec.get("variables") or []]
    failure = form_check(expr.node, names, variables)
    if failure is None:
        return "In the required form: " + ", ".join(FORMS[n] for n in names) + "."
    return f"Not yet {FORMS[failure.name]}."
