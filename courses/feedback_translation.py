"""Checker feedback in the page's language: the checkers are pure and write English (their
messages marked with `gettext_noop`, so they are in the catalogue), the verdict stores that
text, and the page translates it as it shows it.

Each sentence of the stored text is looked up whole (`gettext`), else matched against the
catalogue's messages with named placeholders ("unknown name '%(name)s' at character
%(pos)s: did you mean '%(close)s'?"): the values are read back from the text, translated in
turn when they are messages themselves, and put into the translation. Text that is no
message of the catalogue (an author's feedback, a student's answer) is shown as stored.
"""

import re
from functools import lru_cache

from django.utils.translation import get_language, gettext
from django.utils.translation.trans_real import translation

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")
#: A sentence ends at . ! or ? followed by a space and a capital letter or a quote.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z'\"(])")
#: Messages with fewer literal letters than this are too general to match stored text.
_MIN_LETTERS = 12


def _pattern(msgid: str) -> re.Pattern[str] | None:
    pieces = _PLACEHOLDER.split(msgid)
    literal = "".join(pieces[0::2])
    if sum(ch.isalpha() for ch in literal) < _MIN_LETTERS:
        return None
    regex, names = [], set()
    for index, piece in enumerate(pieces):
        if index % 2 == 0:
            regex.append(re.escape(piece.replace("%%", "%")))
        elif piece in names:
            regex.append(f"(?P={piece})")
        else:
            names.add(piece)
            regex.append(f"(?P<{piece}>.+?)")
    return re.compile("".join(regex), re.DOTALL)


@lru_cache(maxsize=8)
def _patterns(language: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """The catalogue's messages with placeholders, as patterns, with their translations."""
    catalogue = translation(language)._catalog  # type: ignore[attr-defined]
    found = []
    for msgid in catalogue.keys():  # noqa: SIM118 (a TranslationCatalog, not a dict)
        if not isinstance(msgid, str) or "%(" not in msgid:
            continue
        pattern = _pattern(msgid)
        if pattern is not None:
            found.append((pattern, msgid))
    found.sort(key=lambda pair: -len(pair[1]))  # the most specific message first
    return tuple(found)


def _sentence(text: str, language: str, depth: int) -> str:
    translated = gettext(text)
    if translated != text or depth > 2:
        return translated
    for pattern, msgid in _patterns(language):
        match = pattern.fullmatch(text)
        if match:
            values = {name: _sentence(value, language, depth + 1)
                      for name, value in match.groupdict().items()}
            return gettext(msgid) % values
    return text


@lru_cache(maxsize=4096)
def _translated(text: str, language: str) -> tuple[tuple[str, bool], ...]:
    pieces = []
    for sentence in _SENTENCE_END.split(text):
        shown = _sentence(sentence, language, 0)
        pieces.append((shown, shown != sentence))
    return tuple(pieces)


def feedback_pieces(text: str) -> tuple[tuple[str, bool], ...]:
    """`text` (feedback as stored, in English) in the active language, sentence by sentence:
    each sentence with whether it is the interface's (a message of the catalogue, translated)
    or stored text shown as it is (an author's feedback, a quoted answer)."""
    language = get_language() or "en"
    if not text:
        return ()
    if language == "en":
        return ((text, True),)
    return _translated(text, language)


def feedback_translated(text: str) -> str:
    """`feedback_pieces` joined: the feedback as the page shows it."""
    return " ".join(piece for piece, _ in feedback_pieces(text))
