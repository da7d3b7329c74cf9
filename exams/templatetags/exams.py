"""`{% assessments_link course %}`: a link to the course's quizzes and exams, on the course
and module pages, when the course has any (one query)."""

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from courses.models import Course
from exams.models import Assessment

register = template.Library()


@register.simple_tag
def assessments_link(course: Course) -> SafeString:
    count = Assessment.objects.filter(module_id__in=course.module_ids(),
                                      archived_at__isnull=True).count()
    if not count:
        return format_html("")
    return format_html('<p class="assessments-link"><a href="{}">Quizzes and exams</a> ({})</p>',
                       reverse("exams:list", args=[course.slug]), count)
