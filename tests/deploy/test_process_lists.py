"""The processes of docs/scaling.md are the ones every deployment runs: the Compose file's
services and the Kubernetes overlays' workloads each run exactly the table's commands; every
setting the deployments set is documented in docs/operations.md."""

import pytest

from tests.deploy.environment import entrypoint_modes, read, scaling_process_table
from tests.deploy.test_compose import env_example, grader_services
from tests.deploy.test_kubernetes import OVERLAYS, WORKLOAD, config, pod_spec, render

# Helpers of the Compose file that are no process of the service: the static files' export.
COMPOSE_HELPERS = {"static"}


def test_the_table_covers_every_process_the_guide_counts_connections_for():
    rows = scaling_process_table()
    assert {row["command"] for row in rows} <= entrypoint_modes()
    named = " ".join(row["process"] for row in rows).lower()
    for process in ("gunicorn", "daphne", "celery worker", "celery beat", "manage.py"):
        assert process in named


def test_the_compose_services_are_the_processes_of_the_scaling_guide():
    services = {name: service["command"][0] for name, service in grader_services().items()
                if name not in COMPOSE_HELPERS}
    assert services == {row["Compose service"]: row["command"] for row in scaling_process_table()}


@pytest.mark.parametrize("tree", OVERLAYS)
def test_the_kubernetes_workloads_are_the_processes_of_the_scaling_guide(tree):
    workloads = {f"{r['kind']} {r['metadata']['name']}": pod_spec(r)["containers"][0]["args"][0]
                 for r in render(tree) if r["kind"] in WORKLOAD}
    assert workloads == {row["Kubernetes workload"]: row["command"] for row in scaling_process_table()}


def test_every_setting_the_deployments_set_is_documented_in_the_operations_guide():
    guide = read("docs/operations.md")
    names = set(env_example()) | {key for tree in OVERLAYS for key in config(render(tree))}
    secrets = read("deploy/kubernetes/base/secrets.example.env").splitlines()
    names |= {line.split("=", 1)[0] for line in secrets if line and not line.startswith("#")}
    undocumented = sorted(name for name in names if f"`{name}" not in guide)
    assert not undocumented, undocumented
