"""Browser tests: Debian's Chromium driven by Playwright against pytest-django's live server.

Playwright's sync API keeps an event loop running in the test thread, so Django's ORM must be
told that this is safe here (it is: the test and the live server use their own connections).
"""

import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.factories import TEST_PASSWORD

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-quic",
                 "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def require_chromium() -> None:
    """Skip when Chromium is missing locally; fail in CI, where a skip would hide a gap."""
    if CHROMIUM.exists():
        return
    message = f"Chromium is not installed at {CHROMIUM}"
    if os.environ.get("CI"):
        pytest.fail(f"{message} (CI must provide it: apt-get install chromium)")
    pytest.skip(message)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    require_chromium()
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "headless": True,
            "args": CHROMIUM_ARGS}


@dataclass
class Requests:
    """Every URL the browser asked for while a test ran."""

    urls: list[str] = field(default_factory=list)

    def foreign(self, allowed_netloc: str) -> list[str]:
        return [url for url in self.urls
                if urlparse(url).scheme not in ("data", "about", "blob")
                and urlparse(url).netloc != allowed_netloc]


@pytest.fixture
def requests_seen(page: Page, live_server) -> Iterator[Requests]:
    """Records every request; after the test, none may have gone to another host."""
    seen = Requests()
    page.on("request", lambda request: seen.urls.append(request.url))
    yield seen
    netloc = urlparse(live_server.url).netloc
    assert seen.foreign(netloc) == [], "the pages asked another host for something"


@pytest.fixture
def screenshot(page: Page, request: pytest.FixtureRequest):
    """Save a full-page screenshot under test-artifacts/ (named after the test and a label)."""
    ARTIFACTS.mkdir(exist_ok=True)
    test_name = re.sub(r"[^A-Za-z0-9_.-]+", "-", request.node.name)

    def take(label: str) -> Path:
        path = ARTIFACTS / f"{test_name}--{label}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


def sign_in(page: Page, live_server, username: str, password: str = TEST_PASSWORD) -> None:
    """Sign in through the sign-in form, as a person would."""
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Your courses")).to_be_visible()


#: Reports every Content-Security-Policy violation of every page of a context to the test
#: (the securitypolicyviolation event; Chromium also writes each to the console).
CSP_REPORTER = """
document.addEventListener("securitypolicyviolation", function (e) {
  window.__cspViolation(location.pathname + ": " + e.violatedDirective + " blocked "
                        + (e.blockedURI || "inline") + " at " + (e.sourceFile || "?") + ":"
                        + e.lineNumber);
});
"""


def csp_watched(context: BrowserContext) -> list[str]:
    """Watch every page the context opens for CSP violations; returns the list they are
    added to (events and console messages), for the test to assert empty."""
    found: list[str] = []
    context.expose_function("__cspViolation", lambda text: found.append(text))
    context.add_init_script(CSP_REPORTER)
    context.on("console", lambda message: found.append(f"console: {message.text}")
               if "Content Security Policy" in message.text else None)
    return found


def colour_profile(png: bytes) -> dict[str, float]:
    """How a screenshot's pixels are coloured: the share of the commonest colour, of
    near-black pixels, of near-white ones, and the number of distinct colours."""
    import io

    import numpy as np
    from PIL import Image

    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).reshape(-1, 3).astype(int)
    colours, counts = np.unique(pixels, axis=0, return_counts=True)
    total = float(len(pixels))
    return {"commonest": counts.max() / total, "colours": float(len(colours)),
            "black": float((pixels.max(axis=1) < 40).sum()) / total,
            "white": float((pixels.min(axis=1) > 235).sum()) / total}
