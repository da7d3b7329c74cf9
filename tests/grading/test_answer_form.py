"""The one answer form of the module page and live sessions: the answer as typed, chosen
options joined, and errors as one sentence."""

from django.http import QueryDict

from grading.answer_form import AnswerForm
from grading.services import MAX_ANSWER


def test_an_answer_is_kept_as_typed_with_its_spaces():
    form = AnswerForm(QueryDict("answer=+0.85%5E40+"))
    assert form.is_valid() and form.cleaned_answer() == " 0.85^40 "


def test_several_chosen_options_are_joined_with_commas_and_blank_ones_dropped():
    form = AnswerForm(QueryDict("answer=a&answer=&answer=c"))
    assert form.is_valid() and form.cleaned_answer() == "a,c"


def test_missing_and_too_long_answers_say_why():
    assert AnswerForm(QueryDict("")).error_text() == "Type an answer before submitting."
    long = AnswerForm({"answer": "1" * (MAX_ANSWER + 1)})
    assert not long.is_valid() and long.error_text() == "This answer is too long."
