"""Lab parameters as people read them: each parameter's label from the lab's schema with its
name (the name the results and the API use), and its value as text, never a Python dict."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ParamItem:
    name: str
    label: str
    value: str

    @property
    def label_has_name(self) -> bool:
        return self.label == self.name or names_in_label(self.name, self.label)


def names_in_label(name: str, label: str) -> bool:
    """Whether `label` already says `name` (case and underscores aside): "Steps" says steps."""
    return name.replace("_", " ").lower() in label.replace("_", " ").lower()


def field_label(name: str, spec: Mapping[str, Any]) -> str:
    """A form field's label: the schema's label, followed by the parameter's name when the
    label does not say it ("Score scale (length of v) · sharpness"), so that the form, the
    run's page and its results use the same word."""
    label = str(spec.get("label") or name)
    return label if names_in_label(name, label) else f"{label} · {name}"


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
