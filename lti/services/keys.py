"""The tool's own signing keys (django-lti's Key rows)."""

from django.db import transaction
from lti_tool.models import Key


@transaction.atomic
def tool_key_ensure() -> Key:
    """The newest active key, generated when there is none yet (a fresh installation)."""
    key = Key.objects.active().order_by("-datetime_created").first()
    return key if key is not None else Key.objects.generate()
