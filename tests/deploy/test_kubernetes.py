"""The Kubernetes manifests (deploy/kubernetes): the base and both overlays render (with a
renderer of our own, equal to `kubectl kustomize` where kubectl is available), every
resource validates against the Kubernetes schemas (kubernetes-validate; KEDA's ScaledObject
against KEDA's own CRD schema), and the workloads' processes, ports, probes and environment
are the ones the code and the entrypoint know."""

import copy
import shutil
import subprocess
from typing import Any

import jsonschema
import kubernetes_validate
import pytest
import yaml
from django.urls import resolve

from tests.deploy.environment import (
    ROOT,
    environment_names,
    read,
)
from tests.deploy.kustomize import kustomize_render

KUBERNETES = ROOT / "deploy" / "kubernetes"
TREES = ["base", "overlays/small", "overlays/large"]
OVERLAYS = ["overlays/small", "overlays/large"]
KUBERNETES_VERSION = "1.31.0"
KEDA_CRD = yaml.safe_load((ROOT / "tests" / "fixtures" / "keda" / "keda.sh_scaledobjects.yaml").read_text())
WORKLOAD = {"Deployment", "Job", "CronJob"}


def render(tree: str) -> list[dict[str, Any]]:
    return kustomize_render(KUBERNETES / tree)


def by_kind(resources: list[dict[str, Any]], kind: str) -> dict[str, dict[str, Any]]:
    return {r["metadata"]["name"]: r for r in resources if r["kind"] == kind}


def pod_spec(resource: dict[str, Any]) -> dict[str, Any]:
    spec = resource["spec"]
    if resource["kind"] == "CronJob":
        spec = spec["jobTemplate"]["spec"]
    return dict(spec["template"]["spec"])


def config(resources: list[dict[str, Any]]) -> dict[str, str]:
    return dict(by_kind(resources, "ConfigMap")["grader-config"]["data"])


def validate(resource: dict[str, Any]) -> None:
    if resource["kind"] == "ScaledObject":
        [version] = KEDA_CRD["spec"]["versions"]
        assert resource["apiVersion"] == f"keda.sh/{version['name']}"
        jsonschema.Draft7Validator(version["schema"]["openAPIV3Schema"]).validate(resource)
    else:
        kubernetes_validate.validate(resource, KUBERNETES_VERSION, strict=True)


@pytest.mark.parametrize("tree", TREES)
def test_every_rendered_resource_validates_against_the_kubernetes_schemas(tree):
    resources = render(tree)
    assert len(resources) >= 17
    for resource in resources:
        validate(resource)


def test_validation_refuses_a_misspelt_or_mistyped_manifest():
    web = by_kind(render("base"), "Deployment")["web"]
    misspelt = copy.deepcopy(web)
    misspelt["spec"]["replica"] = 2
    mistyped = copy.deepcopy(web)
    mistyped["spec"]["replicas"] = "two"
    for broken in (misspelt, mistyped):
        with pytest.raises(kubernetes_validate.ValidationError):
            validate(broken)
    scaled = copy.deepcopy(by_kind(render("overlays/large"), "ScaledObject")["worker"])
    scaled["spec"]["minReplicaCount"] = "two"
    with pytest.raises(jsonschema.ValidationError):
        validate(scaled)


@pytest.mark.parametrize("tree", TREES)
def test_the_renderer_builds_what_kubectl_kustomize_builds(tree):
    if shutil.which("kubectl") is None:
        pytest.skip("kubectl is not installed: the overlays are rendered by tests/deploy/kustomize.py alone")
    kubectl = ["kubectl", "kustomize", str(KUBERNETES / tree)]
    output = subprocess.run(kubectl, capture_output=True, text=True, check=True,
                            timeout=60).stdout
    theirs = {(r["kind"], r["metadata"]["name"]): r for r in yaml.safe_load_all(output) if r}
    ours = {(r["kind"], r["metadata"]["name"]): r for r in render(tree)}
    assert ours == theirs


@pytest.mark.parametrize("tree", OVERLAYS)
def test_ports_and_probes_are_the_ones_the_processes_serve(tree):
    resources = render(tree)
    settings = config(resources)
    deployments = by_kind(resources, "Deployment")
    ports = {name: {p["name"]: p["containerPort"] for p in pod_spec(d)["containers"][0].get("ports", [])}
             for name, d in deployments.items()}
    assert ports["web"] == {"http": int(settings["GUNICORN_BIND"].rsplit(":", 1)[1])}
    assert ports["asgi"] == {"ws": int(settings["ASGI_PORT"])}
    assert ports["worker"] == ports["beat"] == {}
    hosts = settings["ALLOWED_HOSTS"].split(",")
    for name in ("web", "asgi"):
        container = pod_spec(deployments[name])["containers"][0]
        for kind in ("startupProbe", "readinessProbe", "livenessProbe"):
            probe = container[kind]["httpGet"]
            assert resolve(probe["path"]).url_name == "health-live", (name, kind)
            assert probe["port"] in ports[name]
            assert {"name": "Host", "value": hosts[0]} in probe["httpHeaders"]
    worker = pod_spec(deployments["worker"])["containers"][0]
    assert worker["livenessProbe"]["exec"]["command"] == ["/app/deploy/entrypoint.sh", "healthcheck"]
    services = by_kind(resources, "Service")
    assert {s["spec"]["ports"][0]["targetPort"] for s in services.values()} == {"http", "ws"}
    ingress = by_kind(resources, "Ingress")["grader"]["spec"]["rules"][0]
    assert ingress["host"] == hosts[0]
    routes = {p["path"]: p["backend"]["service"]["name"] for p in ingress["http"]["paths"]}
    assert routes == {"/ws/": "asgi", "/": "web"}


@pytest.mark.parametrize("tree", OVERLAYS)
def test_every_environment_name_is_one_the_code_or_the_entrypoint_reads(tree):
    resources = render(tree)
    known = environment_names()
    assert set(config(resources)) <= known, set(config(resources)) - known
    example = read("deploy/kubernetes/base/secrets.example.env").splitlines()
    secret_keys = {line.split("=", 1)[0] for line in example if line and not line.startswith("#")}
    assert secret_keys <= known, secret_keys - known
    assert {"SECRET_KEY", "DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL"} <= secret_keys
    for resource in resources:
        if resource["kind"] in WORKLOAD:
            spec = pod_spec(resource)
            for container in spec.get("initContainers", []) + spec["containers"]:
                assert container["envFrom"] == [{"configMapRef": {"name": "grader-config"}},
                                                {"secretRef": {"name": "grader-secrets"}}]
                assert set(container.get("env", {})) <= known


@pytest.mark.parametrize("tree", OVERLAYS)
def test_one_beat_migrations_first_and_every_scaled_process_has_a_disruption_budget(tree):
    resources = render(tree)
    deployments = by_kind(resources, "Deployment")
    beat = deployments["beat"]
    assert beat["spec"]["replicas"] == 1 and beat["spec"]["strategy"] == {"type": "Recreate"}
    for name, deployment in deployments.items():
        assert [c["args"] for c in pod_spec(deployment)["initContainers"]] == [["wait-for-migrations"]], name
    assert pod_spec(by_kind(resources, "Job")["migrate"])["containers"][0]["args"] == ["migrate"]
    scalers = [*by_kind(resources, "HorizontalPodAutoscaler").values(),
               *by_kind(resources, "ScaledObject").values()]
    scaled = {scaler["spec"]["scaleTargetRef"]["name"] for scaler in scalers}
    assert scaled == {"web", "asgi", "worker"}
    budgets = {b["spec"]["selector"]["matchLabels"]["app.kubernetes.io/component"]
               for b in by_kind(resources, "PodDisruptionBudget").values()}
    assert budgets == {"web", "asgi", "worker"}


def test_the_large_overlay_scales_workers_on_queue_depth_behind_pgbouncer():
    large, small = render("overlays/large"), render("overlays/small")
    assert "worker" not in by_kind(large, "HorizontalPodAutoscaler")
    assert "worker" in by_kind(small, "HorizontalPodAutoscaler")
    triggers = by_kind(large, "ScaledObject")["worker"]["spec"]["triggers"]
    [queue] = [t for t in triggers if t["type"] == "redis"]
    assert queue["metadata"]["listName"] == "celery"  # Celery's default queue, the one used
    settings = config(large)
    assert settings["CONN_MAX_AGE"] == "0" and settings["DB_DISABLE_SERVER_SIDE_CURSORS"] == "true"
    assert config(small)["CONN_MAX_AGE"] == "60"
