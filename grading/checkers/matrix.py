# ruff: noqa: RUF001, RUF002 - the multiplication sign of shapes and maths symbols
"""Matrix answers: ``[[1, 2], [3, 4]]`` or ``[1 2; 3 4]``, numeric or symbolic entries.

The reference is a list of rows (TOML), a literal string, or one expression of the
parameters with matrix operations (``softmax(Q*transpose(K)/sqrt(d))``), computed exactly with
sympy. Each entry is compared as a numeric part compares one number (the spec's tolerance) or,
when the spec declares ``variables``, as a symbolic part compares one expression. A wrong shape
is invalid ("expected 2×3, got 3×2"; ``wrong_shape = "incorrect"`` counts it as wrong);
``partial`` gives the fraction of right entries; the wrong entries are named in the feedback
and listed in the verdict's ``concepts_found`` as ``entry:i,j`` (1-based) for the page.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sympy

from grading.checkers.base import (
    Answer,
    Checker,
    Verdict,
    check_misconception_shapes,
    feedback,
    functions_of,
    misconception_list,
    names_of,
)
from grading.checkers.marking_rules import partial_credit_rules, up_to_relations, validate_marking
from grading.checkers.mathparse import MAX_LENGTH, Expr, FormatError, parse
from grading.checkers.mathparse.sympy_build import sympy_text
from grading.checkers.matrix_reading import (
    MAX_MATRIX_TEXT,
    WRONG_SHAPE,
    read_matrix,
    written_as_matrix,
)
from grading.checkers.matrix_relations import (
    MATRIX_PARTIAL_RULES,
    MATRIX_RULE_FEEDBACK,
    MATRIX_UP_TO,
    matrix_relation_holds,
)
from grading.checkers.numeric import TOLERANCE_KEYS, Tolerance, validate_tolerance
from grading.checkers.refs import Number, answer_number, number_of, parse_reference, reference_sympy
from grading.checkers.sampling import DOMAINS, Domain, compare
from grading.checkers.symbolic import REVIEW_FEEDBACK

__all__ = ["MatrixAnswer", "MatrixChecker", "reference_matrix"]

def _expected(spec: Mapping[str, Any], params: Mapping[str, Any]) -> Any:
    return reference_matrix(spec["reference"], params, variables=names_of(spec, "variables"),
                            functions=functions_of(spec))


def reference_matrix(reference: object, params: Mapping[str, Any], *,
                     variables: Sequence[str] = (), functions: Any = ()) -> Any:
    """The exact sympy matrix of a reference: a list of rows of expressions, a literal
    (``"[[a, 0], [0, b]]"``) or one expression giving a matrix (a list gives a 1×n row).
    ValueError when it cannot be computed."""
    key = _cache_key(reference, params, variables, functions)
    if key is not None:
        return _reference_cached(key)
    return _reference_matrix(reference, params, variables, functions)


def _freeze(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, Mapping):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    hash(value)
    return value


def _cache_key(*parts: Any) -> Any:
    try:
        return _freeze([parts[0], dict(parts[1]), list(parts[2]), parts[3]])
    except TypeError:
        return None


@functools.lru_cache(maxsize=1024)
def _reference_cached(key: Any) -> Any:
    reference, params, variables, functions = key
    return _reference_matrix(_thaw(reference), {k: _thaw(v) for k, v in params},
                             list(variables), dict(functions) if functions and isinstance(
                                 functions[0], tuple) else list(functions))


def _thaw(value: Any) -> Any:
    return [_thaw(v) for v in value] if isinstance(value, tuple) else value


def _reference_matrix(reference: object, params: Mapping[str, Any], variables: Sequence[str],
                      functions: Any) -> Any:
    def cell(text: object) -> Any:
        return reference_sympy(text, params, variables=variables, functions=functions)

    if isinstance(reference, list):
        if not reference or not all(isinstance(row, list) and row for row in reference):
            raise ValueError("a matrix reference is a non-empty list of rows")
        if len({len(row) for row in reference}) != 1:
            raise ValueError("the rows of the reference have different lengths")
        return sympy.ImmutableMatrix([[cell(v) for v in row] for row in reference])
    if not isinstance(reference, str) or not reference.strip():
        raise ValueError("'reference' must be a list of rows or an expression string")
    if reference.strip()[:1] in "[(" and written_as_matrix(reference):
        try:
            rows = read_matrix(reference)
        except FormatError as exc:
            raise ValueError(f"'{reference}': {exc.message}") from None
        return sympy.ImmutableMatrix([[cell(text.strip()) for text, _ in row] for row in rows])
    value = cell(reference)
    if isinstance(value, list):
        return sympy.ImmutableMatrix(1, len(value), value)
    if not isinstance(value, sympy.MatrixBase):
        raise ValueError(f"'{reference}' gives one value, not a matrix")
    return sympy.ImmutableMatrix(value)


@functools.lru_cache(maxsize=4096)
def _reference_cell_expr(text: str, variables: tuple[str, ...],
                         functions: tuple[tuple[str, int], ...]) -> Expr:
    return parse_reference(text, {}, variables=variables, functions=dict(functions))


@dataclass(frozen=True)
class MatrixAnswer(Answer):
    """The entries as parsed expressions, row by row."""

    rows: tuple[tuple[Expr, ...], ...] = ()

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, columns)."""
        return len(self.rows), len(self.rows[0]) if self.rows else 0


def _shape(rows: int, cols: int) -> str:
    return f"{rows}×{cols}"


class MatrixChecker(Checker[MatrixAnswer]):
    """A matrix compared entry by entry, numerically (tolerances) or symbolically."""

    type_name = "matrix"
    spec_keys = frozenset({*TOLERANCE_KEYS, "partial", "wrong_shape", "domain",
                           "equivalent_up_to", "partial_credit"})

    def parse(self, raw: str, spec: Mapping[str, Any]) -> MatrixAnswer:
        raw = raw if isinstance(raw, str) else ""
        if len(raw) > MAX_MATRIX_TEXT:
            raise FormatError(f"the answer is too long (at most {MAX_MATRIX_TEXT} characters)",
                              None)
        cells = read_matrix(raw)
        variables = names_of(spec, "variables")
        functions = functions_of(spec)
        rows = []
        for row in cells:
            exprs = []
            for text, offset in row:
                expr = parse(text, variables=variables, functions=functions, offset=offset,
                             max_length=MAX_LENGTH)
                if not expr.free_variables:
                    value = answer_number(expr, {})
                    if not value.is_finite:
                        raise FormatError(f"'{text.strip()}' (character {offset + 1}) has no "
                                          f"finite value", offset + 1)
                exprs.append(expr)
            rows.append(tuple(exprs))
        canonical = "[" + ", ".join("[" + ", ".join(e.to_text() for e in row) + "]"
                                    for row in rows) + "]"
        latex = r"\begin{pmatrix}" + r" \\ ".join(" & ".join(e.to_latex() for e in row)
                                                  for row in rows) + r"\end{pmatrix}"
        return MatrixAnswer(raw=raw, canonical=canonical, latex=latex, rows=tuple(rows))

    def check(self, answer: MatrixAnswer, spec: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> Verdict:
        params = params or {}
        reference = _expected(spec, params)
        got = answer.shape
        if got != reference.shape:
            message = f"expected a {_shape(*reference.shape)} matrix, got {_shape(*got)}"
            if got == reference.shape[::-1]:
                message += " (rows and columns swapped?)"
            if spec.get("wrong_shape") == "incorrect":
                return Verdict(0.0, "incorrect", f"{feedback(spec, False)} {message[0].upper()}"
                               f"{message[1:]}.", None, [], answer.canonical)
            raise FormatError(message, None)
        judge = _Judge(spec, params)
        right = judge.entries(answer, reference, Tolerance.from_spec(spec))
        if right is None:
            return Verdict(None, "review", REVIEW_FEEDBACK, None, [], answer.canonical)
        if all(all(row) for row in right):
            return Verdict(1.0, "correct", feedback(spec, True), None, [], answer.canonical)
        tolerance = Tolerance.from_spec(spec)
        relation = judge.relation(answer, reference, tolerance)
        for rule in up_to_relations(spec):
            if relation(rule):
                return Verdict(1.0, "correct", feedback(spec, True), None, [], answer.canonical)
        for item in misconception_list(spec):
            try:
                target = _expected({**spec, "reference": item.get("answer")}, params)
            except ValueError:
                continue
            if target.shape == reference.shape:
                matched = judge.entries(answer, target, tolerance.for_misconception(item))
                if matched is not None and all(all(row) for row in matched):
                    # its credit, if any, is scored by the pipeline (pipeline.misconception_credit)
                    return Verdict(0.0, "incorrect",
                                   str(item.get("feedback", "")), str(item.get("tag")), [],
                                   answer.canonical)
        for entry in partial_credit_rules(spec):
            rule = str(entry["rule"])
            if relation(rule):
                credit = float(entry["credit"])
                return Verdict(credit, "partial" if credit > 0 else "incorrect",
                               str(entry.get("feedback") or MATRIX_RULE_FEEDBACK[rule]),
                               str(entry.get("tag") or f"rule:{rule}"), [], answer.canonical)
        wrong = [(i, j) for i, row in enumerate(right, start=1)
                 for j, ok in enumerate(row, start=1) if not ok]
        marks = [f"entry:{i},{j}" for i, j in wrong]
        message = feedback(spec, False)
        if "feedback_incorrect" not in spec:
            message = f"{message} {judge.hint(answer, reference, tolerance, wrong)}".rstrip()
        cells = len(wrong) + sum(sum(row) for row in right)
        if spec.get("partial") and len(wrong) < cells:
            return Verdict((cells - len(wrong)) / cells, "partial", message, None, marks,
                           answer.canonical)
        return Verdict(0.0, "incorrect", message, None, marks, answer.canonical)

    def reference_answer(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
        matrix = _expected(spec, params)
        return "[" + ", ".join("[" + ", ".join(sympy_text(v) for v in matrix.row(i)) + "]"
                               for i in range(matrix.rows)) + "]"

    def validate_spec(self, spec: Mapping[str, Any]) -> list[str]:
        problems = super().validate_spec(spec)
        reference = spec.get("reference")
        if reference is None:
            problems.append("'reference' is missing")
        elif isinstance(reference, list):
            if not reference or not all(
                isinstance(row, list) and row and all(
                    isinstance(v, str | int | float) and not isinstance(v, bool) for v in row)
                for row in reference
            ):
                problems.append("'reference' must be a list of rows of expressions (or one "
                                "expression giving a matrix)")
            elif len({len(row) for row in reference}) != 1:
                problems.append("the rows of 'reference' have different lengths")
        elif not isinstance(reference, str) or not reference.strip():
            problems.append("'reference' must be a list of rows of expressions (or one "
                            "expression giving a matrix)")
        problems += validate_tolerance(spec)
        if "partial" in spec and not isinstance(spec["partial"], bool):
            problems.append("'partial' must be true or false")
        if "wrong_shape" in spec and spec["wrong_shape"] not in WRONG_SHAPE:
            problems.append("'wrong_shape' must be \"invalid\" (the default: not graded, no "
                            "attempt used) or \"incorrect\"")
        if "domain" in spec and spec["domain"] not in DOMAINS:
            problems.append(f"'domain' must be one of {', '.join(sorted(DOMAINS))}")
        problems += check_misconception_shapes(spec, extra=TOLERANCE_KEYS)
        problems += validate_marking(spec, rules=MATRIX_PARTIAL_RULES, up_to=MATRIX_UP_TO)
        for index, item in enumerate(misconception_list(spec), start=1):
            problems += [f"'misconceptions' entry {index}: {problem}"
                         for problem in validate_tolerance(item)]
        return problems

    def misconception_problems(self, spec: Mapping[str, Any],
                               params: Mapping[str, Any]) -> list[str]:
        problems = []
        reference = _expected(spec, params)
        judge = _Judge(spec, params)
        tolerance = Tolerance.from_spec(spec)
        for index, item in enumerate(misconception_list(spec), start=1):
            try:
                target = _expected({**spec, "reference": item.get("answer")}, params)
            except ValueError as exc:
                problems.append(f"'misconceptions' entry {index}: {exc}")
                continue
            if target.shape != reference.shape:
                problems.append(f"'misconceptions' entry {index} is "
                                f"{_shape(*target.shape)}, the reference "
                                f"{_shape(*reference.shape)}")
                continue
            same = judge.matrices_equal(target, reference, tolerance)
            if same:
                problems.append(f"'misconceptions' entry {index} ('{item.get('tag')}') would "
                                f"be graded correct: it equals the reference")
                continue
            written = MatrixAnswer(raw="", canonical="", latex="", rows=tuple(
                tuple(judge.reference_expr(target[i, j]) for j in range(target.cols))
                for i in range(target.rows)))
            relation = judge.relation(written, reference, tolerance)
            for rule in up_to_relations(spec):
                if relation(rule):
                    problems.append(f"'misconceptions' entry {index} ('{item.get('tag')}') "
                                    f"would be graded correct: it equals the reference up to "
                                    f"'{rule}'")
        return problems


class _Judge:
    """Entry-by-entry comparison in one variant: numbers with the tolerance, expressions by
    symbolic equivalence (sampling) when the spec declares variables."""

    def __init__(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> None:
        self.spec = spec
        self.params = params
        self.variables = names_of(spec, "variables")
        self.functions = functions_of(spec)
        self.domain: Domain = "real" if spec.get("domain") == "real" else "positive"

    def reference_expr(self, value: Any) -> Expr:
        """A reference value as an expression the entry comparison reads."""
        return _reference_cell_expr(sympy_text(value), tuple(self.variables),
                                    tuple(sorted(self.functions.items())))

    def same(self, expr: Expr, value: Any, tolerance: Tolerance) -> bool | None:
        """Is the student's entry equal to the reference entry? None: undecided."""
        if not self.variables:
            try:
                target = number_of(value)
            except ValueError:
                return False
            return tolerance.accepts(answer_number(expr, self.params), target)
        rtol, atol = self.spec.get("rtol"), self.spec.get("atol")
        result = compare(expr, self.reference_expr(value), self.variables,
                         functions=self.functions, params=self.params, domain=self.domain,
                         rtol=float(rtol) if rtol is not None else None,
                         atol=float(atol) if atol is not None else None)
        if result.status == "unknown":
            return None
        return result.status == "equal"

    def entries(self, answer: MatrixAnswer, reference: Any,
                tolerance: Tolerance) -> list[list[bool]] | None:
        """Which entries are right (row by row), or None if one could not be decided."""
        out = []
        for i, row in enumerate(answer.rows):
            marks = []
            for j, expr in enumerate(row):
                same = self.same(expr, reference[i, j], tolerance)
                if same is None:
                    return None
                marks.append(same)
            out.append(marks)
        return out

    def relation(self, answer: MatrixAnswer, reference: Any,
                 tolerance: Tolerance) -> Callable[[str], bool]:
        """A test of the relations of ``matrix_relations`` between this answer and
        ``reference`` (same shape), entries compared as :meth:`same` compares them."""

        def same(i: int, j: int, value: Any) -> bool | None:
            return self.same(answer.rows[i][j], value, tolerance)

        numbers: list[float] | None = None
        if not self.variables:
            values = [answer_number(e, self.params) for row in answer.rows for e in row]
            if all(v.is_finite for v in values):
                numbers = [float(v.best()) for v in values]
        return lambda rule: matrix_relation_holds(rule, reference, same, numbers=numbers)

    def matrices_equal(self, a: Any, b: Any, tolerance: Tolerance) -> bool:
        """Two reference matrices of one shape equal entry by entry."""
        for i in range(a.rows):
            for j in range(a.cols):
                expr = self.reference_expr(a[i, j])
                if not self.same(expr, b[i, j], tolerance):
                    return False
        return True

    def hint(self, answer: MatrixAnswer, reference: Any, tolerance: Tolerance,
             wrong: Sequence[tuple[int, int]]) -> str:
        """Which entries are wrong, and whether the whole matrix is the transpose, the
        negative or a constant multiple of the key."""
        rows, cols = reference.shape
        if rows == cols and rows > 1 and reference != reference.T:
            flipped = self.entries(answer, reference.T, tolerance)
            if flipped is not None and all(all(r) for r in flipped):
                return "Your matrix is the transpose of the expected one."
        if not self.variables:
            factor = self._factor(answer, reference, tolerance)
            if factor is not None:
                return factor
        where = ", ".join(f"({i}, {j})" for i, j in wrong[:12])
        more = "" if len(wrong) <= 12 else f" and {len(wrong) - 12} more"
        noun = "Entry" if len(wrong) == 1 else "Entries"
        verb = "is" if len(wrong) == 1 else "are"
        return f"{noun} {where}{more} (row, column) {verb} not right."

    def _factor(self, answer: MatrixAnswer, reference: Any, tolerance: Tolerance) -> str | None:
        values = [answer_number(e, self.params) for row in answer.rows for e in row]
        try:
            targets = [number_of(v) for v in reference]
        except ValueError:
            return None
        pairs = [(v, t) for v, t in zip(values, targets, strict=True)
                 if v.is_finite and t.is_finite and t.best() != 0]
        if len(pairs) < 1 or len(pairs) != sum(1 for t in targets if t.best() != 0):
            return None
        ratio = pairs[0][0].best() / pairs[0][1].best()
        if ratio == 0 or ratio == 1:
            return None
        if all(tolerance.accepts(Number.of_fraction(t.best() * ratio), v)
               or tolerance.accepts(v, Number.of_fraction(t.best() * ratio))
               for v, t in zip(values, targets, strict=True) if t.is_finite):
            if ratio == -1:
                return "Check the sign: your matrix is the negative of the expected one."
            return "Your matrix is off by a constant factor (every entry is scaled alike)."
        return None
