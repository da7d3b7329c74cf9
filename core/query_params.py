"""Query parameters every interface reads the same way."""


def int_param(value: str | None, default: int = 1) -> int:
    """A positive integer query parameter, or `default` when missing or malformed."""
    try:
        number = int(value or "")
    except ValueError:
        return default
    return number if number > 0 else default
