"""Race rounds: several players solve the same dealt board; the Caller keeps the clock,
verifies each finish, records the order and scores the round by the rules text.

Each player has a board in view: either one source per player (several cameras or
recordings), or one camera whose frame is split into equal regions, one board each
(``--split 2x1``: two boards side by side). The Caller deals one setup for all, says the
setup and "Go!" at source time 0, then feeds every player's frames to that player's
``Watcher``. A player is out of the round when the Caller sees their board done (a
correct finish) or when they call "Done!" on a wrong board (a fumble: the ``done NAME``
command, or a key). The round ends when one player is left solving, or when the sources
end (then the round is incomplete and is saved as such, unscored).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

import numpy as np

from caller.errors import CallerError
from caller.events import Event
from caller import games
from caller.live import LiveCaller
from caller.sources import SourceNotice
from caller.watch import Watcher
from rules.easy_slider.solver import solve
from rules.easy_slider.state import EasySliderState
from rules.easy_slider.race import Finish, score_round
from voice.phrasebook import easy_slider as phrases


#: the smallest region (pixels, each way) a board can be read in
MIN_REGION = 64


def split_regions(image: np.ndarray, cols: int, rows: int) -> list[np.ndarray]:
    """Equal regions of ``image``, left to right then top to bottom (views, no copy)."""
    h, w = image.shape[:2]
    out = []
    for r in range(rows):
        for c in range(cols):
            out.append(image[r * h // rows : (r + 1) * h // rows, c * w // cols : (c + 1) * w // cols])
    return out


@dataclass
class PlayerBoard:
    name: str
    watcher: Watcher
    finished_t: float | None = None
    fumbled: bool = False

    @property
    def live(self) -> LiveCaller:
        return self.watcher.caller

    @property
    def out(self) -> bool:
        return self.finished_t is not None


@dataclass
class RaceRound:
    """One round of ``game`` (its live referee calls each board). ``reader`` reads every
    player's board (they share one)."""

    players: list[str]
    setup: EasySliderState
    reader: object
    go_t: float = 0.0
    game: str = "easy-slider"
    boards: dict[str, PlayerBoard] = field(init=False)
    finishes: list[Finish] = field(default_factory=list)
    finish_times: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        entry = games.entry(self.game)
        self.boards = {p: PlayerBoard(p, Watcher(self.reader, entry.live_caller(setup=self.setup, start_t=self.go_t)))
                       for p in self.players}

    @property
    def over(self) -> bool:
        return sum(1 for b in self.boards.values() if not b.out) <= 1

    def _closed(self, t: float) -> bool:
        """Is the round over for a frame or call at time ``t``? Frames of the moment that ended it
        are still played for every player: two boards done in the same frame both finish."""
        return self.over and bool(self.finish_times) and t > max(self.finish_times.values())

    def process(self, name: str, image: np.ndarray, t: float) -> list[Event]:
        board = self.boards[name]
        if board.out or self._closed(t):
            return []
        return self._settle(name, t, [self._tag(name, e) for e in board.watcher.process(image, t)])

    def source_notice(self, name: str, notice: SourceNotice) -> list[Event]:
        """``name``'s camera lost or back, a frame skipped: said with the player's name; the
        player's game is kept as it stands, as in ``caller watch``."""
        board = self.boards[name]
        if board.out:
            return []
        return [self._tag(name, e) for e in board.watcher.source_notice(notice)]

    def call_done(self, name: str, t: float) -> list[Event]:
        """``name`` calls "Done!": a correct board finishes, a wrong one is a fumble."""
        board = self.boards[name]
        if board.out or self._closed(t):
            return []
        return self._settle(name, t, [self._tag(name, e) for e in board.live.call_done(t)])

    def toggle_pause(self, t: float) -> bool:
        """"Caller, pause": one clock for the round, so every board's clock stops (True) or runs on (False)."""
        paused = [b.live.toggle_pause(t) for b in self.boards.values()][0]
        if not paused:  # the paused time is left out of every finish time
            self.go_t = self.boards[self.players[0]].live.start_t
        return paused

    def _settle(self, name: str, t: float, events: list[Event]) -> list[Event]:
        """A player's events plus their finish when one of them is "done" or a "fumble". The
        verdict is spoken once, by the finish event, so the player's own event keeps its data only."""
        out = []
        for e in events:
            if e.type in ("done", "fumble") and not self.boards[name].out:
                out.append(Event(e.t, e.type, e.data, None, e.warning))
                out += self._finish(name, t, e.type == "done", e.say)
            else:
                out.append(e)
        return out

    def _finish(self, name: str, t: float, correct: bool, say: str | None = None) -> list[Event]:
        board = self.boards[name]
        board.finished_t = t
        board.fumbled = not correct
        place = 1 + sum(1 for when in self.finish_times.values() if when < t)  # a tie shares the place
        self.finishes.append(Finish(name, correct))
        self.finish_times[name] = t
        if say is None:
            say = f"{name}: " + (phrases.done(True, t - self.go_t) if correct else phrases.fumble([]))
        return [Event(t, "finish", {"player": name, "place": place, "correct": correct,
                                    "elapsed": round(t - self.go_t, 2)}, say, warning=not correct)]

    def round_over(self, t: float) -> Event:
        """The event that ends the round, with everyone's points."""
        points = self.points()
        return Event(t, "round_over", {"points": points},
                     phrases.round_scores(points, fumbled=[f.player for f in self.finishes if not f.correct]))

    def points(self) -> dict[str, int] | None:
        if not self.over:
            return None
        return score_round(self.players, self.finishes, [self.finish_times[f.player] for f in self.finishes])

    def _tag(self, name: str, e: Event) -> Event:
        return Event(e.t, e.type, {"player": name, **e.data}, f"{name}: {e.say}" if e.say else None, e.warning)

    def record(self, seed: int, round_no: int) -> dict:
        """The round as JSON: setup, finishes in order with times, points (None if incomplete), remarks."""
        shortest = len(solve(self.setup))
        return {
            "round": round_no,
            "seed": seed,
            "players": list(self.players),
            "setup": {"board": self.setup.board.to_lists(lambda t: t.code),
                      "pawns": [p.code for p in self.setup.pawns], "coins": [c.code for c in self.setup.coins]},
            "finishes": [{"player": f.player, "correct": f.correct, "t": round(self.finish_times[f.player], 2)}
                         for f in self.finishes],
            "complete": self.over,
            "points": self.points(),
            "slides": {p: b.live.slides for p, b in self.boards.items()},
            "solution_length": shortest,
        }


def lockstep(sources: list, names: list[str], split: tuple[int, int] | None) -> Iterator[tuple[float, dict]]:
    """Frames of every player at the same source time: ``(t, {name: image})``.

    With ``split`` one source is cut into regions; otherwise source i belongs to player i
    and the iteration ends when any source ends. A source's ``SourceNotice`` (its camera
    lost or back, a frame skipped) stands in that step for the player's image (for every
    player of a split source).
    """
    if split is not None:
        cols, rows = split
        for frame in sources[0]:
            if isinstance(frame, SourceNotice):
                yield frame.t, dict.fromkeys(names, frame)
                continue
            h, w = frame.image.shape[:2]
            if w // cols < MIN_REGION or h // rows < MIN_REGION:
                raise CallerError(f"a {w}x{h} frame split {cols}x{rows} leaves regions of {w // cols}x{h // rows} px; "
                                  f"each board needs at least {MIN_REGION} px each way")
            regions = split_regions(frame.image, cols, rows)
            yield frame.t, dict(zip(names, regions))
        return
    iters = [iter(s) for s in sources]
    while True:
        frames = []
        for it in iters:
            f = next(it, None)
            if f is None:
                return
            frames.append(f)
        yield frames[0].t, {n: f if isinstance(f, SourceNotice) else f.image for n, f in zip(names, frames)}


def run_round(race: RaceRound, frames: Iterable[tuple[float, dict]], on_event: Callable[[Event], None],
              commands: dict[float, list[str]] | None = None, heard: Callable[[float], list[Event]] | None = None) -> None:
    """Play frames until the round is over or the sources end; ``commands`` maps times to 'done NAME';
    ``heard(t)`` gives the events of the hands-free commands due at frame time ``t`` (caller.listening)."""
    pending = sorted((commands or {}).items())
    for t, images in frames:
        events: list[Event] = []
        for name, image in images.items():
            if isinstance(image, SourceNotice):
                events += race.source_notice(name, image)
            else:
                events += race.process(name, image, t)
        while pending and pending[0][0] <= t:
            for cmd in pending.pop(0)[1]:
                word, _, who = cmd.partition(" ")
                if word == "done" and who in race.boards:
                    events += race.call_done(who, t)
        if heard is not None:
            events += heard(t)
        if race.over:
            events.append(race.round_over(t))
        for e in events:
            on_event(e)
        if race.over:
            return
