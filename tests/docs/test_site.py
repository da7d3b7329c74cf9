"""The guides build as a site (issue 25, item 13): `mkdocs build --strict` fails on a broken
link, a missing snippet or a page left out of the navigation, so these tests do too."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MKDOCS = Path(sys.executable).with_name("mkdocs")


def _build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(MKDOCS), "build", "--strict", "-f", str(config), "-d", str(site)],
                          cwd=ROOT, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "NO_MKDOCS_2_WARNING": "1"})


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    built = _build(ROOT / "mkdocs.yml", out)
    assert built.returncode == 0, built.stdout + built.stderr
    return out


def test_the_guides_build_strictly_with_every_page(site) -> None:
    for page in (ROOT / "docs").glob("*.md"):
        assert (site / page.with_suffix(".html").name).exists(), page.name
    # The snippets pulled in from the code's own READMEs are there.
    assert "numeric" in (site / "answer-types.html").read_text()
    assert "module.toml" in (site / "content-format.html").read_text()


def test_the_site_loads_nothing_from_another_host(site) -> None:
    for page in site.glob("*.html"):
        text = page.read_text()
        assert "fonts.googleapis" not in text and "cdn." not in text, page.name


def test_a_broken_link_fails_the_build(tmp_path) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    (docs / "using.md").write_text((docs / "using.md").read_text() + "\n[gone](gone.md)\n")
    config = tmp_path / "mkdocs.yml"
    config.write_text((ROOT / "mkdocs.yml").read_text().replace("docs_dir: docs",
                                                               f"docs_dir: {docs}"))
    built = _build(config, tmp_path / "site")
    assert built.returncode != 0
    assert "gone.md" in built.stdout + built.stderr


@pytest.mark.django_db
def test_the_service_serves_the_guides_and_links_them_from_every_page(client) -> None:
    home = client.get("/accounts/login/").content.decode()
    assert 'href="/docs/"' in home  # the footer
    index = client.get("/docs/")
    assert index.status_code == 200
    text = index.content.decode()
    assert 'href="api.html"' in text and ".md\"" not in text
    for page in (ROOT / "docs").glob("*.md"):
        response = client.get(f"/docs/{page.stem}.html")
        assert response.status_code == 200, page.name
        assert "--8&lt;--" not in response.content.decode() and "--8<--" not in response.content.decode()
    assert "numeric" in client.get("/docs/answer-types.html").content.decode()
    assert client.get("/docs/nothing-here.html").status_code == 404
    assert client.get("/docs/..%2Fpyproject.html").status_code == 404
