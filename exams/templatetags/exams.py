"""`{% assessments_link course %}`: a link to the course's quizzes and exams, on the course
and module pages, when the course has any (one query)."""

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from courses.models import Course
from exams.selectors import assessment_count

register = template.Library()


@register.simple_tag
def assessments_link(course: Course) -> SafeString:
    count = assessment_count(course=course)
    if not count:
        return mark_safe("")
    return format_html('<p class="assessments-link"><a href="{}">Quizzes and exams</a> ({})</p>',
                       reverse("exams:list", args=[course.slug]), count)
