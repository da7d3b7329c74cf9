"""Text of a Moodle XML element: its HTML sanitised, its maths delimiters the service's own."""

import re
from xml.etree.ElementTree import Element

from courses.sanitizer import sanitize_html

_INLINE_MATHS = re.compile(r"\\\((.+?)\\\)", re.DOTALL)
_DISPLAY_MATHS = re.compile(r"\\\[(.+?)\\\]", re.DOTALL)
_MOODLE_FILE = re.compile(r"@@PLUGINFILE@@")
_FILE_IMAGE = re.compile(r"<img\b[^>]*@@PLUGINFILE@@[^>]*>", re.IGNORECASE)
_ALT = re.compile(r"""\balt\s*=\s*["']([^"']*)["']""", re.IGNORECASE)
_TAGS = re.compile(r"<[^>]*>")
_SPACES = re.compile(r"\s+")


def child_text(element: Element | None, path: str, default: str = "") -> str:
    """The text of `path` under `element` (Moodle wraps most values in a `<text>`)."""
    if element is None:
        return default
    found = element.find(path)
    if found is None:
        return default
    inner = found.find("text")
    value = (inner.text if inner is not None else found.text) or ""
    return value.strip()


def html_to_content(html: str) -> tuple[str, list[str]]:
    """Sanitised HTML with `\\(..\\)` as `$..$` and `\\[..\\]` as `$$..$$`, and the changes made.

    Moodle's own files (`@@PLUGINFILE@@`) are not carried yet: reported as a change.
    """
    changes: list[str] = []
    if _MOODLE_FILE.search(html):
        changes.append("an embedded image or file was left out, an image replaced by "
                       "[image: its alt text] (files are not imported yet)")
    html = _FILE_IMAGE.sub(lambda m: f"[image: {alt.group(1)}]" if (alt := _ALT.search(m.group(0)))
                           else "[image]", html)
    text = _DISPLAY_MATHS.sub(lambda m: f"\n\n$${m.group(1).strip()}$$\n\n", html)
    text = _INLINE_MATHS.sub(lambda m: f"${m.group(1).strip()}$", text)
    clean = sanitize_html(text).replace("@@PLUGINFILE@@/", "")  # links to files: names only
    if _TAGS.sub("", clean).strip() != _TAGS.sub("", text).strip() and \
            len(clean) < len(text) - len(text) // 10:
        changes.append("HTML the service does not allow (scripts, styles, forms) was removed")
    return clean.strip(), changes


def plain(html: str) -> str:
    """`html` as one line of plain text (for titles and choice labels)."""
    return _SPACES.sub(" ", _TAGS.sub(" ", html)).strip()
