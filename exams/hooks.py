"""What exams plugs into the apps below it, installed once by ExamsConfig.ready()."""

from courses.services import ContentExtension, content_extension_register
from exams.content import assessment_problems
from exams.sync import assessments_apply

EXTENSION = ContentExtension(problems=assessment_problems, apply=assessments_apply)


def install() -> None:
    """Have every content sync validate and apply the modules' assessments."""
    content_extension_register(EXTENSION)
