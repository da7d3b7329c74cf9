"""Item analysis of an assessment after it closes, as pure functions over scores (0..1).

- facility: the mean score of an item;
- discrimination: the point-biserial (Pearson) correlation of an item's score with the rest
  of the paper (the paper's score without this item), over the students who had the item;
- Cronbach's alpha of the paper, its items being the paper's slots (each zone's draws), which
  every student has whatever questions were drawn: k/(k-1) (1 - sum of slot variances /
  variance of the totals);
- flags: a negative discrimination, a facility outside 0.2..0.9;
- choice counts: for each single-choice part, how many chose each option (the key marked),
  and how many left it blank;
- median time: the median over students of the seconds from the attempt's start to the
  last save of any of the question's answers (students who never saved one are left out).
"""

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

FACILITY_RANGE = (0.2, 0.9)


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """The correlation of two equally long series; None with fewer than 2 pairs or when
    either does not vary."""
    if len(xs) != len(ys) or len(xs) < 2:
        return None
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx <= 1e-12 or syy <= 1e-12:
        return None
    return sxy / math.sqrt(sxx * syy)


def cronbach_alpha(rows: Sequence[Sequence[float]]) -> float | None:
    """Alpha of a students x items matrix (every row as long); None with fewer than 2 items,
    fewer than 2 students, or totals that do not vary."""
    if len(rows) < 2 or len(rows[0]) < 2:
        return None
    k = len(rows[0])
    items = list(zip(*rows, strict=True))
    totals = [sum(row) for row in rows]
    total_variance = statistics.pvariance(totals)
    if total_variance <= 1e-12:
        return None
    return k / (k - 1) * (1 - sum(statistics.pvariance(item) for item in items) / total_variance)


@dataclass(frozen=True)
class Taken:
    """One student's score on one item of their paper and on the rest of it."""

    item: str
    variant: str
    score: float
    rest: float


@dataclass(frozen=True)
class Chosen:
    """The option one student chose in one single-choice part ("" for none)."""

    item: str
    variant: str
    part: str
    option: str


@dataclass(frozen=True)
class Timed:
    """Seconds from one student's attempt start to their last save on one item."""

    item: str
    variant: str
    seconds: float


@dataclass(frozen=True)
class ChoicePart:
    """The options of a single-choice part: their keys in order and the correct ones."""

    item: str
    part: str
    options: tuple[str, ...]
    correct: frozenset[str]


@dataclass
class OptionCount:
    option: str  # "" for no answer
    count: int
    key: bool


@dataclass
class PartChoices:
    part: str
    options: list[OptionCount]


@dataclass
class ItemStatistic:
    item: str
    variant: str  # "" for all variants of the item together
    students: int
    facility: float
    discrimination: float | None
    flags: list[str] = field(default_factory=list)
    choices: list[PartChoices] = field(default_factory=list)
    median_seconds: float | None = None


def _both(item: str, variant: str) -> tuple[tuple[str, str], tuple[str, str]]:
    return (item, ""), (item, variant)


def choice_counts(chosen: Sequence[Chosen], parts: Sequence[ChoicePart]
                  ) -> dict[tuple[str, str], list[PartChoices]]:
    """Per (item, "") and per (item, variant): each single-choice part's options in the
    spec's order with how many chose them and whether they are the key, then "" (no answer)
    if anyone left it blank; a chosen option the spec no longer has is counted after."""
    counts: dict[tuple[str, str], dict[str, dict[str, int]]] = {}
    for row in chosen:
        for group in _both(row.item, row.variant):
            tally = counts.setdefault(group, {}).setdefault(row.part, {})
            tally[row.option] = tally.get(row.option, 0) + 1
    specs = {(p.item, p.part): p for p in parts}
    out: dict[tuple[str, str], list[PartChoices]] = {}
    for group, by_part in counts.items():
        for part_key, tally in sorted(by_part.items()):
            spec = specs.get((group[0], part_key))
            options = list(spec.options) if spec else []
            correct = spec.correct if spec else frozenset()
            extra = sorted(o for o in tally if o not in options and o)
            order = options + extra + ([""] if "" in tally else [])
            out.setdefault(group, []).append(PartChoices(part_key, [
                OptionCount(o, tally.get(o, 0), o in correct) for o in order]))
    return out


def median_times(timed: Sequence[Timed]) -> dict[tuple[str, str], float]:
    """The median seconds per (item, "") and per (item, variant)."""
    groups: dict[tuple[str, str], list[float]] = {}
    for row in timed:
        for group in _both(row.item, row.variant):
            groups.setdefault(group, []).append(row.seconds)
    return {group: statistics.median(values) for group, values in groups.items()}


def item_statistics(taken: Sequence[Taken], chosen: Sequence[Chosen] = (),
                    parts: Sequence[ChoicePart] = (), timed: Sequence[Timed] = ()
                    ) -> list[ItemStatistic]:
    """Per item (all variants together) and per item and variant, sorted by item then
    variant ("" first), with its flags, its single-choice parts' option counts and its
    median time."""
    groups: dict[tuple[str, str], list[Taken]] = {}
    for row in taken:
        for group in _both(row.item, row.variant):
            groups.setdefault(group, []).append(row)
    choices = choice_counts(chosen, parts)
    medians = median_times(timed)
    out = []
    for (item, variant), rows in sorted(groups.items()):
        facility = statistics.fmean(r.score for r in rows)
        discrimination = pearson([r.score for r in rows], [r.rest for r in rows])
        flags = []
        if discrimination is not None and discrimination < 0:
            flags.append("negative discrimination")
        if not FACILITY_RANGE[0] <= facility <= FACILITY_RANGE[1]:
            flags.append("too hard" if facility < FACILITY_RANGE[0] else "too easy")
        out.append(ItemStatistic(item, variant, len(rows), facility, discrimination, flags,
                                 choices.get((item, variant), []),
                                 medians.get((item, variant))))
    return out


def score_distribution(scores: Sequence[float], bins: int = 10) -> list[int]:
    """How many papers scored in each tenth (0-0.1, ..., 0.9-1; 1 in the last)."""
    counts = [0] * bins
    for score in scores:
        counts[min(bins - 1, max(0, int(score * bins)))] += 1
    return counts
