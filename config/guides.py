"""/docs/: the guides of docs/ served by the service itself (the same pages `mkdocs build`
makes a site of), so the footer's link works on any installation, offline.

Pages are the repository's own Markdown files, rendered once per process; a page name is
looked up among docs/*.md, never used as a path.
"""

import re
from functools import lru_cache
from pathlib import Path

import markdown
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from courses.sanitizer import sanitize_html

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
_SNIPPET = re.compile(r'^--8<-- "([^"]+)"$', re.MULTILINE)
_LOCAL_LINK = re.compile(r'href="([a-z0-9-]+)\.md(#[^"]*)?"')
_TITLE = re.compile(r"^# (.+)$", re.MULTILINE)


def guide_pages() -> dict[str, Path]:
    """The guides by name (file name without `.md`)."""
    return {path.stem: path for path in sorted(DOCS.glob("*.md"))}


def _source(path: Path) -> str:
    # mkdocs' snippets (`--8<-- "grading/checkers/README.md"`): a page made of a file of the
    # repository. The names come from docs/ itself, never from a request.
    return _SNIPPET.sub(lambda m: (ROOT / m.group(1)).read_text(), path.read_text())


@lru_cache(maxsize=64)
def guide_render(name: str) -> tuple[str, str] | None:
    """(title, sanitised HTML) of guide `name`; links to other guides point at their pages.
    None for a name that is not a guide."""
    path = guide_pages().get(name)
    if path is None:
        return None
    text = _source(path)
    title_match = _TITLE.search(text)
    body = markdown.markdown(text, extensions=["extra", "sane_lists", "toc"],
                             extension_configs={"extra": {"tables": {"use_align_attribute": True}}},
                             output_format="html")
    body = _LOCAL_LINK.sub(lambda m: f'href="{m.group(1)}.html{m.group(2) or ""}"', body)
    # A code block wider than the page scrolls sideways: focusable, so the keyboard can scroll it.
    body = sanitize_html(body).replace("<pre>", '<pre tabindex="0">')
    return (title_match.group(1) if title_match else name), body


@require_safe
def guide(request: HttpRequest, name: str = "index") -> HttpResponse:
    """One guide, with the list of all of them."""
    names = guide_pages()
    # Checked before rendering, so that unknown names do not fill guide_render's cache.
    rendered = guide_render(name) if name in names else None
    if rendered is None:
        raise Http404("No such guide.")
    title, body = rendered
    pages = [(page, shown[0]) for page in names if (shown := guide_render(page))]
    return render(request, "guides.html", {"title": title, "body": body, "pages": pages,
                                           "current": name})
