"""Reading a context's memberships from the platform's NRPS endpoint, every page of them."""

from dataclasses import dataclass
from typing import Any

from lti_tool.models import LtiContext

from lti.ags.connector import NRPS_SCOPES, PlatformClient, PlatformError

MEMBERSHIPS_TYPE = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
#: Pages followed at most (a platform that links pages in a loop must not hang a worker).
MAX_PAGES = 500


@dataclass(frozen=True)
class Member:
    """One member as NRPS describes them."""

    user_id: str
    name: str
    email: str
    roles: tuple[str, ...]
    active: bool
    given_name: str = ""
    family_name: str = ""


def memberships_read(*, context: LtiContext) -> list[Member]:
    """Every member of the context, following the `Link: <...>; rel="next"` pages.

    Raises PlatformError when the context has no memberships URL or a page fails.
    """
    if not context.memberships_url:
        raise PlatformError("The platform gave no memberships URL for this course (is Names "
                            "and Role Provisioning enabled for the tool?)", status=None,
                            transient=False)
    client = PlatformClient(context.deployment.registration)
    url: str | None = context.memberships_url
    members: list[Member] = []
    for _ in range(MAX_PAGES):
        if url is None:
            return members
        page = client.call("GET", url, scopes=NRPS_SCOPES, accept=MEMBERSHIPS_TYPE)
        body = page.body if isinstance(page.body, dict) else {}
        members += [_member(m) for m in body.get("members") or [] if _valid(m)]
        url = page.next_url
    raise PlatformError(f"more than {MAX_PAGES} pages of members", status=None, transient=False)


def _valid(raw: Any) -> bool:
    return isinstance(raw, dict) and bool(str(raw.get("user_id") or "").strip())


def _member(raw: dict[str, Any]) -> Member:
    given, family = str(raw.get("given_name") or ""), str(raw.get("family_name") or "")
    return Member(user_id=str(raw["user_id"]).strip(),
                  name=str(raw.get("name") or f"{given} {family}".strip()),
                  email=str(raw.get("email") or ""),
                  roles=tuple(str(r) for r in raw.get("roles") or []),
                  active=str(raw.get("status") or "Active") == "Active",
                  given_name=given, family_name=family)
