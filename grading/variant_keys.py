"""A variant's identity as a short digest of its drawn parameters: students whose draws are
equal share a key whatever their seeds, so statistics group students by variant in the
database (PartProgress.variant_key) instead of drawing 50,000 seeds on every page."""

import hashlib
import json
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from grading.variants import variant_drawer

#: Seeds whose keys a process remembers (~10 MB; two classes of 50,000).
KEYS_KEPT = 100_000


def parameter_definitions(parameters: Mapping[str, Any] | None) -> str:
    """The exercise's parameter definitions as canonical JSON (the cache key of the draws)."""
    return json.dumps(parameters or {}, sort_keys=True)


@lru_cache(maxsize=16)
def _drawer(definitions: str) -> Callable[[int | None], dict[str, Any]]:
    return variant_drawer(json.loads(definitions))


@lru_cache(maxsize=KEYS_KEPT)
def variant_key(definitions: str, seed: int | None) -> str:
    """The digest (32 hex characters) of the parameters seed `seed` draws under
    `definitions` (see `parameter_definitions`; seed None: the defaults); "" for an exercise
    without parameters (one variant). Remembered per process: a draw costs ~20 us. Raises
    ValueError for invalid definitions."""
    if definitions == "{}":
        return ""
    drawn = _drawer(definitions)(seed)
    text = repr(sorted((name, repr(value)) for name, value in drawn.items()))
    return hashlib.sha256(text.encode()).hexdigest()[:32]
