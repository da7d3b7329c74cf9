"""/favicon.ico: browsers and LMS frames ask for it whatever the page links; the site's icon
(an SVG) is served there, cached for a day."""

from pathlib import Path

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

ICON = Path(__file__).resolve().parent / "static" / "favicon.svg"


@require_safe
@cache_control(public=True, max_age=86400)
def favicon(request: HttpRequest) -> HttpResponse:
    """The site's icon, whatever the page's <link rel="icon"> says."""
    return HttpResponse(ICON.read_bytes(), content_type="image/svg+xml")
