"""The names of the events apps emit, each registered by its app in AppConfig.ready().

The outbox and delivery never name an event themselves: grading registers
"submission.graded", labs "lab_run.finished", and a subscription may only ask for a name
registered here.
"""

_EVENT_TYPES: dict[str, str] = {}


def event_type_register(name: str, description: str) -> None:
    """Make event `name` known (idempotent: an app's ready() may run more than once)."""
    _EVENT_TYPES[name] = description


def event_types() -> dict[str, str]:
    """Every registered event name and what it means, by name."""
    return dict(sorted(_EVENT_TYPES.items()))
