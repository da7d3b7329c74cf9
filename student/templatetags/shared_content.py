"""Shared content of the module page, rendered once for every student: a content item's
Markdown (a section's text, the module's introduction) cached with the item's content
version in the key, so a sync that changes it is seen at once and nothing is ever stale."""

import hashlib

from django import template
from django.core.cache import cache
from django.db.models import Model
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from courses.rendering import render_markdown

register = template.Library()

#: Rendered content changes only with its text or the renderer (bump on a renderer change).
RENDER_VERSION = 2
CACHE_SECONDS = 24 * 3600


def shared_markdown_key(item: Model, field: str) -> str:
    """The cache key of `item`'s `field` rendered: the item, its content version (the time
    the sync last changed it), a digest of the text itself and the page's language (the
    figures' captions and tables are the interface's, translated)."""
    text = str(getattr(item, field) or "")
    version = getattr(item, "updated_at", None)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    stamp = version.timestamp() if version is not None else ""
    return (f"shared-md:{RENDER_VERSION}:{item._meta.label_lower}:{item.pk}:{field}:{stamp}:"
            f"{digest}:{get_language()}")


@register.simple_tag
def shared_markdown(item: Model, field: str) -> SafeString:
    """`item.<field>` as the `markdown` filter renders it, from the cache when another
    student's page rendered the same version already."""
    key = shared_markdown_key(item, field)
    html = cache.get(key)
    if html is None:
        html = render_markdown(str(getattr(item, field) or ""))
        cache.set(key, html, timeout=CACHE_SECONDS)
    return mark_safe(html)  # noqa: S308 (sanitised by render_markdown)
