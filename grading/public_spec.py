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
    return shown


def _vector_length(spec: Mapping[str, Any], params: Mapping[str, Any]) -> int | None:
    reference = spec.get("reference")
    if isinstance(reference, list):
        return len(reference)
    try:
        return len(reference_numbers(reference, params))
    except Exception:  # a length we cannot compute is simply not shown
        return None
