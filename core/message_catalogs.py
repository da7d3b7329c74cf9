"""Translation catalogues without GNU gettext: read a .po file and write its .mo, so that
bin/_env.sh (and the image build) compile `locale/*/LC_MESSAGES/django.po` on a machine with
no `msgfmt`. Pure Python, no Django: `python -m core.message_catalogs [ROOT]` compiles every
catalogue under ROOT/locale whose .mo is missing or older than its .po.

Reads what makemessages writes: `msgctxt`, `msgid`, `msgid_plural`, `msgstr`/`msgstr[n]`,
strings continued over lines, the C escapes, `#,` flags (a fuzzy entry is left out of the
.mo, as msgfmt does) and obsolete `#~` entries (ignored).
"""

import ast
import os
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class PoEntry:
    """One message: its context, id, plural id, translations (one per plural form) and flags."""

    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)

    @property
    def translated(self) -> bool:
        """Every form has a non-empty translation and the entry is not fuzzy."""
        return bool(self.msgstr) and all(self.msgstr) and "fuzzy" not in self.flags


def _unquote(text: str) -> str:
    text = text.strip()
    if not (text.startswith('"') and text.endswith('"')):
        raise ValueError(f"not a quoted string: {text!r}")
    return str(ast.literal_eval(text))


def po_read(path: Path) -> list[PoEntry]:
    """The entries of the .po file at `path`, the header (msgid "") first when present.
    Raises ValueError on a line it cannot read."""
    entries: list[PoEntry] = []
    entry = PoEntry()
    key: str | None = None
    started = False

    def finish() -> None:
        nonlocal entry, key, started
        if started:
            entries.append(entry)
        entry, key, started = PoEntry(), None, False

    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        try:
            if not line or line.startswith("#~"):
                if not line:
                    finish()
                continue
            if line.startswith("#,"):
                if started and key is not None and key != "msgctxt":
                    finish()
                entry.flags |= {flag.strip() for flag in line[2:].split(",")}
            elif line.startswith("#"):
                continue
            elif line.startswith('"'):
                _append(entry, key, _unquote(line))
            else:
                word, _, rest = line.partition(" ")
                if word in ("msgctxt", "msgid") and started and key not in (None, "msgctxt"):
                    finish()
                started = True
                key = word
                _append(entry, key, _unquote(rest), first=True)
        except (ValueError, SyntaxError) as error:
            raise ValueError(f"{path}:{number}: {error}") from None
    finish()
    return entries


def _append(entry: PoEntry, key: str | None, text: str, first: bool = False) -> None:
    if key == "msgid":
        entry.msgid = text if first else entry.msgid + text
    elif key == "msgid_plural":
        entry.msgid_plural = text if first else (entry.msgid_plural or "") + text
    elif key == "msgctxt":
        entry.msgctxt = text if first else (entry.msgctxt or "") + text
    elif key == "msgstr" or (key or "").startswith("msgstr["):
        if first:
            entry.msgstr.append(text)
        else:
            entry.msgstr[-1] += text
    else:
        raise ValueError(f"unexpected {key!r}")


def mo_bytes(entries: list[PoEntry]) -> bytes:
    """The GNU .mo file (little-endian, no hash table) of the translated entries and the
    header; fuzzy and untranslated entries are left out, as msgfmt leaves them."""
    pairs: dict[bytes, bytes] = {}
    for entry in entries:
        if entry.msgid and not entry.translated:
            continue
        if not entry.msgid and "fuzzy" in entry.flags and not entry.msgstr:
            continue
        key = entry.msgid if entry.msgid_plural is None else \
            f"{entry.msgid}\x00{entry.msgid_plural}"
        if entry.msgctxt is not None:
            key = f"{entry.msgctxt}\x04{key}"
        pairs[key.encode()] = "\x00".join(entry.msgstr).encode()
    keys = sorted(pairs)
    header_size = 7 * 4
    ids_offset = header_size
    strs_offset = ids_offset + 8 * len(keys)
    data_offset = strs_offset + 8 * len(keys)
    ids_table: list[tuple[int, int]] = []
    strs_table: list[tuple[int, int]] = []
    data = bytearray()
    for id_bytes in keys:
        ids_table.append((len(id_bytes), data_offset + len(data)))
        data += id_bytes + b"\x00"
    for id_bytes in keys:
        value = pairs[id_bytes]
        strs_table.append((len(value), data_offset + len(data)))
        data += value + b"\x00"
    out = bytearray(struct.pack("<7I", 0x950412DE, 0, len(keys), ids_offset, strs_offset, 0,
                                data_offset))
    for length, offset in ids_table + strs_table:
        out += struct.pack("<2I", length, offset)
    return bytes(out + data)


def catalogs_compile(root: Path) -> list[Path]:
    """Write the .mo beside every .po under `root`/locale that is missing or older than its
    .po; returns the .mo files written."""
    written = []
    for po in sorted((root / "locale").glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        partial = mo.with_name(f".{mo.name}.{os.getpid()}")
        partial.write_bytes(mo_bytes(po_read(po)))
        partial.replace(mo)  # atomic: a process loading the catalogue never reads half a file
        written.append(mo)
    return written


if __name__ == "__main__":
    for written_mo in catalogs_compile(Path(sys.argv[1] if len(sys.argv) > 1 else ".")):
        print(f"· compiled {written_mo}")
