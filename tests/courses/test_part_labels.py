# ruff: noqa: RUF001 - the labels are made of maths symbols
"""Staff labels keep a prompt's maths readable (issue 37): "Without the , each row" lost its
formula; a `label` with maths showed its LaTeX."""

from courses.models import Part
from courses.part_labels import part_label


def test_a_prompt_s_maths_is_written_as_plain_text_not_dropped():
    assert part_label(label="", prompt="Without the $1/\\sqrt{d}$, each row of the softmax "
                      "weights will be:", key="k") == "Without the 1/√d, each row of the\u2026"


def test_maths_in_brackets_and_subscripts_survive_the_markup_removal():
    assert part_label(label="", prompt="The state \\(\\mathbf{h}_{t-1}\\) is **kept**",
                      key="k") == "The state h_(t−1) is kept"


def test_a_label_with_maths_is_not_shown_as_latex():
    assert part_label(label="Bound $\\sigma^{40}$", prompt="x", key="k") == "Bound σ^40"


def test_module_6_s_unscaled_peak_part_is_labelled_with_its_formula(module_05):
    part = Part.objects.get(exercise__slug="predict-unscaled-peak")
    assert part.label.startswith("Without the 1/√d, each row")
