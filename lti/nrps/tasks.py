"""Celery tasks of roster sync: one context's roster, and every linked context periodically."""

import logging

from celery import shared_task
from lti_tool.models import LtiContext

from courses.roster import RosterInvalid, RosterMassDeactivation
from lti.ags.connector import PlatformError
from lti.nrps.roster import roster_from_platform

logger = logging.getLogger(__name__)


@shared_task(name="lti.nrps.tasks.roster_sync_task", acks_late=True)
def roster_sync_task(context_id: int) -> str:
    """Read context `context_id`'s roster from the platform into its course."""
    context = LtiContext.objects.select_related("deployment__registration",
                                                "course_link__course").get(pk=context_id)
    try:
        diff = roster_from_platform(context=context, course=context.course_link.course)
    except (PlatformError, RosterInvalid, RosterMassDeactivation) as exc:
        # Recorded in RosterSyncState for the sync page; the next periodic read tries again.
        # Anything else is a bug: recorded too, and raised for the worker's log.
        return f"failed: {exc}"
    return f"created {len(diff.created)}, deactivated {len(diff.deactivated)}"


@shared_task(name="lti.nrps.tasks.rosters_sync_task", acks_late=True)
def rosters_sync_task() -> int:
    """Queue a roster read for every context linked to a course that has a memberships URL."""
    ids = list(LtiContext.objects.filter(course_link__isnull=False).exclude(memberships_url="")
               .values_list("pk", flat=True))
    for context_id in ids:
        roster_sync_task.delay(context_id)
    return len(ids)
