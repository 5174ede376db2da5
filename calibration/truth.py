"""Known layouts for calibration: the ``caller read`` JSON schema, validated by the game's rules.

A truth is what the camera should read in one image::

    {"board": [["S5", "Mn", ...], ..., [..., null]], "pawns": ["M", "S", "C", "A"],
     "coins": ["2", "4", "5", "a", "3"]}

``image`` and every other key (``game``, ``confidence``, a simulator's geometry) are allowed
and ignored, except ``covered`` (cells a hand hides), which calibration leaves out.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import rules
from calibration.errors import CalibrationError
from rules.errors import RulesError

GAME = "easy-slider"


@dataclass(frozen=True)
class Truth:
    """One known layout in the player's frame: ``board`` 5 x 5 codes (None = hole), ``pawns`` 4 suits
    top to bottom, ``coins`` 5 ranks left to right, ``covered`` cells to leave out, ``source`` for messages,
    ``image`` the file it belongs to (optional)."""

    board: tuple[tuple[str | None, ...], ...]
    pawns: tuple[str, ...]
    coins: tuple[str, ...]
    covered: frozenset[tuple[int, int]] = frozenset()
    source: str = "truth"
    image: str | None = None

    def to_json(self) -> dict:
        return {"board": [list(r) for r in self.board], "pawns": list(self.pawns), "coins": list(self.coins)}


def truth_from_json(obj: Any, source: str = "truth") -> Truth:
    """Validate a layout object (same schema as ``caller read``); raises CalibrationError quoting ``source``."""
    game = rules.get(GAME)
    if isinstance(obj, dict) and obj.get("game", GAME) != GAME:
        raise CalibrationError(f"{source}: a layout of game {obj.get('game')!r}, calibration learns {GAME!r} sets")
    try:
        state = game.from_json(obj)
    except RulesError as exc:
        raise CalibrationError(f"{source}: not a valid {GAME} layout: {exc}") from None
    norm = game.to_json(state)
    covered: set[tuple[int, int]] = set()
    for cell in obj.get("covered", []) or []:
        if not (isinstance(cell, (list, tuple)) and len(cell) == 2 and all(isinstance(v, int) and 0 <= v < 5 for v in cell)):
            raise CalibrationError(f"{source}: covered cell {cell!r}: expected [row, col] with 0 <= row, col < 5")
        covered.add((int(cell[0]), int(cell[1])))
    return Truth(
        board=tuple(tuple(row) for row in norm["board"]),
        pawns=tuple(norm["pawns"]),
        coins=tuple(norm["coins"]),
        covered=frozenset(covered),
        source=source,
        image=str(obj["image"]) if isinstance(obj.get("image"), str) else None,
    )


def load_truths(paths: Sequence[str | Path]) -> list[Truth]:
    """Truths from JSON files: each holds one layout object, a list of them, or JSON lines (``caller read --json`` output)."""
    import json

    out: list[Truth] = []
    for p in paths:
        p = Path(p)
        try:
            text = p.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise CalibrationError(f"{p}: no such truth file") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise CalibrationError(f"{p}: cannot read ({exc.__class__.__name__}: {exc})") from None
        try:
            objs = json.loads(text)
            objs = objs if isinstance(objs, list) else [objs]
        except json.JSONDecodeError as exc:
            lines = [ln for ln in text.splitlines() if ln.strip()]
            try:
                objs = [json.loads(ln) for ln in lines]
            except (ValueError, RecursionError):
                raise CalibrationError(f"{p}: not valid JSON (line {exc.lineno} column {exc.colno}: {exc.msg})") from None
        except (ValueError, RecursionError) as exc:  # nested too deeply, an integer of thousands of digits
            raise CalibrationError(f"{p}: not usable JSON ({exc.__class__.__name__}: {str(exc).split(';')[0]})") from None
        if not objs:
            raise CalibrationError(f"{p}: holds no layout")
        for i, obj in enumerate(objs):
            out.append(truth_from_json(obj, f"{p}" if len(objs) == 1 else f"{p} item {i + 1}"))
    return out


def pair_truths(images: Sequence[str], truths: list[Truth]) -> list[Truth]:
    """One truth per image: matched by their ``image`` keys (file name or path) when every image has one,
    else the same count in order, or one truth for all."""
    keyed = {}
    for t in truths:
        if t.image is not None:
            keyed.setdefault(t.image, t)
            keyed.setdefault(Path(t.image).name, t)
    if keyed and all(img in keyed or Path(img).name in keyed for img in images):
        return [keyed.get(img) or keyed[Path(img).name] for img in images]
    if len(truths) == len(images):
        return list(truths)
    if len(truths) == 1:
        return [truths[0]] * len(images)
    raise CalibrationError(
        f"{len(images)} images and {len(truths)} truths: expected one truth per image, in the same order, or one truth for all"
    )
