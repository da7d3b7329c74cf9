"""The attempt penalty: what a score is worth on a later attempt (first grading, regrading
and the demo's bulk answers apply it alike)."""


def penalised(score: float | None, penalty: float, attempt_number: int) -> float | None:
    """`score` less `penalty` for each attempt before `attempt_number` (never below 0)."""
    if score is None or not penalty:
        return score
    return score * max(0.0, 1.0 - penalty * (attempt_number - 1))
