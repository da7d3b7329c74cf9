"""A student's paper: which questions each zone draws, in which order, and each question's
variant, all from one seed of (course, assessment, student, attempt number), so the same
attempt always shows the same paper (a review, a regrade, a second browser)."""

import random
from collections.abc import Mapping
from typing import Any

from exams.models import Assessment, Question
from grading.variants import seed_for, variant_params


def attempt_seed(*, course_id: int, assessment: Assessment, student_id: int, number: int) -> int:
    """The seed of one attempt's paper (63 bits, deterministic)."""
    return seed_for(course_id, f"{assessment.uuid}#{number}", student_id)


def paper_draw(*, assessment: Assessment, seed: int, default_variant: bool
               ) -> list[dict[str, Any]]:
    """The paper: `[{question: uuid, zone: index, seed: int | None}]` in the order the student
    sees it. Each zone draws its `draw` questions from its pool with a generator seeded by
    `seed`; without `shuffle` the drawn questions keep the pool's order. A question's variant
    seed also derives from `seed` (None when the student has the module's own numbers)."""
    rng = random.Random(seed)  # noqa: S311 - a reproducible draw, not a secret
    paper = []
    for index, zone in enumerate(assessment.zones):
        pool = list(zone["questions"])
        drawn = rng.sample(pool, zone["draw"])
        if not assessment.shuffle:
            drawn.sort(key=pool.index)
        for question in drawn:
            paper.append({"question": question, "zone": index,
                          "seed": None if default_variant else rng.getrandbits(63)})
    return paper


def question_params(question: Question, seed: int | None) -> dict[str, Any]:
    """The question's parameters (and derived values) in the variant of `seed`."""
    return variant_params(question.parameters, question.derived, seed)


def questions_of(paper: list[Mapping[str, Any]]) -> dict[str, Question]:
    """The paper's questions by uuid (one query)."""
    ids = [entry["question"] for entry in paper]
    return {str(q.uuid): q for q in Question.objects.filter(uuid__in=ids)}
