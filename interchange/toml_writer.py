"""Writing content files as the guides spell them (`[[parts]]` tables, nested tables under them).

Only what the importer produces is supported: strings, whole and decimal numbers, booleans,
lists of those or of small tables (written inline), and tables of those.
"""

import json
import math
from typing import Any


def value(item: Any) -> str:
    """One TOML value."""
    if isinstance(item, bool):
        return "true" if item else "false"
    if isinstance(item, int):
        return str(item)
    if isinstance(item, float):
        if not math.isfinite(item):
            raise ValueError("TOML content holds finite numbers only")
        text = repr(item)
        return text if any(c in text for c in ".e") else f"{text}.0"
    if isinstance(item, str):
        return json.dumps(item, ensure_ascii=False)
    if isinstance(item, list):
        return "[" + ", ".join(value(x) for x in item) + "]"
    if isinstance(item, dict):
        return "{ " + ", ".join(f"{_key(k)} = {value(v)}" for k, v in item.items()) + " }"
    raise TypeError(f"cannot write {type(item).__name__} as TOML")


def _key(name: str) -> str:
    return name if name.replace("_", "").replace("-", "").isalnum() and name.isascii() \
        else json.dumps(name)


def _is_table_list(item: Any) -> bool:
    return isinstance(item, list) and bool(item) and all(isinstance(x, dict) for x in item)


def dumps(data: dict[str, Any]) -> str:
    """`data` as TOML: plain keys first, then tables, then arrays of tables (`[[parts]]`)."""
    lines: list[str] = []
    _write(lines, data, "", indent="")
    return "\n".join(lines).rstrip() + "\n"


def _write(lines: list[str], data: dict[str, Any], prefix: str, indent: str) -> None:
    for name, item in data.items():
        if (not isinstance(item, dict) or prefix) and not (_is_table_list(item) and name in _ARRAYS):
            lines.append(f"{indent}{_key(name)} = {value(item)}")
    for name, item in data.items():
        if isinstance(item, dict) and not prefix:
            lines.append("")
            lines.append(f"{indent}[{prefix}{_key(name)}]")
            _write(lines, item, f"{prefix}{_key(name)}.", indent)
    for name, item in data.items():
        if _is_table_list(item) and name in _ARRAYS:
            for entry in item:
                lines.append("")
                lines.append(f"{indent}[[{prefix}{_key(name)}]]")
                _write(lines, entry, f"{prefix}{_key(name)}.", indent + ("  " if prefix else ""))


#: Lists of tables written as `[[...]]` blocks (the others stay inline, e.g. `options`).
_ARRAYS = frozenset({"parts", "misconceptions", "alternatives", "tests"})
