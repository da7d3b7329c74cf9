"""Redaction of secrets and students' answers from log events, before anything is written.

`redact_event` is a structlog processor, run on every line (the service's own structlog
events and the standard-library records of Django, Celery and the libraries alike). It
replaces the values of sensitive keys (passwords, tokens, cookies, sessions, JWTs, answers'
text) with REDACTED, at any depth, and scrubs strings of what can be recognised anywhere:
bearer tokens, API keys (grk_...), JWTs, passwords in URLs and sensitive query parameters.
It cannot recognise an answer's text inside a free sentence; the rule for code is never to
pass an answer to a logger (log the submission id).
"""

import re
from collections.abc import Mapping, MutableMapping
from typing import Any

REDACTED = "[redacted]"

#: Keys whose values are never logged (compared lower-case, "-" read as "_").
SENSITIVE_KEYS = frozenset({
    "password", "password1", "password2", "old_password", "new_password", "new_password1",
    "new_password2", "passwd", "secret", "secret_key", "client_secret", "token", "api_key",
    "apikey", "x_api_key", "authorization", "http_authorization", "proxy_authorization",
    "cookie", "cookies", "http_cookie", "set_cookie", "sessionid", "session", "session_key",
    "csrftoken", "csrfmiddlewaretoken", "jwt", "id_token", "lti_jwt", "raw_answer",
    "raw_answers", "answer", "answers", "prediction", "signature", "x_grader_signature",
})
_SENSITIVE_SUFFIXES = ("_password", "_secret", "_token", "_jwt", "_answer", "_cookie")

# q, search, query, email, username: staff searches (`progress/?q=<name or e-mail>`) name a
# person, and a log line must not outlive that person's erasure.
_QUERY_NAMES = (r"password|passwd|token|access_token|id_token|api_key|apikey|key|secret|"
                r"sessionid|csrftoken|csrfmiddlewaretoken|jwt|answer|raw_answer|"
                r"q|search|query|email|username")
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # Authorization: Bearer <token>, wherever it appears.
    (re.compile(r"(?i)\b(bearer)(\s+)[A-Za-z0-9._~+/=-]{8,}"), rf"\1\2{REDACTED}"),
    # API keys of this service.
    (re.compile(r"\bgrk_[A-Za-z0-9_-]+"), f"grk_{REDACTED}"),
    # JWTs (LTI launches, id_token): three base64url parts, the first a JSON header.
    (re.compile(r"\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*"), REDACTED),
    # Credentials in URLs: scheme://user:password@host
    (re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^/\s:@]*:)[^@\s/]+@"), rf"\1{REDACTED}@"),
    # Sensitive query-string or cookie parameters: name=value
    (re.compile(rf"(?i)(?<![A-Za-z0-9_])({_QUERY_NAMES})=[^&;\s\"']+"), rf"\1={REDACTED}"),
)


def sensitive_key(key: object) -> bool:
    """Whether a value stored under `key` must never be logged."""
    if not isinstance(key, str):
        return False
    name = key.lower().replace("-", "_")
    return name in SENSITIVE_KEYS or name.endswith(_SENSITIVE_SUFFIXES)


def scrub(text: str) -> str:
    """`text` with recognisable secrets (tokens, API keys, JWTs, URL passwords, sensitive
    query parameters) replaced by REDACTED."""
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def redact(value: Any) -> Any:
    """A copy of `value` with sensitive keys' values replaced and every string scrubbed;
    containers are walked (dicts, lists, tuples), other values are returned as they are."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, Mapping):
        return {key: REDACTED if sensitive_key(key) else redact(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(redact(item) for item in value)
    return value


def redact_event(_logger: Any, _method: str, event_dict: MutableMapping[str, Any]
                 ) -> MutableMapping[str, Any]:
    """structlog processor: `event_dict` with every value redacted (see the module)."""
    for key in list(event_dict):
        event_dict[key] = REDACTED if sensitive_key(key) else redact(event_dict[key])
    return event_dict
