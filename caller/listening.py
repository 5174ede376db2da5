"""What a heard (or typed) hands-free command does in ``caller watch`` and ``caller race``.

A command is a ``voice.listen.Heard`` (from the microphone or a WAV file) or a typed
line / key (the push-to-talk fallback: ``done [NAME]``, ``repeat``, ``hint``, ``pause``).
A spoken one becomes a ``heard`` event (what was heard) followed by what it causes; a
typed one causes the same without the ``heard`` event:

* done: the claimant's board is checked at once. With one board that is the board; in a
  race the name picks the board ("Caller, done, Ann"), and a claim without a known name
  is answered with a request to say the name. A correct board is the finish, a wrong one
  a fumble with the rules' consequence (caller.race, rules.easy_slider.race). In a race the check
  gives the camera CLAIM_WAIT_S to settle on the board first (see RaceListening).
* repeat: the last announcement again (a ``repeat`` event carrying its words).
* hint: the next move of a solution from the board as the Caller last accepted it (the
  game's live referee finds it; not in a race: everyone races on the same board).
* pause: stops the clock (``LiveCaller.toggle_pause``); said again, the clock runs on. The
  paused time does not count in the finish time.
"""

from __future__ import annotations

from caller.events import Event
from caller.live import LiveCaller
from voice.phrasebook import listening as phrases

COMMANDS = ("done", "repeat", "hint", "pause")
#: seconds after the Caller's last word that the microphone is still not listened to
MUTE_TAIL_S = 0.4


def parse(line: str) -> tuple[str, str | None] | None:
    """A typed command ``'done Ann'`` -> ``("done", "Ann")``; None when it is not one of COMMANDS."""
    word, _, rest = line.strip().partition(" ")
    word = word.lower()
    if word not in COMMANDS:
        return None
    return word, (rest.strip() or None)


def heard_event(t: float, phrase: str, name: str | None) -> Event:
    return Event(t, "heard", {"phrase": phrase, "name": name}, phrases.claim(name) if phrase == "done" else None)


class Memory:
    """The last thing the Caller said, for "repeat": every event goes through ``fill`` before
    it is written and said; a ``repeat`` event gets the words of the last announcement."""

    def __init__(self) -> None:
        self.last: str | None = None

    def fill(self, ev: Event) -> Event:
        if ev.type == "repeat":
            return Event(ev.t, "repeat", {"said": self.last}, self.last or phrases.nothing_to_repeat())
        if ev.say and ev.type != "heard":
            self.last = ev.say
        return ev


def board_action(live: LiveCaller, phrase: str, t: float) -> list[Event]:
    """hint and pause on one player's board (done goes through the caller's own check)."""
    if phrase == "hint":
        if live.current is None:
            return [Event(t, "hint", {"next": None}, phrases.no_hint())]
        hint = live.referee.hint(live.current)
        if hint is None:
            return [Event(t, "hint", {"next": None}, phrases.no_hints_for_this_game())]
        data, say = hint
        return [Event(t, "hint", data, say)]
    if phrase == "pause":
        if live.toggle_pause(t):
            return [Event(t, "pause", {}, phrases.paused())]
        return [Event(t, "resume", {}, phrases.resumed())]
    return []


def apply_phrase(live: LiveCaller, command: str, t: float) -> list[Event]:
    """A command in ``caller watch`` (one board): typed (``repeat``, ``hint``, ``pause``) or
    heard (``heard done``, ``heard hint`` ...: a ``heard`` event first). Unknown: no events."""
    heard = command.startswith("heard ")
    parsed = parse(command[6:] if heard else command)
    if parsed is None:
        return []
    phrase, name = parsed
    events = [heard_event(t, phrase, name)] if heard else []
    if phrase == "done":
        return events + live.call_done(t)
    if phrase == "repeat":
        return events + [Event(t, "repeat", {}, None)]
    return events + board_action(live, phrase, t)


#: a claim waits this many seconds of source time for the camera to settle on the claimant's
#: board (the last slide is often still under the hand when "done" is said); the camera's
#: own finish inside the window is the claim's check, otherwise the claim is checked then
CLAIM_WAIT_S = 2.5


class RaceListening:
    """The hands-free commands of a race round: ``race_listening(t)`` gives the events due at frame ``t``.

    "Caller, done, NAME" is checked against NAME's board: a board the camera sees done within
    CLAIM_WAIT_S is the finish (the camera's finish event, with its time); a board still wrong
    then is a fumble, which puts the player out with no points, as the rules say. Without
    a known name the Caller asks who is done. "repeat" says the last announcement again,
    "pause" stops the round's clock (said again, it runs on); no hints during a race.
    """

    def __init__(self, race, ears: "Ears"):
        self.race = race
        self.ears = ears
        self.pending: dict[str, float] = {}  # claimant -> source time of the claim

    def __call__(self, t: float) -> list[Event]:
        events: list[Event] = []
        for phrase, name in self.ears.due(t):
            events += self.command(phrase, name, t)
        for player, claimed in list(self.pending.items()):
            board = self.race.boards[player]
            if board.out:
                del self.pending[player]  # the camera finished it (or the round ended)
            elif t - claimed >= CLAIM_WAIT_S:
                del self.pending[player]
                events += self.race.call_done(player, t)
        return events

    def command(self, phrase: str, name: str | None, t: float) -> list[Event]:
        race = self.race
        player = next((p for p in race.players if name and p.lower() == name.lower()), None)
        events = [heard_event(t, phrase, player or name)]
        if phrase == "repeat":
            return events + [Event(t, "repeat", {}, None)]
        if phrase == "pause":
            paused = race.toggle_pause(t)
            return events + [Event(t, "pause" if paused else "resume", {},
                                   phrases.paused() if paused else phrases.resumed())]
        if phrase == "hint":
            return events + [Event(t, "hint", {"next": None}, phrases.no_hint_in_race())]
        if player is None:
            return events + [Event(t, "who", {}, phrases.who_is_done(race.players))]
        if race.boards[player].out:
            return events + [Event(t, "claim", {"player": player, "out": True}, phrases.already_out(player))]
        self.pending.setdefault(player, t)
        return events


def add_arguments(p) -> None:
    """``--listen`` and ``--mic`` for ``caller watch`` and ``caller race``."""
    p.add_argument("--listen", action="store_true",
                   help="hands-free commands: 'Caller, done [NAME]', 'Caller, repeat', 'Caller, hint', 'Caller, pause' "
                        "(typed lines 'done [NAME]', 'repeat', 'hint', 'pause' work too)")
    p.add_argument("--mic", default="default", metavar="DEVICE|WAV",
                   help="with --listen: the microphone (an ALSA card index or device name, default: 'default'), "
                        "or a WAV file that stands in for it (a recorded round's audio)")


class Ears:
    """The commands due at each frame: heard by a ``voice.listen.Listener`` and typed on the terminal.

    With a microphone the Listener runs in its own thread and ``due`` only takes what it
    has heard so far: the camera loop never waits. With a WAV file (a recording), the file
    is spotted through the same Listener first, and ``due(t)`` gives the phrases that ended
    by source time ``t``, so a recorded round gives the same events on any machine.
    """

    def __init__(self, mic: str | None, names=(), stdin=None):
        from voice.listen import Listener

        self.stdin = stdin
        self.listener = Listener(mic, names) if mic is not None else None
        self.live = self.listener is not None and self.listener.source.live
        self._timed: list = []
        if self.listener is not None and not self.live:
            self.listener.join()
            if self.listener.error is not None:
                raise self.listener.error
            self._timed = self.listener.take()

    def mute_while(self, announcer) -> None:
        """Stop listening to the microphone while ``announcer`` speaks aloud and for MUTE_TAIL_S
        after (the sound still in the loudspeaker's buffer and the room): the Caller's own
        announcements are never taken for a command. A recording is taken as it is (its
        times are not the Caller's)."""
        if self.live:
            self.listener.muted = lambda: announcer.speaking(MUTE_TAIL_S)

    def due(self, t: float) -> list[tuple[str, str | None]]:
        """(phrase, name) of every command due by source time ``t``, heard or typed."""
        out = self._heard(t)
        if self.stdin is not None:
            out += [c for c in map(parse, self.stdin.take()) if c is not None]
        return out

    def _heard(self, t: float) -> list[tuple[str, str | None]]:
        out: list[tuple[str, str | None]] = []
        if self.live:
            out += [(h.phrase, h.name) for h in self.listener.take()]
        while self._timed and self._timed[0].t <= t:
            h = self._timed.pop(0)
            out.append((h.phrase, h.name))
        return out

    def take(self) -> list[str]:
        """For ``caller watch`` with a live source: typed lines as they are, heard phrases as
        ``'heard PHRASE [NAME]'`` (caller.watch.apply_command passes them to ``apply_phrase``)."""
        out = [f"heard {p}" + (f" {n}" if n else "") for p, n in self._heard(float("inf"))]
        return (self.stdin.take() if self.stdin is not None else []) + out

    def timed_commands(self) -> dict[float, list[str]]:
        """For ``caller watch`` on a recording: the phrases of the WAV file as timed commands."""
        out: dict[float, list[str]] = {}
        for h in self._timed:
            out.setdefault(h.t, []).append(f"heard {h.phrase}" + (f" {h.name}" if h.name else ""))
        self._timed = []
        return out

    def close(self) -> None:
        if self.listener is not None:
            self.listener.close()
