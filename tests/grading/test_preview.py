"""answer_preview: how an answer is read (canonical text and MathML) or why it cannot be,
from the checker's parse alone, so the answer key never shows."""

import pytest

from grading.preview import answer_preview

APPLY_1 = {
    "type": "numeric", "reference": "sigma^steps", "rtol": 0.02,
    "misconceptions": [{"answer": "sigma*steps", "tag": "linear-decay", "feedback": "linear"}],
}


def test_a_power_is_read_as_maths_with_its_value():
    preview = answer_preview(raw="0.85^40", spec=APPLY_1)
    assert preview.valid
    assert preview.canonical == "0.85^40 ≈ 0.0015023"
    assert "<math" in preview.mathml and "<msup>" in preview.mathml


def test_an_unclosed_bracket_gives_the_message_and_its_position():
    preview = answer_preview(raw="0.85^(40", spec=APPLY_1)
    assert not preview.valid and not preview.empty
    assert "missing ')'" in preview.message
    assert preview.position == 6


def test_an_unknown_name_is_refused_with_a_hint():
    preview = answer_preview(raw="sigm^40", spec=APPLY_1)
    assert not preview.valid
    assert "unknown name 'sigm'" in preview.message


def test_an_empty_answer_is_empty_not_an_error():
    preview = answer_preview(raw="   ", spec=APPLY_1)
    assert preview.empty and not preview.valid and preview.message == ""


@pytest.mark.parametrize("raw", ["34", "0.85^40", "0.85*40", "1 - 0.85^40", "0.85^39"])
def test_the_preview_never_says_whether_an_answer_is_right(raw):
    shown = answer_preview(raw=raw, spec=APPLY_1).as_dict()
    text = " ".join(str(value) for value in shown.values())
    for secret in ("sigma^steps", "sigma*steps", "linear", "correct", "sigma"):
        assert secret not in text


def test_a_vector_is_read_element_by_element():
    spec = {"type": "vector", "reference": ["1", "2"]}
    preview = answer_preview(raw="[1, 2^2]", spec=spec)
    assert preview.valid and preview.canonical == "[1, 2^2 ≈ 4]"


def test_html_typed_as_an_answer_never_becomes_markup():
    preview = answer_preview(raw="<script>alert(1)</script>", spec=APPLY_1)
    assert not preview.valid
    assert "<script" not in preview.mathml


@pytest.mark.parametrize("answer_type", ["choice", "text"])
def test_choices_and_explanations_have_no_preview(answer_type):
    with pytest.raises(ValueError, match="no preview"):
        answer_preview(raw="a", spec={"type": answer_type})


def test_a_string_is_previewed_as_it_will_be_compared_without_the_key():
    spec = {"type": "string", "reference": "Softmax", "whitespace": "trim"}
    preview = answer_preview(raw="  SOFT   max ", spec=spec)
    assert (preview.valid, preview.canonical, preview.mathml) == (True, "soft max", "")
    assert "Softmax" not in repr(preview)
    assert answer_preview(raw="x" * 5000, spec=spec).message.startswith("the answer is too long")
