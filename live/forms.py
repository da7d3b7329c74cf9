"""Forms of the live pages: open a question, the scoring of a course's live answers (the
answer itself uses grading.answer_form, as the module page does)."""

from django import forms

from core.integer_bounds import form_integer
from courses.models import Part
from live.models import LiveSession, LiveSettings


class OpenForm(forms.Form):
    part = form_integer(Part._meta.pk, min_value=1,
                        error_messages={"required": "Choose a question."})
    variant = forms.ChoiceField(choices=LiveSession.Variant.choices, initial=LiveSession.Variant.CLASS)


class ControlForm(forms.Form):
    action = forms.ChoiceField(choices=[(a, a) for a in ("close", "reopen", "show", "hide")])


class SettingsForm(forms.Form):
    scoring = forms.ChoiceField(choices=LiveSettings.Scoring.choices)
