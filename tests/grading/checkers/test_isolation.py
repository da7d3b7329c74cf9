"""The sympy fallback runs in helper processes that are killed for real on timeout, capped in
memory, usable from threads and from daemonic worker processes, and fed only our own trees."""

import multiprocessing
import os
import threading
from pathlib import Path

import pytest

from grading.checkers import grade, isolation
from grading.checkers.mathparse import parse
from grading.checkers.mathparse.wire import WireError, from_data, to_data
from grading.checkers.sampling import compare
from grading.checkers.sympy_helper import decide

# No real point makes sqrt(-1 - x^2) defined, so sampling cannot decide and sympy is asked;
# simplifying this pair takes sympy far longer than any budget (minutes).
PATHOLOGICAL = {
    "type": "symbolic", "variables": ["x", "y"],
    "reference": "sqrt(-1-x^2)*(sin(x+y)/cos(x+y))^6*(1-tan(x)tan(y))^3",
}
PATHOLOGICAL_ANSWER = "sqrt(-1-x^2)*(tan(x)+tan(y))^6/(1-tan(x)tan(y))^3"
UNDEFINED_SAME = ("sqrt(-1 - x^2)", "sqrt(-(x^2 + 1))")


def _gone(pid: int) -> bool:
    """True when no process, not even a zombie, has this pid any more (Linux /proc)."""
    return not Path(f"/proc/{pid}").exists()


def test_a_pathological_sympy_case_is_killed_and_the_answer_goes_to_review(monkeypatch):
    monkeypatch.setattr(isolation, "SYMPY_BUDGET_SECONDS", 0.5)
    isolation.pool.warm()  # the helper's start is not what this test is about
    killed_before = isolation.pool.killed

    result = grade(PATHOLOGICAL_ANSWER, PATHOLOGICAL, {})

    assert (result.outcome, result.score) == ("review", None)
    assert isolation.pool.killed == killed_before + 1
    pid = isolation.pool.killed_pids[-1]
    assert _gone(pid), f"helper {pid} still exists"


def test_the_pool_answers_again_after_a_kill():
    a, b = (parse(t, variables=["x"]) for t in UNDEFINED_SAME)
    verdict = isolation.sympy_equivalent(a, b, variables=["x"], functions={}, params={},
                                         domain="positive", budget=30)
    assert verdict == "equal"


def test_a_helper_caps_its_memory():
    isolation.pool.warm()
    pid = isolation.pool.idle_pids()[0]
    limits = Path(f"/proc/{pid}/limits").read_text()
    line = next(x for x in limits.splitlines() if x.startswith("Max address space"))
    assert "unlimited" not in line.split("Max address space")[1].split()[0]


def test_sympy_decides_when_no_sample_point_is_defined_from_a_thread():
    results = []

    def body():
        a, b = (parse(t, variables=["x"]) for t in UNDEFINED_SAME)
        results.append(compare(a, b, ["x"], budget=30))

    worker = threading.Thread(target=body)
    worker.start()
    worker.join()
    assert results[0].status == "equal" and results[0].decided_by == "sympy"


def _in_a_daemonic_child(queue) -> None:
    """What a Celery prefork (billiard) child is: a daemonic process."""
    try:
        multiprocessing.get_context("fork").Process(target=print).start()
        refused = False
    except AssertionError:  # "daemonic processes are not allowed to have children"
        refused = True
    a, b = (parse(t, variables=["x"]) for t in UNDEFINED_SAME)
    comparison = compare(a, b, ["x"], budget=30)
    queue.put((refused, comparison.status, comparison.decided_by, os.getpid()))


def test_the_fallback_works_inside_a_daemonic_worker_process():
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    isolation.pool.warm()  # a pool inherited through fork is replaced, never shared
    child = context.Process(target=_in_a_daemonic_child, args=(queue,), daemon=True)
    child.start()
    refused, status, decided_by, pid = queue.get(timeout=120)
    child.join(30)
    assert refused, "multiprocessing children should be refused in a daemonic process"
    assert (status, decided_by) == ("equal", "sympy")
    assert pid != os.getpid()


def test_the_helper_rebuilds_only_our_own_trees():
    tree = parse("f(x, 2) + sin(x)!", variables=["x"], functions={"f": 2}).node
    assert from_data(to_data(tree), {"f"}) == tree
    for bad in ("x + 1", ["call", "__import__", [["var", "os"]]], ["call", "f", [["num", 1, 1,
                "1"]]], ["var", "os.system"], ["num", "1", 1, "1"], ["eval", "1"],
                ["binop", "**", ["var", "x"], ["var", "x"]], ["const", "E"]):
        with pytest.raises(WireError):
            from_data(bad, set())


def test_the_helper_decides_a_request_built_from_trees():
    a, b = (parse(t, variables=["x"]) for t in ("(x+1)^2", "x^2 + 2x + 1"))
    request = {"answer": to_data(a.node), "reference": to_data(b.node), "substitutions": {},
               "functions": {}, "domain": "positive"}
    assert decide(request) == "equal"
    with pytest.raises(WireError):
        decide({**request, "answer": "x^2 + 2*x + 1"})


def test_a_killed_helper_is_replaced_in_the_background_not_by_the_next_answer(monkeypatch):
    """The answer after a kill waits (within its own budget) for the replacement already
    starting, instead of starting a helper of its own, which took about a second more."""
    monkeypatch.setattr(isolation, "SYMPY_BUDGET_SECONDS", 0.5)
    isolation.pool.close()
    isolation.pool.warm()
    assert grade(PATHOLOGICAL_ANSWER, PATHOLOGICAL, {}).outcome == "review"  # killed

    a, b = (parse(t, variables=["x"]) for t in UNDEFINED_SAME)
    isolation.sympy_equivalent(a, b, variables=["x"], functions={}, params={},
                               domain="positive", budget=0.9)
    # Whatever that answer got in time, the pool started exactly one helper after the kill.
    verdict = isolation.sympy_equivalent(a, b, variables=["x"], functions={}, params={},
                                         domain="positive", budget=30)

    assert verdict == "equal"
    assert len(isolation.pool.idle_pids()) == 1
    assert isolation.pool.starting == 0
