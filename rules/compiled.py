"""Compiling the project's hot loops with numba, where it is installed (it is a dependency).

``rules.exact_search`` (the slide search) and ``vision.kernels`` (the reader's inner loops)
are written so that the same source runs as plain Python and, through :func:`compiled`,
as machine code. Set ``CALLER_NO_NUMBA=1`` in the environment to run them as plain Python
(the tests check that both give the same answers). Numba itself is imported at the first
call of :func:`compiled` (the slide search's first search; ``vision.kernels``' import), not
here: it takes half a second that commands which never need it (``caller --help``) should not
pay. A fresh install compiles each function at its first call (the slide search in a second
or two, the reader's kernels in about a minute); numba caches the results next to the source
files (or in its user cache when that is read-only), and ``scripts/setup.sh`` makes those
first calls.
"""

from __future__ import annotations

import importlib.util
import os
from functools import lru_cache
from typing import Callable

#: Whether the hot loops run compiled: numba is installed and not switched off.
COMPILED = os.environ.get("CALLER_NO_NUMBA", "") in ("", "0") and importlib.util.find_spec("numba") is not None


@lru_cache(maxsize=None)
def compiled(fn: Callable) -> Callable:
    """``fn`` compiled (loaded from numba's cache after the first time), or ``fn`` itself."""
    if not COMPILED:
        return fn
    from numba import njit

    return njit(cache=True)(fn)
