"""What a signed launch token must claim beyond its signature: numeric issue and expiry
times, a lifetime no longer than LTI_MAX_TOKEN_LIFETIME_SECONDS, the tool as authorised party
when the audience lists several clients; and claims bounded to the columns that keep them.

A claim that identifies something (the person's `sub`, the context or resource link id, the
deployment, the grade and roster service URLs) is refused when it is not a string, contains
a NUL character or is longer than its column: shortening an identity would merge two of them.
A display claim (names, titles) is shortened and loses NUL characters; an address (e-mail,
picture, platform URL) that does not fit is dropped, since a shortened one points elsewhere.
"""

from typing import Any

from pylti1p3.exception import LtiException

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
CONTEXT = LTI + "context"
RESOURCE_LINK = LTI + "resource_link"
PLATFORM = LTI + "tool_platform"
AGS = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
NRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"


class ClaimRefused(LtiException):
    """A launch refused for what its token claims; `reason` is the rejection's code."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def token_dates_check(body: dict[str, Any], *, now: float, max_lifetime: float,
                      leeway: float) -> None:
    """Raise ClaimRefused unless `iat` and `exp` are numbers (NumericDate, RFC 7519), `iat`
    (and `nbf`, if given) is not after `now` + `leeway`, `exp` is after `now` - `leeway`, and
    the token lives (`exp` - `iat`) no longer than `max_lifetime` seconds."""
    for name in ("iat", "exp"):
        if name not in body:
            raise ClaimRefused("invalid_dates", f"The token has no '{name}' claim")
        if not _is_number(body[name]):
            raise ClaimRefused("invalid_dates", f"The '{name}' claim is not a number: "
                                                f"{str(body[name])[:40]!r}")
    if "nbf" in body and not _is_number(body["nbf"]):
        raise ClaimRefused("invalid_dates", "The 'nbf' claim is not a number")
    issued, expires = float(body["iat"]), float(body["exp"])
    if issued > now + leeway or float(body.get("nbf", issued)) > now + leeway:
        raise ClaimRefused("issued_in_future",
                           f"The token was issued {issued - now:.0f} s in the future")
    if expires <= now - leeway:
        raise ClaimRefused("expired_token", "The token has expired")
    if expires - issued > max_lifetime:
        raise ClaimRefused("token_lifetime",
                           f"The token lives {expires - issued:.0f} s, more than the "
                           f"{max_lifetime:.0f} s allowed (LTI_MAX_TOKEN_LIFETIME_SECONDS)")


def authorised_client(body: dict[str, Any]) -> str:
    """The client id a token is for: its single audience, or with several audiences the
    authorised party (`azp`) when the audience lists it. Raises ClaimRefused (wrong_audience)
    when an audience list has no `azp` among its entries, or `azp` is not the audience."""
    audience = body.get("aud")
    party = body.get("azp")
    if isinstance(audience, str):
        audience = [audience]
    if not isinstance(audience, list) or not audience or not all(
            isinstance(a, str) for a in audience):
        raise ClaimRefused("wrong_audience", "The token has no audience")
    if len(audience) > 1 and party is None:
        raise ClaimRefused("wrong_audience",
                           "The token has several audiences and no authorised party (azp)")
    if party is not None and party not in audience:
        raise ClaimRefused("wrong_audience", "The authorised party (azp) is not an audience")
    return str(party if party is not None else audience[0])


# (claim path, column length, what happens to a value that does not fit)
_IDENTITY, _DISPLAY, _ADDRESS = "identity", "display", "address"
_BOUNDS: list[tuple[tuple[str, ...], int, str]] = [
    (("sub",), 255, _IDENTITY),
    ((LTI + "deployment_id",), 255, _IDENTITY),
    ((CONTEXT, "id"), 255, _IDENTITY),
    ((RESOURCE_LINK, "id"), 255, _IDENTITY),
    ((PLATFORM, "guid"), 255, _IDENTITY),
    ((AGS, "lineitems"), 200, _IDENTITY),
    ((AGS, "lineitem"), 200, _IDENTITY),
    ((NRPS, "context_memberships_url"), 200, _IDENTITY),
    (("given_name",), 500, _DISPLAY),
    (("family_name",), 500, _DISPLAY),
    (("name",), 500, _DISPLAY),
    ((CONTEXT, "title"), 500, _DISPLAY),
    ((CONTEXT, "label"), 255, _DISPLAY),
    ((RESOURCE_LINK, "title"), 500, _DISPLAY),
    ((RESOURCE_LINK, "description"), 10_000, _DISPLAY),
    ((PLATFORM, "name"), 500, _DISPLAY),
    ((PLATFORM, "description"), 10_000, _DISPLAY),
    ((PLATFORM, "product_family_code"), 500, _DISPLAY),
    ((PLATFORM, "version"), 500, _DISPLAY),
    (("email",), 254, _ADDRESS),
    (("picture",), 200, _ADDRESS),
    ((PLATFORM, "contact_email"), 254, _ADDRESS),
    ((PLATFORM, "url"), 200, _ADDRESS),
]


def _bounded(value: object, length: int, kind: str, name: str) -> object:
    if value is None:
        return None
    if kind == _IDENTITY:
        if not isinstance(value, str) or "\x00" in value or len(value) > length:
            shown = str(value)[:40] + ("..." if len(str(value)) > 40 else "")
            raise ClaimRefused("invalid_message", f"The '{name}' claim is not a string of at "
                                                  f"most {length} characters: {shown!r}")
        return value
    if not isinstance(value, str):
        return ""
    value = value.replace("\x00", "")
    if kind == _DISPLAY:
        return value[:length]
    return value if len(value) <= length else ""


def claims_bound(body: dict[str, Any]) -> None:
    """Bound the claims of `body` (in place) to the columns that keep them, as the module
    docstring says; raises ClaimRefused (invalid_message) for an identity that does not fit."""
    for path, length, kind in _BOUNDS:
        holder: Any = body
        for key in path[:-1]:
            holder = holder.get(key) if isinstance(holder, dict) else None
        if not isinstance(holder, dict) or path[-1] not in holder:
            continue
        holder[path[-1]] = _bounded(holder[path[-1]], length, kind, path[-1])
    for key in (CONTEXT, RESOURCE_LINK, PLATFORM, AGS, NRPS, LTI + "custom"):
        if key in body and not isinstance(body[key], dict):
            raise ClaimRefused("invalid_message", f"The '{key}' claim is not an object")

