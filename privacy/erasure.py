"""Erasing one person's data: every registered source removes or anonymises what it holds,
in one transaction, and the erasure is recorded in the audit log (without the data)."""

import logging
import secrets

from django.contrib.auth.models import User
from django.db import transaction

from core.personal_data import personal_data_sources
from privacy.models import ErasureRecord

logger = logging.getLogger(__name__)


class ErasureRefused(Exception):
    """The erasure was not done; the message says why."""


@transaction.atomic(durable=True)
def personal_data_erase(*, user: User, requested_by: User | None = None,
                        reason: str = "") -> ErasureRecord:
    """Remove or anonymise everything the service holds about `user` and record it.

    The account stays, under a stable pseudonym ("erased-..."), so that the class's
    statistics still add up; names, e-mail, external ids, answer text and feedback are gone
    from every table a source covers. Erasing an already erased person runs every source
    again (a source added since then gets its turn) and keeps the first pseudonym. Raises
    ErasureRefused for the requester's own account.
    """
    if requested_by is not None and requested_by.pk == user.pk:
        raise ErasureRefused("You cannot erase your own account here; ask another administrator.")
    record = ErasureRecord.objects.select_for_update().filter(user=user).first()
    pseudonym = record.pseudonym if record is not None else f"erased-{secrets.token_hex(6)}"
    changed = {source.name: source.erase(user, pseudonym) for source in personal_data_sources()}
    if record is None:
        record = ErasureRecord.objects.create(user=user, pseudonym=pseudonym,
                                              requested_by=requested_by, reason=reason[:200],
                                              changed=changed)
    else:
        ErasureRecord.objects.filter(pk=record.pk).update(changed=changed)
    logger.warning("erased personal data of user %s (now %s): %s", user.pk, pseudonym, changed)
    return record
