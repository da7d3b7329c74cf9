"""The one HTML sanitiser: every piece of HTML built from text (content, feedback, maths) ends here.

An allowlist of elements, attributes and URL schemes, applied by `nh3` (the Python binding of
the Rust crate ammonia, an HTML5 parser-based sanitiser): anything not listed is dropped, so
no script, no event handler, no style, no `javascript:`/`data:`/`vbscript:` URL however it is
spelt (entities, mixed case, whitespace) survives. MathML passes through the same allowlist:
its elements and presentation attributes, never `href` or anything that links or scripts.

Images load from this site only: an `img` whose `src` names another host (an absolute or
protocol-relative URL, however it is spelt) loses its `src`, so a comment or feedback cannot
carry a tracking pixel (the Content-Security-Policy's `img-src 'self'` would block it anyway).
Links get `rel="nofollow noopener noreferrer"`.
"""

import re
from typing import Final
from urllib.parse import urlsplit

import nh3

#: HTML that Markdown (with the "extra" extensions) writes for prose, tables and lists.
HTML_TAGS: Final = frozenset({
    "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "em", "strong", "b", "i", "u", "s",
    "del", "ins", "small", "sub", "sup", "code", "kbd", "pre", "blockquote", "ul", "ol", "li",
    "dl", "dt", "dd", "a", "img", "abbr", "table", "caption", "thead", "tbody", "tfoot", "tr",
    "th", "td", "div", "span",
})

#: MathML that latex2mathml writes and browsers draw; nothing that links, scripts or styles
#: (no `maction`, no `annotation-xml`, which may hold HTML).
MATHML_TAGS: Final = frozenset({
    "math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msup", "msub", "msubsup",
    "mfrac", "msqrt", "mroot", "mstyle", "mtable", "mtr", "mtd", "mlabeledtr", "munder",
    "mover", "munderover", "mpadded", "mphantom", "menclose", "merror", "mmultiscripts",
    "mprescripts", "none", "semantics", "annotation",
})

#: MathML presentation attributes (never `href`, `xlink:href`, `style` or an event handler),
#: and `alttext` (plain text: the formula's text alternative, WCAG 1.1.1).
MATHML_ATTRIBUTES: Final = frozenset({
    "alttext", "xmlns", "display", "displaystyle", "scriptlevel", "mathvariant", "stretchy", "fence",
    "separator", "form", "lspace", "rspace", "accent", "accentunder", "largeop",
    "movablelimits", "symmetric", "minsize", "maxsize", "linethickness", "width", "height",
    "depth", "voffset", "linebreak", "notation", "columnalign", "rowalign", "columnspacing",
    "rowspacing", "columnlines", "rowlines", "frame", "encoding", "open", "close",
})

#: Attributes per HTML element; URLs among them are checked against URL_SCHEMES.
HTML_ATTRIBUTES: Final = {
    "a": {"href", "title"},
    "img": {"src", "alt", "title", "width", "height"},
    "abbr": {"title"},
    "ol": {"start"},
    "th": {"align", "colspan", "rowspan", "scope"},
    "td": {"align", "colspan", "rowspan"},
}

#: Schemes a link or image may use; relative URLs (`#part-3`, `/courses/...`) are kept.
URL_SCHEMES: Final = frozenset({"http", "https", "mailto"})

#: Classes our own renderer sets (display maths, a formula shown as its source).
CLASSES: Final = {"div": {"math-display"}, "code": {"math-source"}, "span": {"math-source"}}

#: Elements removed together with everything inside them (not unwrapped into text).
DROPPED_WITH_CONTENT: Final = frozenset({"script", "style", "template", "noscript", "iframe",
                                         "object", "embed", "textarea", "title"})

_ATTRIBUTES: Final = {
    **{tag: set(names) for tag, names in HTML_ATTRIBUTES.items()},
    **{tag: set(MATHML_ATTRIBUTES) for tag in MATHML_TAGS},
}


#: What browsers drop from a URL before reading it (tabs and newlines anywhere).
_IGNORED_IN_URLS: Final = re.compile(r"[\t\n\r]")


def same_site_url(url: str) -> str | None:
    """`url` as a browser reads it if it stays on this site (a path or a fragment), else None:
    no scheme, no host, no `//` or backslash that a browser would read as another host."""
    cleaned = _IGNORED_IN_URLS.sub("", url).strip("\x00\x01\x02\x03\x04\x05\x06\x07\x08"
                                                "\x0b\x0c\x0e\x0f\x10\x11\x12\x13\x14"
                                                "\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d"
                                                "\x1e\x1f ")
    if "\\" in cleaned or cleaned.startswith("//"):
        return None
    parts = urlsplit(cleaned)
    if parts.scheme or parts.netloc:
        return None
    return cleaned


def _attribute_filter(tag: str, attribute: str, value: str) -> str | None:
    if tag == "img" and attribute == "src":
        return same_site_url(value)
    return value


def sanitize_html(html: str) -> str:
    """`html` with only allowlisted elements, attributes and URL schemes left.

    Never raises; links get `rel="nofollow noopener noreferrer"`, images from other hosts
    lose their `src`, comments are removed, and text is kept (a disallowed element is
    unwrapped, except those in DROPPED_WITH_CONTENT).
    """
    return nh3.clean(
        html,
        tags=set(HTML_TAGS | MATHML_TAGS),
        clean_content_tags=set(DROPPED_WITH_CONTENT),
        attributes=_ATTRIBUTES,
        url_schemes=set(URL_SCHEMES),
        allowed_classes={tag: set(names) for tag, names in CLASSES.items()},
        strip_comments=True,
        link_rel="nofollow noopener noreferrer",
        attribute_filter=_attribute_filter,
    )
