"""The embedded broker (kombu's filesystem transport) without its write/read race.

The bug (kombu 5.x): `_put` creates the message file, then locks it and writes; `_get`
lists the folder and moves the oldest file away with `shutil.move`, which ignores the lock.
A worker that looks between the create and the write reads an empty (or half-written) file:
`JSONDecodeError` is not a connection error to Celery, so the worker logs "Unrecoverable
error" and exits for good, and the message is lost (the writer finishes writing into a file
the reader has already removed). Seen in the test suite: a lab run stayed "Queued" because
beat's sweep message killed the worker as it was being written.

This transport (registered in place of kombu's for `filesystem://` by
`filesystem_broker_install()`, called from ops/celery_setup.py in every process that uses
the Celery app) writes each message under a temporary name and renames it into the queue
(`os.replace`, atomic within a folder), so a reader only ever sees whole messages; a reader
claims a message by renaming it within the folder, so two workers never take the same one;
and a message that still cannot be read (a file left by another program, a disk fault) is
set aside as `*.unreadable` with an error in the log instead of stopping the worker.
"""

import logging
import os
import uuid
from queue import Empty
from time import monotonic
from typing import Any, cast

from kombu import transport as kombu_transport
from kombu.exceptions import ChannelError
from kombu.transport import TRANSPORT_ALIASES, filesystem
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads

logger = logging.getLogger(__name__)

#: Prefixes of files that are not (yet, or any longer) messages of a queue: kombu's own
#: pattern `<time>_<uuid>.<queue>.msg` never starts with a dot.
WRITING = ".writing-"
CLAIMED = ".claimed-"
UNREADABLE_SUFFIX = ".unreadable"


class Channel(filesystem.Channel):
    """kombu's filesystem channel with atomic puts and claims (module docstring)."""

    # The stubs of kombu's two base classes disagree on this signature (payload vs message):
    # this one follows the filesystem channel it replaces.
    def _put(  # type: ignore[override]
        self, queue: str, payload: dict[str, Any], **kwargs: Any
    ) -> None:
        """Write `payload` as a new message of `queue`: complete before it is visible."""
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        folder = self.data_folder_out
        temporary = os.path.join(folder, f"{WRITING}{name}")
        try:
            with open(temporary, "wb") as file:
                file.write(str_to_bytes(dumps(payload)))
            os.replace(temporary, os.path.join(folder, name))
        except OSError as exc:
            raise ChannelError(f"Cannot add file {name!r} to directory") from exc

    def _get(self, queue: str, timeout: float | None = None) -> Any:
        """The oldest whole message of `queue`, taken from the folder; Empty if none."""
        wanted = f"{queue}.msg"
        folder = self.data_folder_in
        for name in sorted(os.listdir(folder)):
            if name.partition(".")[2] != wanted:
                continue
            claimed = os.path.join(folder, f"{CLAIMED}{uuid.uuid4().hex}-{name}")
            try:
                os.rename(os.path.join(folder, name), claimed)
            except OSError:
                continue  # another worker took it first
            try:
                with open(claimed, "rb") as file:
                    payload = file.read()
            except OSError as exc:
                raise ChannelError(f"Cannot read file {name!r} from queue.") from exc
            try:
                message = loads(bytes_to_str(payload))
            except ValueError:
                aside = self._into_processed(claimed, name + UNREADABLE_SUFFIX)
                logger.error("broker message %s of queue %s is unreadable (%d bytes); set "
                             "aside as %s", name, queue, len(payload), aside)
                continue
            if self.store_processed:
                self._into_processed(claimed, name)
            else:
                os.remove(claimed)
            return message
        raise Empty()

    def _into_processed(self, claimed: str, name: str) -> str:
        """Move the claimed file into the processed folder as `name`; its new path."""
        os.makedirs(self.processed_folder, exist_ok=True)
        target = os.path.join(self.processed_folder, name)
        os.replace(claimed, target)
        return target


class Transport(filesystem.Transport):
    """kombu's filesystem transport with this module's Channel."""

    Channel = Channel


def filesystem_broker_install() -> None:
    """Make `filesystem://` broker URLs use this module's Transport (idempotent)."""
    TRANSPORT_ALIASES["filesystem"] = f"{__name__}:Transport"
    # kombu caches the class it resolved for an alias: forget kombu's own if it was resolved.
    cast(Any, kombu_transport)._transport_cache.pop("filesystem", None)
