"""The demo course's name and its classmates' answers (issue 37, smaller items): a name for a
course running Modules 5 and 6, and answers of each part's own type (a list part is answered
with lists, not `2`, `0` and `1/2`)."""

import re
from io import StringIO

import pytest
from django.core.management import call_command

from courses.models import Course, CourseModule, Part
from demo.bulk import part_pools

pytestmark = pytest.mark.django_db
#: Types whose answers are not a single number.
NOT_A_NUMBER = ("vector", "list", "matrix", "symbolic", "set", "equation", "choice", "string",
                "text", "quantity")
_BARE_NUMBER = re.compile(r"^\s*-?[\d.]+(\s*/\s*[\d.]+)?\s*$")


@pytest.fixture
def demo_course() -> Course:
    call_command("sync_content", stdout=StringIO())
    call_command("seed_demo", "--students", "2", stdout=StringIO())
    return Course.objects.get()


def _entries(raw: str) -> int:
    return raw.count(",") + raw.count(";") + 1


def test_the_demo_course_is_named_for_what_it_runs(demo_course):
    modules = list(CourseModule.objects.filter(course=demo_course)
                   .values_list("module__number", flat=True))
    assert modules == ["5", "6"]
    assert "Module 5" not in demo_course.title and "Module" not in demo_course.title
    assert demo_course.title.endswith("(demo)")


def test_every_demo_answer_is_of_its_part_s_own_type(demo_course):
    pools = {pool.part_id: pool for pool in part_pools(demo_course)}
    parts = Part.objects.filter(pk__in=pools).select_related("exercise")
    checked = set()
    for part in parts:
        pool = pools[part.pk]
        kind = part.spec["type"]
        answers = [a.raw for a in (*pool.right, *pool.wrong)]
        if kind == "text":  # a model answer may go to a teacher's review: no "right" one
            checked.add(kind)
            continue
        assert pool.right, f"{part.exercise.slug}/{part.key}: no right answer"
        key = pool.right[0].raw
        for raw in answers:
            if kind in NOT_A_NUMBER and not _BARE_NUMBER.match(key):
                assert not _BARE_NUMBER.match(raw), f"{part.exercise.slug}/{part.key}: {raw!r}"
            if kind in ("vector", "list", "matrix"):
                assert _entries(raw) == _entries(key), f"{part.exercise.slug}/{part.key}: {raw!r}"
            if kind == "choice":
                options = {o["key"] for o in part.spec["options"]}
                assert set(raw.split(",")) <= options, f"{part.exercise.slug}/{part.key}: {raw!r}"
        checked.add(kind)
    assert {"list", "matrix", "vector", "symbolic", "numeric", "integer"} <= checked


def test_module_6_s_list_part_gets_lists_right_and_wrong(demo_course):
    part = Part.objects.get(exercise__slug="multi-head-shapes", key="head_shape")
    (pool,) = [p for p in part_pools(demo_course) if p.part_id == part.pk]
    assert [a.raw for a in pool.right] == ["10, 64"]
    wrong = {a.raw: a.misconception for a in pool.wrong}
    assert wrong["10, 512"] == "width-not-split" and wrong["64, 10"] == "shape-swapped"
    assert len(wrong) > 2 and all(_entries(raw) == 2 for raw in wrong), wrong
