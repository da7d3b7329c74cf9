"""The tool's public keys (JWKS), served by django-lti once a key exists."""

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET
from lti_tool.models import Key

from lti.services.keys import tool_key_ensure


@require_GET
def jwks(request: HttpRequest) -> JsonResponse:
    """Every active key of the tool as a JWKS (a key is generated on a fresh installation);
    keys retired by rotate_keys stay listed until they are deactivated."""
    if not Key.objects.active().exists():
        tool_key_ensure()
    return JsonResponse(Key.objects.as_jwks())
