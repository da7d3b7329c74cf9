"""Checks of an assessment file's integrity settings at sync: `networks` (CIDR ranges such as
"192.0.2.0/24" or "2001:db8::/48") and `seb_config_keys` (Safe Exam Browser Config Keys, 64
hexadecimal characters each), each problem a `file:line: reason`."""

import ipaddress
import re

from courses.content_files import ContentError, SourceFile

#: At most this many ranges or keys in one file.
MAX_ENTRIES = 50
_HEX64 = re.compile(r"^[0-9a-fA-F]{64}$")


def _network_problem(value: object) -> str | None:
    if not isinstance(value, str):
        return f"'{value!s:.40}' must be a string such as \"192.0.2.0/24\""
    try:
        ipaddress.ip_network(value.strip(), strict=True)
    except ValueError as exc:
        return f"'{value:.60}' is not a network range ({exc})"
    return None


def _key_problem(value: object) -> str | None:
    if not isinstance(value, str) or not _HEX64.match(value.strip()):
        return (f"'{value!s:.70}' is not a Safe Exam Browser Config Key (64 hexadecimal "
                "characters, as SEB's configuration tool shows it)")
    return None


def integrity_problems(source: SourceFile) -> list[ContentError]:
    """Problems of the file's `networks` and `seb_config_keys` lists (absent: none)."""
    errors = []
    for name, problem_of in (("networks", _network_problem),
                             ("seb_config_keys", _key_problem)):
        values = source.data.get(name)
        if not isinstance(values, list):
            continue  # absent, or its type is reported with the other fields
        where = source.line_of(name)
        if len(values) > MAX_ENTRIES:
            errors.append(ContentError(source.display_path, where,
                                       f"'{name}' lists more than {MAX_ENTRIES} entries"))
        for value in values:
            problem = problem_of(value)
            if problem:
                errors.append(ContentError(source.display_path, where, f"{name}: {problem}"))
    return errors
