"""Lab parameters as people read them: each parameter's label as the lab's author wrote it in
its schema (never the raw name, `sigmas` or `word_a`, which only the API uses), and its value
as text, never a Python dict."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ParamItem:
    name: str
    label: str
    value: str


def field_label(name: str, spec: Mapping[str, Any]) -> str:
    """A form field's label: the schema's label as its author wrote it (the parameter's name
    only when the schema gives none), the same words as the run's page uses."""
    return str(spec.get("label") or name)


def value_text(value: Any) -> str:
    """0.5, 40, "cat", 0.5, 1, 1.5 (a list as its items, comma separated)."""
    if isinstance(value, list | tuple):
        return ", ".join(value_text(v) for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def param_items(params: Mapping[str, Any] | None,
                schema: Mapping[str, Any] | None) -> list[ParamItem]:
    """The run's parameters in the schema's order (unknown names last, sorted)."""
    params = params or {}
    schema = schema or {}
    names = [n for n in schema if n in params] + sorted(n for n in params if n not in schema)
    items = []
    for name in names:
        spec = schema.get(name)
        label = str(spec.get("label") or name) if isinstance(spec, Mapping) else str(name)
        items.append(ParamItem(name=str(name), label=label, value=value_text(params[name])))
    return items
