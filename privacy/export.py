"""Exporting everything the service holds about one person, as JSON and as a readable page."""

import json
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.template.loader import render_to_string
from django.utils import timezone

from core.personal_data import personal_data_sources

FORMAT_VERSION = 1


def personal_data_export(*, user: User) -> dict[str, Any]:
    """Every registered source's data about `user`, by source name (JSON-ready)."""
    return {
        "format": FORMAT_VERSION,
        "exported_at": timezone.now().isoformat(),
        "user_id": user.pk,
        "data": {source.name: source.export(user) for source in personal_data_sources()},
    }


def personal_data_html(export: dict[str, Any]) -> str:
    """The export as one self-contained HTML page a person can read (escaped, no scripts)."""
    sections = [(name, json.dumps(value, indent=2, ensure_ascii=False))
                for name, value in export["data"].items()]
    return render_to_string("privacy/export.html", {"export": export, "sections": sections})


def personal_data_write(*, user: User, folder: Path) -> tuple[Path, Path]:
    """Write `user-<id>.json` and `user-<id>.html` (mode 0600) into `folder` (created);
    returns the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    export = personal_data_export(user=user)
    json_path = folder / f"user-{user.pk}.json"
    html_path = folder / f"user-{user.pk}.html"
    # Readable by the operator only (0600): the files hold a person's data.
    for path, text in ((json_path, json.dumps(export, indent=2, ensure_ascii=False)),
                       (html_path, personal_data_html(export))):
        path.touch(mode=0o600)
        path.chmod(0o600)
        path.write_text(text, encoding="utf-8")
    return json_path, html_path
