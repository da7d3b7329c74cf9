"""The parameter form of a lab, built from its schema; the service does the validation.

Fields carry the schema's label (with the parameter's name when the label does not say it,
so that the form and the results use the same word), help, default and bounds (as HTML
attributes, so a browser can help), but every value is collected as text:
`labs.services.lab_run_request` validates and its `LabParamsInvalid` errors are put back on
the fields.
"""

from typing import Any

from django import forms

from labs.param_display import field_label
from labs.services import LabParamsInvalid


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _hint(spec: dict[str, Any]) -> str:
    kind = spec["type"]
    if kind in ("int", "float"):
        what = "a whole number" if kind == "int" else "a number"
        return f"{what} from {_number(spec['min'])} to {_number(spec['max'])}"
    if kind == "float_list":
        if "length" in spec:
            count = f"{spec['length']} numbers"
        else:
            count = f"{spec.get('min_length', 1)} to {spec.get('max_length', '')} numbers"
        return (f"{count}, separated by commas, each from {_number(spec['min'])} "
                f"to {_number(spec['max'])}")
    return ""


class LabParamsForm(forms.Form):
    """One field per schema parameter; empty means the default."""

    def __init__(self, schema: dict[str, Any], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.schema = schema
        for name, spec in schema.items():
            default = spec["default"]
            hint = _hint(spec)
            help_text = " ".join(x for x in (spec.get("help", ""),
                                             hint[:1].upper() + hint[1:] + "." if hint else "")
                                 if x)
            attrs: dict[str, Any] = {}
            field: forms.Field
            if spec["type"] == "choice":
                field = forms.ChoiceField(choices=[(o, o) for o in spec["options"]],
                                          required=False)
            elif spec["type"] in ("int", "float"):
                attrs = {"inputmode": "numeric" if spec["type"] == "int" else "decimal",
                         "type": "number", "min": _number(spec["min"]),
                         "max": _number(spec["max"]),
                         "step": "1" if spec["type"] == "int" else "any"}
                field = forms.CharField(required=False, widget=forms.TextInput(attrs=attrs))
            else:
                default = ", ".join(_number(v) for v in default)
                field = forms.CharField(required=False, widget=forms.TextInput(
                    attrs={"inputmode": "decimal", "spellcheck": "false"}))
            field.label = field_label(name, spec)
            field.help_text = help_text
            field.initial = _number(default) if not isinstance(default, str) else default
            self.fields[name] = field

    def params(self) -> dict[str, Any]:
        """The submitted values as text (empty ones left out: the lab uses its default)."""
        return {name: value for name, value in self.cleaned_data.items() if value not in ("", None)}

    def add_lab_errors(self, error: LabParamsInvalid) -> None:
        """Put the service's messages on their fields (or on the form as a whole)."""
        for name, message in error.errors.items():
            self.add_error(name if name in self.fields else None, message)
