"""What lti's services (AGS grade passback, NRPS roster) plug in, from LtiConfig.ready()."""

from core.course_reports import course_report_register
from events.outbox import outbox_consumer_register


def install() -> None:
    """Consume grading's events for grade passback, load the tasks, register personal data."""
    from lti.ags import tasks as ags_tasks  # noqa: F401  (registers the Celery tasks)
    from lti.ags.outbox import score_changes_record, score_changes_record_many
    from lti.nrps import tasks as nrps_tasks  # noqa: F401
    from lti.personal_data import register
    from lti.sync.selectors import sync_health_data

    outbox_consumer_register(score_changes_record, many=score_changes_record_many)
    course_report_register("lms-sync", lambda *, course, params: sync_health_data(
        course=course, state=params.get("state"), page=params.get("page", 1)))
    register()
