"""A lab never computes the key of an exercise the student has not solved, for their variant.

A simulation module may define ``answer_inputs(variant_params) -> dict | None``: given one
variant's parameter values of an exercise, the lab parameters that would make the lab print
that exercise's answer (``None`` when the exercise is not one the lab computes). A student's
run is refused when its parameters are those inputs for the student's own variant of an
exercise of the lab's module that they have not solved yet: some active part is not done in
their progress (neither answered correctly nor reviewed or overridden to full marks). What
counts as "the same inputs" is the simulation's ``same_inputs(run, inputs)`` when it defines
one (the attention lab ignores the order of the weight-state pairs and pairs of weight 0),
else plain equality. Staff are never held back.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef

from courses.models import Course, Exercise, Lab, Part
from grading.models import PartProgress
from grading.variant_assignment import variant_for
from labs.simulations import SIMULATIONS


def unsolved_exercise_computed(*, lab: Lab, course: Course, student: User,
                               params: dict[str, Any]) -> Exercise | None:
    """The first unsolved exercise (in exercise order) whose key, for `student`'s variant, a
    run of `lab` with validated `params` would show; None when there is none.

    No query for a simulation without ``answer_inputs``; otherwise one for the candidate
    exercises and at most one per candidate for the student's variant (none when the
    exercises use the course's default variant).
    """
    module = SIMULATIONS[lab.simulation]
    answer_inputs = getattr(module, "answer_inputs", None)
    if answer_inputs is None:
        return None
    same = getattr(module, "same_inputs", None) or (lambda run, inputs: run == inputs)
    solved = PartProgress.objects.filter(part=OuterRef("pk"), student=student, course=course,
                                         correct=True)
    open_parts = Part.objects.active().filter(exercise=OuterRef("pk")).filter(~Exists(solved))
    candidates = (Exercise.objects.filter(module_id=lab.module_id, archived_at__isnull=True)
                  .exclude(parameters={}).filter(Exists(open_parts)).order_by("order"))
    for exercise in candidates:
        variant = variant_for(student=student, course=course, exercise=exercise)
        inputs = answer_inputs(variant.params)
        if inputs is not None and same(params, inputs):
            return exercise
    return None
