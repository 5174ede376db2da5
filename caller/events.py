"""The events ``caller watch`` writes, one JSON object per line (see docs/architecture.md).

``t`` is seconds of source time. ``say`` is what the Caller speaks (``None`` for events it
only records, such as a routine slide). Types: ``board`` (the first accepted position),
``setup`` (the table differs from the announced setup), ``go``, ``move``, ``illegal``,
``restored`` (the board was put back after an illegal move), ``accepted`` (the player
accepted a new position after an illegal move), ``done``, ``fumble``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
