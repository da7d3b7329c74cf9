"""Item analysis of an assessment after it closes, as pure functions over scores (0..1).

- facility: the mean score of an item;
- discrimination: the point-biserial (Pearson) correlation of an item's score with the rest
  of the paper (the paper's score without this item), over the students who had the item;
- Cronbach's alpha of the paper, its items being the paper's slots (each zone's draws), which
  every student has whatever questions were drawn: k/(k-1) (1 - sum of slot variances /
  variance of the totals);
- flags: a negative discrimination, a facility outside 0.2..0.9.
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


@dataclass
class ItemStatistic:
    item: str
    variant: str  # "" for all variants of the item together
    students: int
    facility: float
    discrimination: float | None
    flags: list[str] = field(default_factory=list)


def item_statistics(taken: Sequence[Taken]) -> list[ItemStatistic]:
    """Per item (all variants together) and per item and variant, sorted by item then
    variant ("" first), with its flags."""
    groups: dict[tuple[str, str], list[Taken]] = {}
    for row in taken:
        groups.setdefault((row.item, ""), []).append(row)
        groups.setdefault((row.item, row.variant), []).append(row)
    out = []
    for (item, variant), rows in sorted(groups.items()):
        facility = statistics.fmean(r.score for r in rows)
        discrimination = pearson([r.score for r in rows], [r.rest for r in rows])
        flags = []
        if discrimination is not None and discrimination < 0:
            flags.append("negative discrimination")
        if not FACILITY_RANGE[0] <= facility <= FACILITY_RANGE[1]:
            flags.append("too hard" if facility < FACILITY_RANGE[0] else "too easy")
        out.append(ItemStatistic(item, variant, len(rows), facility, discrimination, flags))
    return out


def score_distribution(scores: Sequence[float], bins: int = 10) -> list[int]:
    """How many papers scored in each tenth (0-0.1, ..., 0.9-1; 1 in the last)."""
    counts = [0] * bins
    for score in scores:
        counts[min(bins - 1, max(0, int(score * bins)))] += 1
    return counts
