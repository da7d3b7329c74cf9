"""Pages of a query whose size the caller already knows."""

from typing import Any

from django.core.paginator import Paginator


class KnownCountPaginator(Paginator):
    """A Paginator told its count (kept totals, or a count without the sort's joins), so it
    does not count the ordered query itself; otherwise Django's (`get_page` clamps a page
    past the last to the last)."""

    def __init__(self, object_list: Any, per_page: int, *, count: int) -> None:
        super().__init__(object_list, per_page)
        self._known = count

    @property
    def count(self) -> int:
        return self._known
