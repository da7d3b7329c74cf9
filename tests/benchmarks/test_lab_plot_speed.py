"""What a lab plot costs: the first view renders the SVG (matplotlib), later views read it
from the cache.

Run on demand: RUN_BENCHMARKS=1 pytest tests/benchmarks/test_lab_plot_speed.py -s
Prints figures beside the simulation's own compute time, measured in the same run; asserts
no time. The issue reported ~190 ms per matplotlib SVG, which is why plots are rendered once,
on first view and kept in Django's cache (labs.services.lab_run_plot), not in the worker's
task, and never written to the database during a page view.
"""

import statistics
import time

import numpy as np
import pytest

from courses.models import Lab
from labs.models import LabRun
from labs.plots import plot_for
from labs.services import lab_run_execute, lab_run_plot, lab_run_request
from labs.simulations import LAB_SIMULATIONS, run_simulation

pytestmark = pytest.mark.benchmark


def _median_ms(fn, repeats: int = 7) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


@pytest.mark.parametrize("key", sorted(LAB_SIMULATIONS))
def test_plot_render_against_the_simulation(key):
    result = run_simulation(key, {}, rng=np.random.default_rng(1))
    plot_for(key, result)  # matplotlib's first figure loads fonts; not a per-plot cost
    compute = _median_ms(lambda: run_simulation(key, {}, rng=np.random.default_rng(1)))
    render = _median_ms(lambda: plot_for(key, result))
    size_kb = len(plot_for(key, result).encode()) / 1024
    print(f"\n{key}: simulation p50 {compute:.2f} ms, SVG render p50 {render:.1f} ms "
          f"({render / compute:.0f}x the simulation), {size_kb:.0f} KB")


def test_first_view_renders_and_stores_later_views_read_the_stored_plot(db, course, alice):
    lab = Lab.objects.get(slug="vanishing-gradient")
    run = lab_run_request(lab=lab, course=course, requester=alice, params={}, seed=5)
    lab_run_execute(run_id=run.pk)
    first = _median_ms(lambda: lab_run_plot(run=LabRun.objects.get(pk=run.pk)), repeats=1)
    later = _median_ms(lambda: lab_run_plot(run=LabRun.objects.get(pk=run.pk)))
    print(f"\nvanishing-gradient plot: first view {first:.1f} ms (render + store), later views "
          f"p50 {later:.2f} ms (one row read), {first / later:.0f}x")
