"""Which of a command's arguments are its inputs, for ``outputs.check_outputs``.

Every command checks its output paths with ``check(outputs, inputs)`` before the work
starts, so a bad path (a folder, a missing folder, one of its own inputs) costs nothing.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from rules.outputs import OutputError, check_outputs


def profile_files(profile: str | os.PathLike | None) -> list[str]:
    """The files of a piece-set profile named by its stem or either file (``myset``, ``myset.json``)."""
    if profile is None:
        return []
    p = Path(profile)
    if p.suffix in (".json", ".npz"):
        p = p.with_suffix("")
    if p.name in ("", ".", ".."):
        return []
    return [str(p.with_name(p.name + ".json")), str(p.with_name(p.name + ".npz"))]


def profile_outputs(out: str) -> list[str]:
    """The two files ``--out PROFILE`` writes; OutputError when ``out`` names a folder instead of a profile."""
    files = profile_files(out)
    if not files or out.endswith(("/", os.sep)) or os.path.isdir(out):
        raise OutputError(out, "is a folder: expected a profile name such as myset or DIR/myset")
    return files


def check(outputs: Iterable[str | os.PathLike | None], inputs: Iterable[str | os.PathLike | None] = (),
          profile: str | os.PathLike | None = None) -> None:
    """Raise OutputError unless every output can be written without touching an input (``profile``'s files too)."""
    check_outputs(outputs, [*inputs, *profile_files(profile)])
