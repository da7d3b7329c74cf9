"""Issue 25 item 10: a histogram of students counts whole students; its y axis never reads
0.5 or 1.5, whatever the counts."""

import itertools
import re

import pytest

from instructor.charts import histogram_svg, whole_ticks


@pytest.mark.parametrize("largest", [0, 1, 2, 3, 5, 7, 13, 99, 1000])
def test_the_ticks_are_whole_numbers_reaching_the_largest_count(largest):
    ticks = whole_ticks(largest)
    assert ticks[0] == 0 and ticks[-1] >= max(largest, 1)
    assert all(isinstance(t, int) for t in ticks) and len(ticks) <= 6
    assert len({b - a for a, b in itertools.pairwise(ticks)}) == 1


def test_a_histogram_of_two_students_labels_its_axis_in_whole_students():
    svg = histogram_svg(counts=[1, 2, 0], labels=["0", "10", "20"], title="Scores",
                        x_label="score")
    labels = re.findall(r'text-anchor="end" class="tick">([^<]*)<', svg)
    assert labels == ["0", "1", "2"]
