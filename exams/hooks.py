"""What exams plugs into the apps below it, installed once by ExamsConfig.ready()."""

from core.content_cache import content_watch
from courses.services import ContentExtension, content_extension_register
from events.catalog import event_type_register
from exams.content import assessment_problems
from exams.gradebook import AssessmentItems
from exams.models import Assessment
from exams.personal_data import register as personal_data_register
from exams.scores import SCORE_RELEASED
from exams.sync import assessments_apply
from grading.gradebook_items import gradebook_items_register

EXTENSION = ContentExtension(problems=assessment_problems, apply=assessments_apply)


def install() -> None:
    """Have every content sync validate and apply the modules' assessments; register the
    personal data exams hold (exports and erasure); name the event of a released score;
    put the assessments in the gradebook, whose columns are read from the content cache
    (fresh on every assessment write)."""
    content_extension_register(EXTENSION)
    personal_data_register()
    event_type_register(SCORE_RELEASED, "A student's assessment score was released or the "
                        "released score changed (a release, the window's close, a reopened "
                        "or later attempt)")
    content_watch(Assessment)
    gradebook_items_register(AssessmentItems())
