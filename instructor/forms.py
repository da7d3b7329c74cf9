"""Input of the dashboard's forms and filters: parsed and checked here, acted on by services."""

from django import forms

from core.integer_bounds import form_integer
from courses.models import CourseInvite, Exercise, Module, Part
from grading.models import DeadlinePolicy

_PART_ID = Part._meta.pk
_EXERCISE_ID = Exercise._meta.pk
_MODULE_ID = Module._meta.pk


class ReviewForm(forms.Form):
    points = forms.FloatField(min_value=0)
    comment = forms.CharField(required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 3}))


class OverrideForm(forms.Form):
    part = form_integer(_PART_ID, min_value=1)
    points = forms.FloatField(required=False, min_value=0,
                              help_text="leave empty to remove the override")
    reason = forms.CharField(max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))


class DeadlineForm(forms.Form):
    exercise = form_integer(_EXERCISE_ID, min_value=1)
    due_at = forms.DateTimeField(required=False, help_text="empty: no deadline",
                                 input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"])


class ExtensionForm(forms.Form):
    exercise = form_integer(_EXERCISE_ID, min_value=1)
    due_at = forms.DateTimeField(required=False, help_text="empty: withdraw the extension",
                                 input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"])
    reason = forms.CharField(required=False, max_length=2000)


class ModuleDeadlineForm(forms.Form):
    module = form_integer(_MODULE_ID, min_value=1, required=False,
                          help_text="empty: the course's only module")
    due_at = forms.DateTimeField(required=False, help_text="empty: no deadline on any exercise",
                                 input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"])


class DeadlinePolicyForm(forms.Form):
    time_zone = forms.CharField(max_length=64)
    late = forms.ChoiceField(choices=DeadlinePolicy.Late.choices)
    late_percent = forms.FloatField(min_value=0, max_value=100, required=False, initial=0)
    late_days = forms.IntegerField(min_value=0, max_value=365, required=False, initial=0)
    tas_grant_extensions = forms.BooleanField(required=False)

    def clean_late_percent(self) -> float:
        return float(self.cleaned_data.get("late_percent") or 0)

    def clean_late_days(self) -> int:
        return int(self.cleaned_data.get("late_days") or 0)


class InviteForm(forms.Form):
    """The number of people an invite link admits (empty: no limit), at most what its column
    holds (3,000,000,000 was a server error on PostgreSQL)."""

    max_uses = form_integer(CourseInvite._meta.get_field("max_uses"), min_value=1, required=False,
                            error_messages={"min_value": "A link must allow at least one use.",
                                            "max_value": "At most %(limit_value)s people.",
                                            "invalid": "The number of people must be a whole "
                                                       "number."})
