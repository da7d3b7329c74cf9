"""The one error of the backup tool: an operator-facing reason a backup or restore stopped."""


class BackupError(Exception):
    """A backup or restore refused or failed; the message says why and what to do.

    Raised before anything was changed whenever possible (refusals are checked first); the
    message never contains a database password.
    """
