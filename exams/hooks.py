"""What exams plugs into the apps below it, installed once by ExamsConfig.ready()."""

from courses.services import ContentExtension, content_extension_register
from exams.content import assessment_problems
from exams.personal_data import register as personal_data_register
from exams.sync import assessments_apply

EXTENSION = ContentExtension(problems=assessment_problems, apply=assessments_apply)


def install() -> None:
    """Have every content sync validate and apply the modules' assessments; register the
    personal data exams hold (exports and erasure)."""
    content_extension_register(EXTENSION)
    personal_data_register()
