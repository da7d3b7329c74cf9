"""Personal data each app holds, registered by the app itself: how to export it and erase it.

A data-protection request (GDPR, FERPA) for one person is answered by asking every
registered source: `export(user)` returns what the app holds about them (JSON-ready), and
`erase(user, pseudonym)` removes or anonymises it so class statistics still add up. Apps
register in their AppConfig.ready() (or hooks.py), so the tool that answers requests never
needs to know the apps, and a new app with personal data adds one registration.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: (the person) -> JSON-ready data about them.
Exporter = Callable[[Any], Any]
#: (the person, their stable pseudonym) -> how many rows were changed or removed.
Eraser = Callable[[Any, str], int]


@dataclass(frozen=True)
class PersonalDataSource:
    """One kind of personal data: `name` titles it in exports; lower `order` erases first
    (the account itself comes last, so the others can still find the person's rows)."""

    name: str
    export: Exporter
    erase: Eraser
    order: int = 100


_SOURCES: dict[str, PersonalDataSource] = {}


def personal_data_register(source: PersonalDataSource) -> None:
    """Add (or replace, by name) a source of personal data."""
    _SOURCES[source.name] = source


def personal_data_sources() -> list[PersonalDataSource]:
    """Every registered source, in erasure order (then by name)."""
    return sorted(_SOURCES.values(), key=lambda source: (source.order, source.name))
