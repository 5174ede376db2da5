"""Steppin' Stones squares, actions and dice as people type them.

Squares: a column letter from the left and a row number from the far side, ``c2`` (docs/architecture.md
numbers rows from the far side), or 1-based ``row,col`` as in the other referees (``2,3`` is
``c2``). Actions: ``c2 c4`` / ``c2-c4`` / ``c2 to c4`` moves the top piece on c2 (the pawn
if one stands there) to c4; ``flip c4`` turns that coin into a stepping stone; ``end``
(also ``done``, ``roll``, ``pass``) ends the turn. Dice: one face per die in S M C A order
for the suits still in play, as the rules text writes them: ``0 4 2 *`` (``0``/``n`` null,
``*``/``s`` the suit, ``2``-``5``); spaces optional.
"""

from __future__ import annotations

import re

from rules.errors import NotationError
from rules.grid import Cell, in_bounds
from rules.pieces import DieFace
from rules.steppin_stones.state import Action, EndTurn, Flip, Move, cell_name

ACTION_HELP = "a move such as 'c2 a4' (also 'c2-a4', '2,3 4,1'), 'flip c4', or 'end' to end the turn"
DICE_HELP = "one face per die, null 0 or n, the suit * or s, or 2-5, such as '0 4 2 *'"

_SQUARE = r"(?:[a-j]\s*\d{1,2}|\d{1,2}\s*,\s*\d{1,2})"
_MOVE = re.compile(rf"^\s*(?P<a>{_SQUARE})\s*(?:-|to|\s)\s*(?P<b>{_SQUARE})\s*$", re.IGNORECASE)
_FLIP = re.compile(rf"^\s*flip\s+(?P<a>{_SQUARE})\s*$", re.IGNORECASE)
_END_WORDS = {"end", "done", "roll", "pass", "end turn"}
_FACE_WORDS = {"0": DieFace.NULL, "n": DieFace.NULL, "*": DieFace.SUIT, "s": DieFace.SUIT, "a": DieFace.SUIT}
_FACE_WORDS.update({str(k): DieFace(str(k)) for k in range(2, 6)})


def parse_cell(text: str, size: int) -> Cell:
    """``"c2"`` or ``"2,3"`` -> ``(1, 2)``; raises NotationError when it is not a square of a ``size`` board."""
    t = text.strip().lower().replace(" ", "")
    if "," in t:
        parts = t.split(",")
        ok = len(parts) == 2 and all(p.isdigit() for p in parts)
        cell = (int(parts[0]) - 1, int(parts[1]) - 1) if ok else (-1, -1)
    else:
        ok = len(t) >= 2 and t[0].isalpha() and t[1:].isdigit()
        cell = (int(t[1:]) - 1, ord(t[0]) - ord("a")) if ok else (-1, -1)
    if not in_bounds(cell, (size, size)):
        last = chr(ord("a") + size - 1)
        raise NotationError(f"bad square {text!r}: expected a1..{last}{size} or row,col from 1,1 to {size},{size}")
    return cell


def parse_action(text: str, size: int) -> Action:
    """The action ``text`` names; raises NotationError quoting it. Legality is ``apply``'s job."""
    if not isinstance(text, str):
        raise NotationError(f"cannot read the action {text!r}: expected {ACTION_HELP}")
    if text.strip().lower() in _END_WORDS:
        return EndTurn()
    m = _FLIP.match(text)
    if m:
        return Flip(parse_cell(m["a"], size))
    m = _MOVE.match(text)
    if m:
        return Move(parse_cell(m["a"], size), parse_cell(m["b"], size))
    raise NotationError(f"cannot read the action {text!r}: expected {ACTION_HELP}")


def format_action(action: Action) -> str:
    """The typed form of an action: ``c2-a4``, ``flip c4``, ``end``."""
    if isinstance(action, Move):
        return f"{cell_name(action.frm)}-{cell_name(action.to)}"
    if isinstance(action, Flip):
        return f"flip {cell_name(action.at)}"
    return "end"


def parse_faces(text: str, count: int) -> list[DieFace]:
    """``"0 4 2 *"`` -> four DieFaces; exactly ``count`` faces, else NotationError quoting the text."""
    tokens = text.split() if isinstance(text, str) else []
    if len(tokens) == 1 and len(tokens[0]) > 1:
        tokens = list(tokens[0])  # "042*"
    faces = [_FACE_WORDS.get(t.lower()) for t in tokens]
    if len(faces) != count or None in faces:
        raise NotationError(f"cannot read the dice {text!r}: expected {count} face(s), {DICE_HELP}")
    return faces  # type: ignore[return-value]
