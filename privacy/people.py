"""Finding the person a data request is about."""

from django.contrib.auth.models import User
from django.db.models import Q


class PersonNotFound(LookupError):
    """No account, or more than one, matches; the message says which."""


def person_find(identifier: str) -> User:
    """The account named by `identifier`: a user id, a username, or an e-mail that exactly one
    account has (case-insensitive). Raises PersonNotFound otherwise."""
    text = identifier.strip()
    query = Q(username=text) | Q(email__iexact=text) if text else Q(pk__in=[])
    if text.isdigit():
        query |= Q(pk=int(text))
    found = list(User.objects.filter(query).distinct()[:2])
    if not found:
        raise PersonNotFound(f"No account matches {text!r}.")
    if len(found) > 1:
        raise PersonNotFound(f"More than one account matches {text!r}; give the user id.")
    return found[0]
