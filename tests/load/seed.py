"""Set up the load test's class and write the plan the Locust users follow.

`python -m tests.load.seed --run ID --students N --plan var/load/plan.json` (run by
`bin/load`, under `config.settings.load`): syncs nothing itself (bin/load runs
`sync_content` first), then

- creates the course run `rush-ID` with `seed_demo`'s service (an instructor and a TA,
  password `demo-pass-5`), and N students `rID-00001..` in bulk (one password hash computed
  once with the real hasher, so signing in costs what it costs in production), all on the
  module's own numbers (DefaultVariant), so one set of answers fits every student;
- gives every student a signed-in session (most students in a rush signed in days ago; the
  Locust users sign in through the form for a share of them);
- issues an LMS API key for the course;
- creates the baseline view's table;
- with `--exam MINUTES` (bin/load --exam), syncs a copy of module 5 with the test quiz of
  tests/exams/content/assessments beside it (two pools, window open until 2036), its time
  limit raised to MINUTES so that no attempt closes during the run, as tests/exams/conftest.py's
  `module_with_quiz` does; the plan names the quiz (`exam`);
- writes the plan: the course, the accounts, the token, and for every auto-graded part its
  id with a right, a wrong (one of its misconceptions) and an invalid answer, each checked
  with the grader here; the prediction parts (graded by a lab run on a worker) and the
  labs with their parameter ranges.

Each run gets a class of its own (students who have not answered yet) in the same database.
"""

import argparse
import json
import os
import re
import shutil
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

#: The quiz the exam rush takes (tests/exams/content: two pools).
QUIZ_FOLDER = Path(__file__).resolve().parents[1] / "exams" / "content" / "assessments"
QUIZ_SLUG = "quiz-1"


def quiz_time_limit_set(toml: str, minutes: int) -> str:
    """The assessment file's text with its `time_limit` (minutes) set to `minutes`."""
    changed, count = re.subn(r"(?m)^time_limit = \d+$", f"time_limit = {minutes}", toml)
    if count != 1:
        raise ValueError("the quiz has no single `time_limit = N` line")
    return changed


def _quiz_sync(minutes: int) -> None:
    """Sync a copy of module 5 with the test quiz beside it (see the module docstring)."""
    from django.conf import settings

    from courses.services import content_sync

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "module-05"
        shutil.copytree(Path(settings.CONTENT_ROOT) / "module-05", folder)
        shutil.copytree(QUIZ_FOLDER, folder / "assessments")
        quiz = folder / "assessments" / f"{QUIZ_SLUG}.toml"
        quiz.write_text(quiz_time_limit_set(quiz.read_text(), minutes), encoding="utf-8")
        content_sync(root=Path(tmp))


def _setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.load")
    import django

    django.setup()


#: Answers that every reader refuses as unreadable (outcome "invalid", no attempt used).
INVALID_CANDIDATES = ("3 +* 4", "((2", "0.5^^2", "[1, 2", "zzz?!")


def _answers_for(part: Any, params: dict[str, Any]) -> dict[str, str] | None:
    """Right, wrong and invalid answers for an auto-graded part, each checked by grading it;
    None when the part has no misconception that reads as a wrong answer."""
    from grading.checkers import CHECKERS, grade

    spec = part.spec
    checker = CHECKERS[spec["type"]]
    right = checker.reference_answer(spec, params)
    if spec["type"] == "numeric" and "/" in right:  # typed as a student would: 0.001652
        typed = f"{float(Fraction(right)):.4g}"
        right = typed if grade(typed, spec, params).outcome == "correct" else right
    if grade(right, spec, params).outcome != "correct":
        return None
    wrong = None
    for misconception in spec.get("misconceptions", []):
        try:
            candidate = checker.reference_answer({**spec, "reference": misconception["answer"]},
                                                 params)
        except (KeyError, ValueError, TypeError):
            continue
        if grade(candidate, spec, params).outcome == "incorrect":
            wrong = candidate
            break
    invalid = next((raw for raw in INVALID_CANDIDATES
                    if grade(raw, spec, params).outcome == "invalid"), None)
    if wrong is None or invalid is None:
        return None
    return {"right": right, "wrong": wrong, "invalid": invalid}


def _students_create(course: Any, count: int, prefix: str) -> list[str]:
    """Students <prefix>00001..count enrolled in `course` on the default variant, in bulk."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from courses.models import Enrollment
    from demo.seeding import DEMO_PASSWORD
    from grading.models import DefaultVariant

    user_model = get_user_model()
    names = [f"{prefix}{i:05d}" for i in range(1, count + 1)]
    existing = set(user_model.objects.filter(username__in=names).values_list("username", flat=True))
    password = make_password(DEMO_PASSWORD)
    user_model.objects.bulk_create(
        [user_model(username=name, first_name=name.capitalize(), email=f"{name}@example.org",
                    password=password) for name in names if name not in existing],
        batch_size=2000)
    users = list(user_model.objects.filter(username__in=names).only("pk", "username"))
    Enrollment.objects.bulk_create(
        [Enrollment(user=user, course=course, role=Enrollment.Role.STUDENT,
                    group="A" if i % 2 else "B") for i, user in enumerate(users)],
        batch_size=2000, ignore_conflicts=True)
    DefaultVariant.objects.bulk_create(
        [DefaultVariant(course=course, student=user) for user in users],
        batch_size=2000, ignore_conflicts=True)
    return names


def _sessions_create(names: list[str]) -> dict[str, str]:
    """A signed-in session for each student (as if they had signed in earlier in the week):
    username -> session key. Existing sessions of these students are reused."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    sessions = {}
    for user in get_user_model().objects.filter(username__in=names):
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "core.user_cache.CachedUserBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        sessions[user.username] = str(store.session_key)
    return sessions


def plan_build(*, run: str, students: int, exam_minutes: int = 0) -> dict[str, Any]:
    """Create the class (see the module docstring) and return the plan as a JSON-able dict;
    with `exam_minutes`, the course's module has the quiz (time limit `exam_minutes`)."""
    from django.contrib.auth import get_user_model

    from api.keys import api_key_create
    from api.models import ApiKey
    from config.load_baseline import baseline_table_create
    from courses.models import Lab, Part
    from demo.seeding import DEMO_PASSWORD, demo_seed
    from grading.variant_assignment import default_variant

    if exam_minutes:
        _quiz_sync(exam_minutes)
    demo = demo_seed(course_slug=f"rush-{run}", students=0)
    assert demo is not None
    course = demo.course
    names = _students_create(course, students, prefix=f"r{run}-")
    instructor = get_user_model().objects.get(username="instructor")
    token = api_key_create(course=course, name="load test LMS", role=ApiKey.Role.LMS,
                           created_by=instructor).token
    baseline_table_create()

    parts, predictions = [], []
    for part in (Part.objects.active().select_related("exercise")
                 .filter(exercise__module_id=course.module_id, exercise__archived_at__isnull=True)
                 .order_by("exercise__order", "order")):
        params = dict(default_variant(exercise=part.exercise).params)
        if part.spec.get("lab"):
            from grading.checkers import CHECKERS

            answer = CHECKERS[part.spec["type"]].reference_answer(part.spec, params)
            predictions.append({"id": part.pk, "exercise": part.exercise.slug, "lab": part.spec["lab"],
                                "answer": answer})
            continue
        answers = _answers_for(part, params)
        if answers is not None:
            parts.append({"id": part.pk, "exercise": part.exercise.slug, "key": part.key,
                          "type": part.spec["type"], **answers})
    labs = [{"slug": lab.slug, "params": {
                name: {k: spec[k] for k in ("type", "min", "max") if k in spec}
                for name, spec in lab.param_schema.items() if spec["type"] in ("int", "float")}}
            for lab in Lab.objects.filter(module=course.module).order_by("order")]
    return {
        "course": course.slug, "password": DEMO_PASSWORD, "students": names,
        "sessions": _sessions_create(names),
        "staff": ["instructor", "ta"], "api_token": token, "parts": parts,
        "predictions": predictions, "labs": labs,
        "exam": QUIZ_SLUG if exam_minutes else None,
    }


def main(argv: list[str] | None = None) -> None:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", required=True, help="names this run's course and students")
    parser.add_argument("--students", type=int, default=2000)
    parser.add_argument("--plan", type=Path, required=True)
    parser.add_argument("--exam", type=int, default=0, metavar="MINUTES",
                        help="give the course the test quiz with this time limit")
    args = parser.parse_args(argv)
    _setup_django()
    plan = plan_build(run=args.run, students=args.students, exam_minutes=args.exam)
    args.plan.parent.mkdir(parents=True, exist_ok=True)
    args.plan.write_text(json.dumps(plan, indent=1))
    print(f"class '{plan['course']}': {len(plan['students'])} students, "
          f"{len(plan['parts'])} auto-graded parts, {len(plan['predictions'])} prediction parts, "
          f"{len(plan['labs'])} labs{', quiz ' + plan['exam'] if plan['exam'] else ''} -> {args.plan}")


if __name__ == "__main__":
    main()
