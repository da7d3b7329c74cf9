"""The answer form of every page that takes an answer (the module page, a live session): one
text answer, or the chosen option keys of a choice part joined with commas."""

from django import forms

from grading.services import MAX_ANSWER


class AnswerForm(forms.Form):
    """Collects `answer` as typed; several values (checkboxes) are joined with commas."""

    answer = forms.CharField(max_length=MAX_ANSWER, strip=False,
                             error_messages={"required": "Type an answer before submitting.",
                                             "max_length": "This answer is too long."})

    def __init__(self, data: object = None, **kwargs: object) -> None:
        if data is not None and hasattr(data, "getlist"):
            values = [v for v in data.getlist("answer") if v.strip()]
            data = {"answer": ",".join(values)} if len(values) > 1 else data
        super().__init__(data, **kwargs)  # type: ignore[arg-type]

    def cleaned_answer(self) -> str:
        """The answer as typed (valid forms only)."""
        return str(self.cleaned_data["answer"])

    def error_text(self) -> str:
        """Every error of the form as one sentence, for the part's message."""
        return " ".join(str(e) for errors in self.errors.values() for e in errors)
