"""The one HTML sanitiser: every piece of HTML built from text (content, feedback, maths) ends here.

An allowlist of elements, attributes and URL schemes, applied by `nh3` (the Python binding of
the Rust crate ammonia, an HTML5 parser-based sanitiser): anything not listed is dropped, so
no script, no event handler, no style, no `javascript:`/`data:`/`vbscript:` URL however it is
spelt (entities, mixed case, whitespace) survives. MathML passes through the same allowlist:
its elements and presentation attributes, never `href` or anything that links or scripts.
"""

from typing import Final

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

#: MathML presentation attributes (never `href`, `xlink:href`, `style` or an event handler).
MATHML_ATTRIBUTES: Final = frozenset({
    "xmlns", "display", "displaystyle", "scriptlevel", "mathvariant", "stretchy", "fence",
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


def sanitize_html(html: str) -> str:
    """`html` with only allowlisted elements, attributes and URL schemes left.

    Never raises; links get `rel="noopener noreferrer"`, comments are removed, and text is
    kept (a disallowed element is unwrapped, except those in DROPPED_WITH_CONTENT).
    """
    return nh3.clean(
        html,
        tags=set(HTML_TAGS | MATHML_TAGS),
        clean_content_tags=set(DROPPED_WITH_CONTENT),
        attributes=_ATTRIBUTES,
        url_schemes=set(URL_SCHEMES),
        allowed_classes={tag: set(names) for tag, names in CLASSES.items()},
        strip_comments=True,
        link_rel="noopener noreferrer",
    )
