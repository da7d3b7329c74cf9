"""The weighted course total (grading/course_total.py): no database."""

import pytest

from grading.course_total import ModuleColumn, course_percent, explanation

FIVE = ModuleColumn(module_id=5, slug="module-05", number="5", title="RNNs", weight=1.0,
                    points=40.0)
SIX = ModuleColumn(module_id=6, slug="module-06", number="6", title="Attention", weight=3.0,
                   points=4.0)


def test_one_module_is_points_earned_over_its_points():
    assert course_percent({5: 10.0}, [FIVE]) == pytest.approx(25.0)


def test_modules_count_by_weight_not_by_points():
    # 1 x 10/40 + 3 x 4/4, over 4
    assert course_percent({5: 10.0, 6: 4.0}, [FIVE, SIX]) == pytest.approx(81.25)


def test_a_module_without_work_counts_as_zero():
    assert course_percent({5: 40.0}, [FIVE, SIX]) == pytest.approx(25.0)


def test_modules_of_weight_zero_or_without_points_do_not_count():
    nothing = ModuleColumn(module_id=7, slug="m7", number="7", title="", weight=2.0, points=0.0)
    ignored = ModuleColumn(module_id=8, slug="m8", number="8", title="", weight=0.0, points=5.0)
    assert course_percent({5: 20.0, 8: 5.0}, [FIVE, nothing, ignored]) == pytest.approx(50.0)
    assert course_percent({}, [ignored]) is None


def test_the_explanation_names_each_module_s_weight():
    assert "Module 5 \u00d71, Module 6 \u00d73" in explanation([FIVE, SIX])
    assert explanation([FIVE]) == "course % = points earned / points of the course"
