"""Pagination of API lists: ?limit=&offset= with a bounded page size."""

from rest_framework.pagination import LimitOffsetPagination


class Pagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 500
