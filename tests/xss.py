"""A corpus of known XSS payloads and a checker that finds executable markup in a page.

The checker parses the HTML (the standard library's tokenizer, which unescapes attribute values
as a browser does) and reports every script element that is not one of our own static files,
every event-handler attribute, every URL attribute whose scheme can run code or carry a page
(`javascript:`, `vbscript:`, `data:`, however it is spelt), every `href` outside an element that
is meant to link (MathML would follow it), styles that call code, and elements that embed or
redirect (iframe, object, embed, base, meta refresh).
"""

import re
from html.parser import HTMLParser

from django.conf import settings

#: Payloads from public XSS cheat sheets and from the issue: Markdown attribute lists and
#: links, raw HTML, MathML (through LaTeX and raw), entity-encoded and mixed-case schemes,
#: styles, mutation XSS. Each is also tried as a name, a comment, an answer, a parameter.
PAYLOADS: list[str] = [
    "![a](x){onerror=alert(1)}",
    "![a](x){: onerror=alert(1) }",
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x](&#106;avascript:alert(1))",
    "[x](&#x6A;&#x61;vascript&#58;alert(1))",
    "[x](javascript&colon;alert(1))",
    "[x](<javascript:alert(1)>)",
    "[x]( javascript:alert(1) )",
    "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "[x](DATA:text/html,<script>alert(1)</script>)",
    "[x](vbscript:msgbox(1))",
    "[x](javascript:alert(1)){: onclick=alert(1) }",
    "[x][r]\n\n[r]: javascript:alert(1)",
    "A paragraph\n{: onmouseover=\"alert(1)\" }",
    "<a href=\"javascript:alert(1)\">x</a>",
    "<a href=\"jav&#x09;ascript:alert(1)\">x</a>",
    "<a href=\"javascript&#0000058alert(1)\">x</a>",
    "<a href=\" &#14; javascript:alert(1)\">x</a>",
    "<svg onload=alert(1)>",
    "<svg><script>alert(1)</script></svg>",
    "<svg><use href=\"data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=#x\"/></svg>",
    "<svg><a xlink:href=\"javascript:alert(1)\"><text>x</text></a></svg>",
    "<img src=x onerror=alert(1)>",
    "<img src=\"x\" onerror=\"alert(1)\"//",
    "<IMG SRC=JaVaScRiPt:alert(1)>",
    "<img src=\"data:text/html,<script>alert(1)</script>\">",
    "<script>alert(1)</script>",
    "<<script>script>alert(1)<</script>/script>",
    "\"><script>alert(1)</script>",
    "'><img src=x onerror=alert(1)>",
    "\" onmouseover=\"alert(1)",
    "' onfocus='alert(1)' autofocus '",
    "<details open ontoggle=alert(1)>",
    "<body onload=alert(1)>",
    "<iframe src=\"javascript:alert(1)\"></iframe>",
    "<object data=\"javascript:alert(1)\"></object>",
    "<embed src=\"javascript:alert(1)\">",
    "<form action=\"javascript:alert(1)\"><button>x</button></form>",
    "<button formaction=\"javascript:alert(1)\">x</button>",
    "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(1)\">",
    "<base href=\"javascript:alert(1)//\">",
    "<p style=\"width: expression(alert(1))\">x</p>",
    "<div style=\"background:url(javascript:alert(1))\">x</div>",
    "<style>@import 'javascript:alert(1)';</style>",
    "<math><mtext href=\"javascript:alert(1)\">x</mtext></math>",
    "<math href=\"javascript:alert(1)\"><mi>x</mi></math>",
    "<math><maction actiontype=\"statusline\" xlink:href=\"javascript:alert(1)\">x</maction></math>",
    "<math><annotation-xml encoding=\"text/html\"><img src=x onerror=alert(1)></annotation-xml></math>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\">",
    "<svg><style><img src=x onerror=alert(1)></style></svg>",
    "$\\text{<img src=x onerror=alert(1)>}$",
    "$$\\text{</math><img src=x onerror=alert(1)>}$$",
    "$\\href{javascript:alert(1)}{x}$",
    "$\\mathrm{<svg onload=alert(1)>}$",
    "$x$<img src=x onerror=alert(1)>$y$",
    "```\n</code><script>alert(1)</script>\n```",
    "<!--><img src=x onerror=alert(1)>-->",
]

_URL_ATTRIBUTES = frozenset({
    "href", "src", "action", "formaction", "xlink:href", "data", "poster", "background",
    "cite", "srcset", "ping", "lowsrc", "dynsrc", "codebase", "manifest", "icon", "longdesc",
})
#: Elements where an href is a link a person follows (anything else, e.g. MathML, is not).
_LINKING = frozenset({"a", "link", "area", "use", "image", "feimage", "textpath"})
_EMBEDDING = frozenset({"iframe", "frame", "frameset", "object", "embed", "applet", "base",
                        "portal", "annotation-xml"})
_RUNNING_SCHEMES = ("javascript:", "vbscript:", "data:", "livescript:", "mocha:")
#: A raster image inside an SVG plot (matplotlib writes them) cannot run code.
_PLAIN_IMAGE = re.compile(r"^data:image/(png|jpeg|gif);base64,", re.IGNORECASE)
_IGNORED_IN_URL = re.compile(r"[\x00-\x20\x7f]+")
_RUNNING_STYLE = re.compile(r"expression\s*\(|javascript:|vbscript:|behavior\s*:|-moz-binding|"
                            r"@import|url\s*\(\s*['\"]?\s*data:", re.IGNORECASE)


def _scheme_runs(value: str) -> bool:
    compact = _IGNORED_IN_URL.sub("", value).lower()
    return compact.startswith(_RUNNING_SCHEMES) and not _PLAIN_IMAGE.match(compact)


class _Finder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self._in: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name.lower(): value or "" for name, value in attrs}
        where = f"<{tag} {' '.join(f'{n}={v!r}' for n, v in names.items())}>"
        if tag == "script":
            src = names.get("src", "")
            if not src.startswith(settings.STATIC_URL):
                self.problems.append(f"script element {where}")
        if tag in ("script", "style"):
            self._in, self._text = tag, []
        if tag in _EMBEDDING:
            self.problems.append(f"embedding element {where}")
        if tag == "meta" and names.get("http-equiv", "").lower() == "refresh":
            self.problems.append(f"meta refresh {where}")
        for name, value in names.items():
            if name.startswith("on"):
                self.problems.append(f"event handler {name} in {where}")
            if name in _URL_ATTRIBUTES and _scheme_runs(value):
                self.problems.append(f"running URL in {name} of {where}")
            if name in ("href", "xlink:href") and tag not in _LINKING:
                self.problems.append(f"href on a non-link element {where}")
            if name == "style" and _RUNNING_STYLE.search(value):
                self.problems.append(f"style that runs code in {where}")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in ("script", "style"):
            self.handle_endtag(tag)

    def handle_data(self, data: str) -> None:
        if self._in:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == self._in:
            body = "".join(self._text)
            if tag == "script" and body.strip():
                self.problems.append(f"inline script: {body[:80]!r}")
            if tag == "style" and _RUNNING_STYLE.search(body):
                self.problems.append(f"style element that runs code: {body[:80]!r}")
            self._in = None


def executable_markup(html: str) -> list[str]:
    """What in `html` a browser could run (empty when nothing)."""
    finder = _Finder()
    finder.feed(html)
    finder.close()
    return finder.problems
