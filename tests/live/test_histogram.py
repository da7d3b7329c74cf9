"""Histogram bins of the room's numbers: linear, and logarithmic where answers span decades."""

from live.histogram import histogram


def test_answers_spanning_decades_get_log_bins_each_holding_its_decade():
    shape = histogram([0.001, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0])
    assert shape.log
    assert [b.count for b in shape.bins] == [1, 1, 1, 1, 1, 2]  # the last bin includes its top
    assert shape.bins[0].low == 0.001 and shape.bins[-1].high == 1000.0


def test_close_answers_get_linear_bins_and_negative_ones_never_log():
    shape = histogram([38.0, 40.0, 40.0, 42.0])
    assert not shape.log and sum(b.count for b in shape.bins) == 4
    assert not histogram([-1000.0, 1.0, 1000.0]).log


def test_equal_answers_are_one_bar_and_no_answers_none():
    assert [b.count for b in histogram([5.0, 5.0]).bins] == [2]
    assert histogram([]).bins == []
