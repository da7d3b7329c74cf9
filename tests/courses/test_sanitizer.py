"""The one sanitiser: every payload of the corpus, through every way text becomes HTML, leaves
nothing a browser would run; ordinary Markdown, links and maths survive."""

import re

import pytest
from django.template import Context, Template

from courses.rendering import latex_to_html, render_inline_markdown, render_markdown
from courses.sanitizer import same_site_url, sanitize_html
from tests.xss import PAYLOADS, executable_markup

FILTERS = ["markdown", "feedback", "inline_markdown", "inline_feedback"]


def test_the_checker_finds_what_each_payload_would_run_unsanitised():
    """The corpus is live: without the sanitiser, Markdown alone turns these into markup."""
    import markdown

    raw = [p for p in PAYLOADS if executable_markup(markdown.markdown(p, extensions=["extra"]))]
    assert len(raw) >= len(PAYLOADS) * 2 // 3


@pytest.mark.parametrize("payload", PAYLOADS)
def test_sanitize_html_leaves_nothing_executable(payload):
    assert executable_markup(sanitize_html(payload)) == []


@pytest.mark.parametrize("escape_html", [False, True])
@pytest.mark.parametrize("payload", PAYLOADS)
def test_markdown_of_a_payload_leaves_nothing_executable(payload, escape_html):
    for text in (payload, f"Good. {payload} Try again.", f"- {payload}\n- b", f"> {payload}"):
        assert executable_markup(render_markdown(text, escape_html=escape_html)) == []
        assert executable_markup(render_inline_markdown(text, escape_html=escape_html)) == []


@pytest.mark.parametrize("payload", PAYLOADS)
def test_every_template_filter_leaves_nothing_executable(payload):
    for name in FILTERS:
        html = Template("{% load content %}{{ text|" + name + " }}").render(Context({"text": payload}))
        assert executable_markup(html) == [], name


@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_formula_holding_a_payload_leaves_nothing_executable(payload):
    for display in (False, True):
        assert executable_markup(latex_to_html(payload, display=display)) == []


@pytest.mark.parametrize("link", [
    "[x](javascript:alert(1))", "[x](JAVASCRIPT:alert(1))", "[x](&#106;avascript:alert(1))",
    "[x](data:text/html,hi)", "[x](vbscript:msgbox(1))",
])
def test_a_link_with_a_running_scheme_loses_its_href_but_keeps_its_text(link):
    html = render_markdown(link)
    assert "href" not in html and ">x</a>" in html


def test_ordinary_links_lists_tables_and_maths_survive():
    html = render_markdown(
        "See [the paper](https://arxiv.org/abs/1409.0473) and [part 3](#part-3).\n\n"
        "- **one** and *two*\n- `code`\n\n| a | b |\n|:--|--:|\n| 1 | 2 |\n\n"
        r"$\sigma_{\max}^{40}$ and $$\frac{a}{b}$$")
    assert 'href="https://arxiv.org/abs/1409.0473"' in html and 'href="#part-3"' in html
    assert "<strong>one</strong>" in html and "<code>code</code>" in html
    assert '<td align="right">2</td>' in html
    assert "<msubsup>" in html and "<mfrac>" in html and 'class="math-display"' in html


def test_mathml_keeps_its_presentation_attributes_and_loses_links():
    html = sanitize_html('<math display="block"><mi mathvariant="normal">x</mi>'
                         '<mo stretchy="false" href="javascript:alert(1)">(</mo></math>')
    assert 'display="block"' in html and 'mathvariant="normal"' in html
    assert 'stretchy="false"' in html and "href" not in html


def test_the_filters_render_nothing_for_none():
    for name in FILTERS:
        assert Template("{% load content %}{{ text|" + name + " }}").render(
            Context({"text": None})).strip() == ""


@pytest.mark.parametrize("source", [
    "https://tracker.example/p.gif", "HTTPS://tracker.example/p.gif", "//tracker.example/p.gif",
    "/\\tracker.example/p.gif", " //tracker.example/p.gif", "/\t/tracker.example/p.gif",
    "http:/tracker.example/p.gif",
])
@pytest.mark.parametrize("escape_html", [False, True])
def test_images_from_other_hosts_are_not_rendered(source, escape_html):
    html = render_markdown(f"Seen. ![pixel]({source})", escape_html=escape_html)
    raw = sanitize_html(f'<img src="{source}" alt="pixel">')

    assert "src=" not in raw, raw
    # Markdown may rewrite the URL first (a tab becomes spaces: then it is a path here).
    for src in re.findall(r'src="([^"]*)"', html):
        assert same_site_url(src) == src, html


def test_images_of_this_site_and_links_with_nofollow_noopener_are_kept():
    html = render_markdown("![plot](/static/plot.svg) and [notes](https://notes.example/a)")

    assert 'src="/static/plot.svg"' in html
    assert 'href="https://notes.example/a"' in html
    assert 'rel="nofollow noopener noreferrer"' in html
