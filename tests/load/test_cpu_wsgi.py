"""`bin/load --cpu`'s application: the service's responses unchanged, one line of CPU per
request, by Django route, into the folder of the current step (none while it is missing)."""

from pathlib import Path

from django.test import override_settings

from tests.load.cpu_wsgi import cpu_timed, route_of


def _inner(environ, start_response):
    start_response("201 Created", [("Content-Type", "text/plain")])
    return [b"one ", b"row"]


def _call(app, path: str) -> tuple[str, bytes]:
    seen: dict[str, str] = {}
    body = b"".join(app({"REQUEST_METHOD": "POST", "PATH_INFO": path},
                        lambda status, headers: seen.setdefault("status", status)))
    return seen["status"], body


@override_settings(ROOT_URLCONF="config.load_urls")
def test_each_request_is_answered_as_before_and_its_cpu_written_under_its_route(tmp_path: Path):
    app = cpu_timed(_inner, tmp_path)

    assert _call(app, "/load/baseline/") == ("201 Created", b"one row")
    assert _call(app, "/no/such/page/") == ("201 Created", b"one row")

    (recorded,) = tmp_path.glob("cpu-*.tsv")
    lines = [line.split("\t") for line in recorded.read_text().splitlines()]
    assert [route for route, _ in lines] == ["POST load/baseline/", "POST other"]
    assert all(float(ms) >= 0 for _, ms in lines)


def test_nothing_is_recorded_while_the_step_folder_is_missing(tmp_path: Path):
    app = cpu_timed(_inner, tmp_path / "cpu-now")
    assert _call(app, "/health/live/") == ("201 Created", b"one row")
    assert not list(tmp_path.iterdir())


def test_a_route_is_django_s_pattern_not_the_address():
    assert route_of({"REQUEST_METHOD": "GET", "PATH_INFO": "/courses/rnn/parts/12/answer/"}) \
        == "GET courses/<slug:course_slug>/parts/<int:part_id>/answer/"
