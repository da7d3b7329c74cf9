"""Reading the refusal page of a kept form (core/kept_forms.py) as a browser would: the form's
action and the fields it would send, so that a test resends exactly what the page holds."""

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class KeptFormPage:
    """The form of a refusal page: where it posts and the fields it sends."""

    action: str = ""
    fields: dict[str, str] = field(default_factory=dict)


class _FormReader(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.page = KeptFormPage()
        self._in_form = False
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "form" and "kept-form" in (named.get("class") or "").split():
            self._in_form = True
            self.page.action = named.get("action") or ""
        elif self._in_form and tag == "input" and named.get("name"):
            self.page.fields[str(named["name"])] = named.get("value") or ""
        elif self._in_form and tag == "textarea" and named.get("name"):
            self._textarea = str(named["name"])
            self.page.fields[self._textarea] = ""

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self.page.fields[self._textarea] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "textarea":
            self._textarea = None
        elif tag == "form":
            self._in_form = False


def kept_form(html: str) -> KeptFormPage:
    """The kept form of a refusal page (empty action and fields when it holds none)."""
    reader = _FormReader()
    reader.feed(html)
    return reader.page
