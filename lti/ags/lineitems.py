"""The line item of an exercise (or an assessment) in an LMS context: the one the platform
gave (deep linking, resource id = the exercise's or assessment's uuid) or one created on
demand through the context's line items URL."""

from urllib.parse import quote

from django.db import transaction
from django.db.models import F
from lti_tool.models import LtiContext, LtiLineItem

from courses.models import Exercise
from exams.models import Assessment
from lti.ags.connector import AGS_SCOPES, PlatformClient, PlatformError

LINEITEM_TYPE = "application/vnd.ims.lis.v2.lineitem+json"
LINEITEMS_TYPE = "application/vnd.ims.lis.v2.lineitemcontainer+json"


def line_item_known(*, context: LtiContext, exercise: Exercise | Assessment) -> LtiLineItem | None:
    """The line item stored for the exercise in the context, if any (one query)."""
    return (LtiLineItem.objects.filter(context=context, resource_id=str(exercise.uuid))
            .order_by("pk").first())


def line_item_ensure(*, client: PlatformClient, context: LtiContext, exercise: Exercise | Assessment,
                     score_maximum: float) -> LtiLineItem:
    """The exercise's line item in the context, created at the platform when there is none:
    first looked up by resource id (a creation whose answer was lost is found again), then
    POSTed with the exercise's title, points and uuid. Creation holds a lock on the context
    row, so concurrent senders create one line item, not two.

    Raises PlatformError (final) when the context has no line items URL.
    """
    known = line_item_known(context=context, exercise=exercise)
    if known is not None:
        return known
    if not context.lineitems_url:
        raise PlatformError("The platform gave no line item and no line items URL to create "
                            "one (is Assignment and Grade Services enabled for the tool?)",
                            status=None, transient=False)
    with transaction.atomic():
        # A write on the context row: a row lock on PostgreSQL, the write lock on SQLite.
        LtiContext.objects.filter(pk=context.pk).update(datetime_modified=F("datetime_modified"))
        known = line_item_known(context=context, exercise=exercise)
        if known is not None:
            return known
        resource_id = str(exercise.uuid)
        found = client.call("GET", _with_query(context.lineitems_url, "resource_id", resource_id),
                            scopes=AGS_SCOPES, accept=LINEITEMS_TYPE).body
        items = [i for i in (found or []) if isinstance(i, dict)
                 and i.get("resourceId") == resource_id and i.get("id")]
        if items:
            item = items[0]
        else:
            item = client.call("POST", context.lineitems_url, scopes=AGS_SCOPES,
                               json_body={"scoreMaximum": score_maximum,
                                          "label": exercise.title[:255],
                                          "resourceId": resource_id},
                               content_type=LINEITEM_TYPE, accept=LINEITEM_TYPE).body or {}
            if not item.get("id"):
                raise PlatformError("The platform created a line item without an id.",
                                    status=None, transient=True)
        line_item, _ = LtiLineItem.objects.get_or_create(
            url=str(item["id"]),
            defaults={"context": context, "maximum_score": float(item.get("scoreMaximum")
                                                                   or score_maximum),
                      "label": str(item.get("label") or exercise.title)[:255],
                      "resource_id": resource_id})
        return line_item


def scores_url(line_item_url: str) -> str:
    """The scores endpoint of a line item: its URL with "/scores" added to the path."""
    path, _, query = line_item_url.partition("?")
    return f"{path.rstrip('/')}/scores" + (f"?{query}" if query else "")


def _with_query(url: str, name: str, value: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}{name}={quote(value)}"
