"""The events ``caller watch`` writes, one JSON object per line (see docs/architecture.md).

``t`` is seconds of source time. ``say`` is what the Caller speaks (``None`` for events it
only records, such as a routine slide). Types: ``board`` (the first accepted position),
``setup`` (the table differs from the announced setup), ``go``, ``move``, ``illegal``,
``restored`` (the board was put back after an illegal move), ``accepted`` (the player
accepted a new position after an illegal move), ``done``, ``fumble``. A game of turns
(Scavenger Hunt) writes ``turn`` (whose turn it is: who starts, who plays next), ``shift`` (a
tile line shifted), ``move`` (a pawn moved), ``collect`` (a coin collected) and ``won``
instead of ``go`` and ``done``; its ``illegal`` events list ``squares`` where Easy Slider's
list ``cells``. Slider writes ``turn``, ``move`` (a coin's step, ``to`` null off the board),
``pass`` (a forced pass), ``undone`` (the last move put back as it was: taken back), ``won`` or
``tie``, and, with the Caller playing a side, ``call`` (the
Caller's own move, for a player to make) and ``different`` (another move made instead). Slide,
watched at one player's grid, writes ``grid`` (the start) instead of ``board``, ``turn`` (what
the Caller waits for), ``reveal`` (``cell``), ``push`` (``card``, ``line``, ``index``,
``from_side``), ``undone`` (the last step put back as it was) and ``score`` (the finished grid
counted). Steppin' Stones writes ``roll`` (``turn``, ``dice``, ``by``), ``move`` (``piece``,
``from``, ``to``, ``home``), ``flip`` (``at``, ``suit``), ``phase``, ``nothing`` (the dice can
move nothing more), ``wait`` (no dice seen at the start) and ``won`` or ``lost``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True)
class Event:
    t: float
    type: str
    data: dict[str, Any] = field(default_factory=dict)
    say: str | None = None
    warning: bool = False  # spoken ahead of routine talk

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": round(self.t, 3), "type": self.type}
        out.update(self.data)
        out["say"] = self.say
        return out


#: events after which the board is in a legal position again: a warning said before may be
#: said again when the same illegal change is made again
LEGAL_AGAIN = ("board", "grid", "move", "shift", "reveal", "push", "flip", "roll", "undone", "turn", "restored",
               "accepted")
#: events whose warnings are not repeated while what they are about is unchanged
KEYED = ("illegal", "setup")


def announce_event(announcer, ev: Event) -> Event:
    """Hand ``ev``'s words to ``announcer`` and return the event as said, for the events file.

    A warning the announcer drops as a repeat (the same illegal change, nothing changed
    since) comes back with ``say`` None, so the file records only what was said. Once the
    board is legal again the illegal-move warning is re-armed: putting the board back and
    making the same illegal slide again is warned about again.
    """
    if ev.type in LEGAL_AGAIN:
        announcer.forget("illegal")
    if not ev.say:
        return ev
    said = announcer.announce(ev.say, priority="warning" if ev.warning else "routine",
                              key=ev.type if ev.type in KEYED else None, state=str(ev.data.get("cells", ev.data.get("squares"))))
    return ev if said else replace(ev, say=None)
