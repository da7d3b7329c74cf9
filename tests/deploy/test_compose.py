"""The Compose file (deploy/compose/compose.yaml): valid against the Compose Specification's
JSON schema, its grader services run the image's commands in order (migrations first, to
completion), its settings come from the env file and are ones the code reads, and its nginx
routes WebSockets to daphne and serves the static volume."""

import json
import re
from typing import Any

import jsonschema
import pytest
import yaml

from tests.deploy.environment import ROOT, entrypoint_modes, environment_names, read

COMPOSE_DIR = ROOT / "deploy" / "compose"
SCHEMA = json.loads((ROOT / "tests" / "fixtures" / "compose-spec" / "compose-spec.json").read_text())
# Compose's own variables (interpolated into the file, not passed to the service as such).
COMPOSE_ONLY = {"GRADER_IMAGE", "POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB", "HTTP_PORT",
                "HTTPS_PORT", "TLS_CERTIFICATES"}


def compose() -> dict[str, Any]:
    return dict(yaml.safe_load((COMPOSE_DIR / "compose.yaml").read_text()))


def grader_services() -> dict[str, dict[str, Any]]:
    return {name: service for name, service in compose()["services"].items()
            if "GRADER_IMAGE" in str(service.get("image"))}


def env_example() -> dict[str, str]:
    pairs = [line.split("=", 1) for line in read("deploy/compose/.env.example").splitlines()
             if line and not line.startswith("#")]
    return {key: value for key, value in pairs}


def test_the_compose_file_validates_against_the_compose_specification_schema():
    jsonschema.Draft7Validator(SCHEMA).validate(compose())


def test_the_schema_refuses_a_compose_file_with_an_unknown_service_key():
    broken = compose()
    broken["services"]["web"]["replica"] = 2  # a typo of deploy.replicas
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft7Validator(SCHEMA).validate(broken)


def test_every_grader_service_runs_an_entrypoint_mode_and_waits_for_the_migrations():
    services = grader_services()
    assert {service["command"][0] for service in services.values()} <= entrypoint_modes()
    assert services["migrate"]["command"] == ["migrate"]
    assert services["migrate"]["restart"] == "no"
    for name in ("web", "asgi", "worker", "beat"):
        depends = services[name]["depends_on"]
        assert depends["migrate"] == {"condition": "service_completed_successfully"}, name
        assert depends["redis"] == {"condition": "service_healthy"}, name
    assert services["migrate"]["depends_on"]["postgres"] == {"condition": "service_healthy"}
    assert services["backup"]["profiles"] == ["tools"]  # run on demand, not by `up`


def test_state_lives_in_named_volumes():
    document = compose()
    named = set(document["volumes"])
    assert {"pgdata", "redisdata", "static", "backups"} <= named
    mounts = [volume.split(":")[0] for service in document["services"].values()
              for volume in service.get("volumes", [])]
    assert "pgdata" in mounts and "static" in mounts and "backups" in mounts
    for mount in mounts:
        assert mount in named or mount.startswith(("./", "${")), mount


def test_settings_come_from_the_env_file_and_are_ones_the_code_reads():
    services = grader_services()
    assert all(service["env_file"] == [".env"] for service in services.values())
    example = env_example()
    assert example["SECRET_KEY"] == "" and example["POSTGRES_PASSWORD"] == ""  # no secret shipped
    known = environment_names()
    for key in set(example) - COMPOSE_ONLY:
        assert key in known, f".env.example sets {key}, which nothing reads"
    for service in services.values():
        for key in service["environment"]:
            assert key in known, key
    interpolated = set(re.findall(r"\$\{([A-Z_]+)", read("deploy/compose/compose.yaml")))
    assert interpolated <= set(example), interpolated - set(example)


def test_nginx_sends_websockets_to_daphne_pages_to_gunicorn_and_serves_the_static_volume():
    conf = read("deploy/compose/nginx/grader.conf")
    assert re.search(r"upstream grader_web \{\s*server web:8000;", conf)
    assert re.search(r"upstream grader_asgi \{\s*server asgi:8001;", conf)
    websockets = conf.split("location /ws/ {", 1)[1].split("}", 1)[0]
    assert "proxy_pass http://grader_asgi;" in websockets
    assert 'proxy_set_header Connection "upgrade";' in websockets
    assert "alias /srv/static/;" in conf
    proxy = compose()["services"]["proxy"]
    assert "static:/srv/static:ro" in proxy["volumes"]
    assert "./nginx/grader.conf:/etc/nginx/conf.d/default.conf:ro" in proxy["volumes"]
