"""The small forms of the course team's exam actions: every number a person types is bounded
by `core.integer_bounds.form_integer` (or a float field's bounds), so bad input is a clear
message naming the field, never a database error or a silently replaced default."""

from django import forms
from django.contrib.auth.models import User

from core.integer_bounds import form_integer
from exams.models import Accommodation, Assessment
from exams.staff import MAX_EXTRA_ATTEMPTS, MAX_REOPEN_MINUTES, MAX_TIME_FACTOR


class StudentField(forms.CharField):
    """A user name, cleaned to the User it names (a form error when nobody has it)."""

    def __init__(self) -> None:
        super().__init__(max_length=150, label="Student's user name")

    def clean(self, value: object) -> User:
        """The User whose user name is `value`; ValidationError when there is none."""
        name = super().clean(value)
        user = User.objects.filter(username=name).first()
        if user is None:
            raise forms.ValidationError("No student has that user name.")
        return user


class AccommodationForm(forms.Form):
    username = StudentField()
    time_factor = forms.FloatField(min_value=1.0, max_value=MAX_TIME_FACTOR, label="Time factor")
    extra_attempts = form_integer(Accommodation._meta.get_field("extra_attempts"), min_value=0,
                                  max_value=MAX_EXTRA_ATTEMPTS, label="Extra attempts")


class ReopenForm(forms.Form):
    minutes = form_integer(Assessment._meta.get_field("time_limit_minutes"), min_value=1,
                           max_value=MAX_REOPEN_MINUTES, label="Minutes")
    reason = forms.CharField(max_length=250, label="Reason")


class AccessCodeForm(forms.Form):
    access_code = forms.CharField(max_length=40, required=False, label="Access code")


class ExtensionForm(forms.Form):
    username = StudentField()
    closes_at = forms.DateTimeField(label="New close")
    reason = forms.CharField(max_length=300, label="Reason")


def form_problems(form: forms.Form) -> str:
    """One sentence per invalid field of a bound, invalid `form`: "Label: message"."""
    parts = []
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else ""
        text = " ".join(str(error) for error in errors)
        parts.append(f"{label}: {text}" if label else text)
    return " ".join(parts)
