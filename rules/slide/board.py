"""The size of a Slide grid, shared by the rules (``state``) and their verdicts (``reasons``),
which may not import each other both ways."""

from __future__ import annotations

SIZE = 4
SHAPE = (SIZE, SIZE)
