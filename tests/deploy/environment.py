"""What the deployment tests compare the artifacts with: the environment variables the code
reads, the entrypoint's modes, and the process table of docs/scaling.md."""

import re

from tests.workers import ROOT

ENTRYPOINT = ROOT / "deploy" / "entrypoint.sh"
# Packages of the service (tests and benchmarks excluded).
_CODE = ("config", "core", "ops", "courses", "grading", "labs", "events", "api", "student",
         "instructor", "lti", "live", "privacy", "backups", "demo")
_READ = re.compile(r"""(?:\benv|\b_env|\benviron|os\.environ|os\.getenv)(?:\.\w+)?[\(\[]\s*"""
                   r"""(?:\n\s*)?["']([A-Z][A-Z0-9_]+)["']""")
_SHELL = re.compile(r"\$\{([A-Z][A-Z0-9_]+)")


def settings_environment_names() -> set[str]:
    """Every environment variable name the service's Python code reads."""
    names: set[str] = set()
    for package in _CODE:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                names |= set(_READ.findall(path.read_text()))
    return names


def entrypoint_environment_names() -> set[str]:
    """The variables deploy/entrypoint.sh reads."""
    return set(_SHELL.findall(ENTRYPOINT.read_text()))


def environment_names() -> set[str]:
    """Every variable a deployment may set: read by the code or by the entrypoint."""
    return settings_environment_names() | entrypoint_environment_names()


def entrypoint_modes() -> set[str]:
    """The commands deploy/entrypoint.sh accepts (the labels of its `case`)."""
    return set(re.findall(r"^  ([a-z][a-z-]*)\)$", ENTRYPOINT.read_text(), re.M))


def scaling_process_table() -> list[dict[str, str]]:
    """The rows of docs/scaling.md's "Where each deployment runs them" table, by column name,
    backquotes dropped."""
    text = (ROOT / "docs" / "scaling.md").read_text()
    section = text.split("### Where each deployment runs them", 1)[1].split("\n### ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    rows = []
    for line in lines[2:]:
        cells = [cell.strip().replace("`", "") for cell in line.strip("|").split("|")]
        rows.append(dict(zip(header, cells, strict=True)))
    return rows


def read(path: str) -> str:
    return (ROOT / path).read_text()

