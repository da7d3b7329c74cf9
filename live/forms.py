"""Forms of the live pages: open a question, the scoring of a course's live answers."""

from django import forms

from grading.services import MAX_ANSWER
from live.models import LiveSession, LiveSettings


class OpenForm(forms.Form):
    part = forms.IntegerField(min_value=1, error_messages={"required": "Choose a question."})
    variant = forms.ChoiceField(choices=LiveSession.Variant.choices, initial=LiveSession.Variant.CLASS)


class ControlForm(forms.Form):
    action = forms.ChoiceField(choices=[(a, a) for a in ("close", "reopen", "show", "hide")])


class SettingsForm(forms.Form):
    scoring = forms.ChoiceField(choices=LiveSettings.Scoring.choices)


class AnswerForm(forms.Form):
    """The answer as typed; several chosen options (checkboxes) are joined with commas."""

    answer = forms.CharField(max_length=MAX_ANSWER, strip=False,
                             error_messages={"required": "Type an answer before submitting.",
                                             "max_length": "This answer is too long."})

    def __init__(self, data: object = None, **kwargs: object) -> None:
        if data is not None and hasattr(data, "getlist"):
            values = [v for v in data.getlist("answer") if v.strip()]
            data = {"answer": ",".join(values)} if len(values) > 1 else data
        super().__init__(data, **kwargs)  # type: ignore[arg-type]

    def cleaned_answer(self) -> str:
        return str(self.cleaned_data["answer"])

    def error_text(self) -> str:
        return " ".join(str(e) for errors in self.errors.values() for e in errors)
