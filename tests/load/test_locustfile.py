"""The deadline-rush scenario (tests/load/locustfile.py) loads and covers the service's
endpoints; no load is generated here (bin/load does that, on demand)."""

import json
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.urls import Resolver404, resolve

ROOT = Path(__file__).resolve().parents[2]
LOCUSTFILE = ROOT / "tests" / "load" / "locustfile.py"

#: What the issue asks the rush to do, by the endpoint keys of the locustfile.
REQUIRED = {
    "students sign in (form and CSRF)": {"sign_in_page", "sign_in"},
    "open the module": {"module"},
    "preview answers": {"preview"},
    "submit right, wrong and invalid answers": {"submit_right", "submit_wrong", "submit_invalid"},
    "request lab runs, finished by a worker": {"lab_request", "lab_status", "lab_finished"},
    "instructors page through the dashboard": {"dashboard_progress", "dashboard_statistics"},
    "an LMS key pulls the gradebook": {"gradebook"},
    "the bare baseline view": {"baseline"},
    "students start the quiz and autosave (exam rush)": {"exam_page", "exam_start", "exam_save"},
}
SAMPLE = {"[c]": "rush", "[p]": "1", "[lab]": "rnn", "[run]": str(uuid.uuid4()),
          "[quiz]": "quiz-1", "[attempt]": "1"}


@pytest.fixture(scope="module")
def scenario() -> dict:
    """The locustfile imported by Locust's own loader, in a process of its own (Locust
    patches the standard library with gevent when imported)."""
    code = (
        "import json, inspect; from locust.util.load_locustfile import load_locustfile; "
        f"users = load_locustfile({str(LOCUSTFILE)!r})[0]; "
        "import tests.load.locustfile as f; "
        "print(json.dumps({'endpoints': f.ENDPOINTS, 'users': {n: [t.__name__ for t in u.tasks] "
        "for n, u in users.items()}}))"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_the_locustfile_defines_students_instructors_an_lms_exam_students_and_the_baseline(
        scenario):
    users = scenario["users"]
    assert set(users) == {"StudentUser", "InstructorUser", "LmsUser", "ExamStudent",
                          "BaselineUser"}
    assert all(users.values()), users  # every user has tasks


@pytest.mark.parametrize("activity", sorted(REQUIRED))
def test_the_scenario_covers(activity, scenario):
    source = LOCUSTFILE.read_text()
    for key in REQUIRED[activity]:
        assert key in scenario["endpoints"], key
        # Requested by its key, or a submit by its kind (f"submit_{kind}").
        requested = re.search(rf'"{key}"', source) or (
            key.startswith("submit_") and 'f"submit_{kind}"' in source
            and f'"{key.removeprefix("submit_")}"' in source)
        assert requested, f"endpoint {key} is named but never requested"


def test_every_http_endpoint_of_the_scenario_is_a_route_of_the_service(scenario):
    for key, name in scenario["endpoints"].items():
        if " /" not in name:
            continue  # the lab run's duration is not a request
        path = name.split(" ")[1].split("?")[0]
        for placeholder, value in SAMPLE.items():
            path = path.replace(placeholder, value)
        urlconf = "config.load_urls" if key == "baseline" else "config.urls"
        try:
            resolve(path, urlconf=urlconf)
        except Resolver404:
            pytest.fail(f"{key}: {path} is not a route")
        if key == "baseline":
            with pytest.raises(Resolver404):
                resolve(path, urlconf="config.urls")
