"""Benchmark-only settings for tests/benchmarks/test_api_throughput.py: the test settings
with the benchmark URLconf (real URLs plus a bare JSON endpoint). Never used by the service."""

from config.settings.test import *  # noqa: F403

ROOT_URLCONF = "tests.benchmarks.api_bench_urls"
LOGGING = {"version": 1, "disable_existing_loggers": False, "root": {"level": "WARNING"}}
