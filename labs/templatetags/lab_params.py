"""`{{ params|lab_params:schema }}`: a lab run's parameters as labelled items (see
labs.param_display); the schema is the lab's `param_schema`."""

from typing import Any

from django import template

from labs.param_display import ParamItem, param_items

register = template.Library()


@register.filter(name="lab_params")
def lab_params(params: Any, schema: Any) -> list[ParamItem]:
    """The parameters in the schema's order, each with its label."""
    return param_items(params if isinstance(params, dict) else {},
                       schema if isinstance(schema, dict) else {})
