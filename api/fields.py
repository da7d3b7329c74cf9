"""Input fields and URL converters shared by the API: ids bounded to what a database can hold,
booleans that are JSON booleans, text that is JSON strings."""

from typing import Any

from django.urls import register_converter
from rest_framework import serializers

MAX_ID = 2**63 - 1  # BIGINT; larger numbers would overflow the database driver


def id_field(**kwargs: Any) -> serializers.IntegerField:
    """An integer id: positive and no larger than a BIGINT (a bigger one is a 400, not a 500)."""
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


class IdConverter:
    """`<id:name>` in URLs: 1 to 18 digits, so a path never carries an id the database rejects."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")


class StrictBooleanField(serializers.BooleanField):
    """A JSON boolean, `true` or `false` only, as the schema says (`type: boolean`); DRF's
    BooleanField also took 1, 0, "yes", "on" and the like."""

    def to_internal_value(self, data: Any) -> bool:
        if isinstance(data, bool):
            return data
        self.fail("invalid", input=data)


class BodySerializer(serializers.Serializer):
    """The serializer of a JSON request body: its text fields take JSON strings only, as the
    schema says (`type: string`); DRF's CharField turned a number (`"answer": 0`) into "0"."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            wrong = {name: ["A string is required."] for name, field in self.fields.items()
                     if isinstance(field, serializers.CharField) and not field.read_only
                     and data.get(name) is not None and not isinstance(data[name], str)}
            if wrong:
                raise serializers.ValidationError(wrong)
        return super().to_internal_value(data)
