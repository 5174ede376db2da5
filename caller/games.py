"""Every game's capabilities in one place: the rules' record plus what the outer packages own.

``entry(name)`` composes the rules record (``rules.record(name)``: game object, codec,
notation, explain, table description) with the game's phrasebook (``voice``), text referee
(``caller.referees``), simulator scene (``simulator``) and live referee
(``caller.live_referee``), so that the commands look a game's parts up here instead of guessing module names or keeping
their own lists of games. Parts are named by module (``"pkg.mod"``) or object
(``"pkg.mod:NAME"``) and imported on first use; ``None`` means the game has none yet.

Adding a game: its package in ``rules/`` with a ``record`` module (see ``rules.registry``),
then one line in ``_OUTER`` below; ``tests/test_conformance.py`` checks that every part named
exists and agrees with the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import rules
from caller.errors import CallerError
from rules.record import GameRecord, load
from rules.table import TableDescription


@dataclass(frozen=True)
class Outer:
    """What the outer packages offer for one game (see ``GameEntry``)."""

    phrasebook: str
    referee: str | None = None
    scene: str | None = None
    live: str | None = None


_OUTER: dict[str, Outer] = {
    "easy-slider": Outer("voice.phrasebook.easy_slider", "caller.referees.easy_slider",
                         "simulator.scene:easy_slider_scene", "caller.referees.easy_slider_live:EasySliderLive"),
    "scavenger-hunt": Outer("voice.phrasebook.scavenger_hunt", "caller.referees.scavenger_hunt",
                            "simulator.games:scavenger_hunt_scene",
                            "caller.referees.scavenger_hunt_live:ScavengerHuntLive"),
    "steppin-stones": Outer("voice.phrasebook.steppin_stones", "caller.referees.steppin_stones",
                            "simulator.games:steppin_stones_scene",
                            "caller.referees.steppin_stones_live:SteppinStonesLive"),
    "slider": Outer("voice.phrasebook.slider", "caller.referees.slider", "simulator.games:slider_scene",
                    "caller.referees.slider_live:SliderLive"),
    "slide": Outer("voice.phrasebook.slide", "caller.referees.slide", "simulator.games:slide_scene",
                   "caller.referees.slide_live:SlideLive"),
}


@dataclass(frozen=True)
class GameEntry:
    """One game's capabilities: the rules record and what the outer packages attach to it.

    ``phrasebook`` is the module of the Caller's sentences (``setup_lines(state)`` at least);
    ``referee`` the text referee module (``main(argv) -> int``, behind ``caller play``);
    ``scene`` the simulator's scene builder (``(layout, look, rng) -> scene``); ``live`` the
    live referee class behind ``caller watch`` and ``caller race`` (a
    ``caller.live_referee.LiveReferee``; ``live_caller`` builds a board's Caller with one);
    whether the camera reader (``vision``) reads this game's table, which ``caller read`` and
    ``caller watch`` need, follows from its table description (``has("camera")``).
    """

    record: GameRecord
    outer: Outer

    @property
    def name(self) -> str:
        return self.record.name

    @property
    def title(self) -> str:
        return self.record.title

    @property
    def game(self) -> Any:
        return self.record.game

    @property
    def table(self) -> TableDescription:
        return self.record.table

    @property
    def phrasebook(self) -> Any:
        return load(self.outer.phrasebook)

    @property
    def referee(self) -> Any | None:
        return None if self.outer.referee is None else load(self.outer.referee)

    @property
    def scene(self) -> Callable | None:
        return None if self.outer.scene is None else load(self.outer.scene)

    @property
    def live(self) -> Any | None:
        return None if self.outer.live is None else load(self.outer.live)

    def live_caller(self, setup: Any = None, start_t: float | None = None, **options: Any) -> Any:
        """A live Caller (``caller.live.LiveCaller``) for one board of this game, with a fresh
        live referee made with ``options`` (those its ``options`` names, e.g. ``players``);
        ``require("live", ...)`` first for a game that may have none."""
        from caller.live import LiveCaller

        return LiveCaller(self.live(**options), setup=setup, start_t=start_t)

    def setup_lines(self, state: Any) -> list[str]:
        """The Caller's setup announcement for ``state``."""
        return list(self.phrasebook.setup_lines(state))

    def has(self, what: str) -> bool:
        """Whether the game has part ``what``: "referee", "live" or "camera"."""
        if what == "camera":
            from vision.table_reader import what_it_reads

            return what_it_reads(self.table) is not None
        return bool({"referee": self.outer.referee, "live": self.outer.live}[what])

    def require(self, what: str, command: str) -> None:
        """Raise CallerError (one line ``caller: error: ...``, exit 2) when the game lacks ``what``
        ("referee", "live", "camera"), saying where the game does work."""
        if self.has(what):
            return
        if what == "referee":
            raise CallerError(f"{command}: there is no text referee for {self.title} yet")
        can = ", ".join(entry(name).title for name in names() if entry(name).has(what))
        if what == "camera":
            text = f"{command}: the camera reads {can or 'no game'} only so far, not {self.title}"
        elif can:
            text = f"{command}: the live Caller calls {can} only so far, not {self.title}"
        else:
            text = f"{command}: there is no live Caller for {self.title} yet"
        if self.has("referee"):
            text += f"; 'caller play {self.name}' referees it in the terminal"
        raise CallerError(text)


def names() -> list[str]:
    """Every game, in the registry's order."""
    return rules.names()


def entry(name: str) -> GameEntry:
    """The entry of the game called ``name``; raises rules.UnknownGame listing the known names."""
    record = rules.record(name)
    outer = _OUTER.get(name)
    if outer is None:  # a game registered in rules but not here is a slip in the code
        raise RuntimeError(f"game {name!r} is in the rules registry but not in caller.games")
    return GameEntry(record, outer)
