"""The operations guide says what the code does, once (issue 38, item 8): it used to say both
that the clone refuses a host re-resolved after the check (DNS rebinding) and that this was a
known gap; `tests/courses/test_git_clone.py` shows the code refuses it."""

import re
from pathlib import Path

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "operations.md"


def _sentences_on_rebinding() -> list[str]:
    text = " ".join(GUIDE.read_text().split())
    return [sentence for sentence in re.split(r"(?<=[.;|])\s", text) if "rebinding" in sentence.lower()]


def test_dns_rebinding_is_described_once_as_refused() -> None:
    sentences = _sentences_on_rebinding()

    assert len(sentences) == 1, sentences
    assert "refused" in sentences[0], sentences[0]


def test_the_guide_names_no_rebinding_gap() -> None:
    text = " ".join(GUIDE.read_text().split()).lower()

    assert "not prevented" not in text
    assert "known gap" not in text
