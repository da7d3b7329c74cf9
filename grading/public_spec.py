"""What a student may see of a part's spec: a whitelist, never the answer key."""

from collections.abc import Mapping
from typing import Any

from grading.checkers.refs import reference_numbers

PUBLIC_SPEC_KEYS = (
    "type", "points", "variables", "functions", "domain", "multiple", "partial",
    "rtol", "atol", "sigfigs", "decimals", "decades", "written_sigfigs", "written_decimals",
    "allow_infinity", "lab",
    # what the answer must look like (forms.py, marking_rules.py): the student is told
    "form", "required_functions", "forbidden_functions", "forbidden_operators",
    "rename_variables", "equivalent_up_to",
    # how sets, lists, equations and strings are compared (never their keys or patterns)
    "reduced", "ordered", "duplicates", "system", "case_sensitive", "whitespace",
    "max_distance",
    # matrices, quantities, complex numbers: how to write the answer
    "wrong_shape", "unit_mode", "unit_match", "declare_units", "imaginary_unit",
    # notation and comparisons (notation.py), matching grids' rows and options, empty answers
    "notation", "max_decimals", "forbidden_strings", "required_strings", "comparison",
    "rows", "columns", "distinct", "allow_empty", "latex", "delimiter", "inequality_variable",
    "reversed_brackets", "set_answers",
)


def public_spec(spec: Mapping[str, Any], params: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """What a student may see of a part's spec: a whitelist (answer type, tolerances, the
    names they may use, choice options as key and text, a vector's length), never the
    reference, misconceptions, rubric, model answer or correct choices."""
    shown = {key: spec[key] for key in PUBLIC_SPEC_KEYS if key in spec}
    if isinstance(spec.get("options"), list):
        shown["options"] = [{"key": str(o.get("key", "")), "text": str(o.get("text", ""))}
                            for o in spec["options"] if isinstance(o, Mapping)]
    if spec.get("type") == "vector":
        shown["length"] = _vector_length(spec, params or {})
    if spec.get("type") == "matrix":
        shown["shape"] = matrix_shape(spec, params or {})
    if spec.get("unit_mode") in ("optional", "forbidden"):
        shown["unit"] = spec.get("unit", spec.get("units"))  # the form shows the unit given
    return shown


def matrix_shape(spec: Mapping[str, Any], params: Mapping[str, Any]) -> list[int] | None:
    """[rows, columns] of a matrix part's key in this variant (the grid the form shows), or
    None when it cannot be computed. The shape is not secret: a wrong one is refused."""
    from grading.checkers.base import functions_of, names_of
    from grading.checkers.matrix import reference_matrix

    try:
        matrix = reference_matrix(spec.get("reference"), params,
                                  variables=names_of(spec, "variables"),
                                  functions=functions_of(spec))
    except Exception:  # a shape we cannot compute is simply not shown
        return None
    return [int(matrix.rows), int(matrix.cols)]


def _vector_length(spec: Mapping[str, Any], params: Mapping[str, Any]) -> int | None:
    reference = spec.get("reference")
    if isinstance(reference, list):
        return len(reference)
    try:
        return len(reference_numbers(reference, params))
    except Exception:  # a length we cannot compute is simply not shown
        return None
