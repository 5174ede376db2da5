"""The Announcer's queue rules with a fake sink: order, priorities, no repeats, stale drops, shutdown.

Deterministic: an Announcer built with ``start=False`` queues without saying anything,
and a gated sink holds the worker on one message while the test announces more. No
sleeps; a wait with a timeout only turns a hang into a failure.
"""

from __future__ import annotations

import io
import threading

import pytest

from voice import Announcer, ConsoleSink, VoiceError
from voice.announcer import Message

WAIT = 10.0  # seconds before a stuck worker fails the test


class ListSink:
    def __init__(self):
        self.said: list[str] = []
        self.events: list[str] = []

    def open(self, speech):
        self.events.append(f"open:{speech is None}")

    def emit(self, message: Message):
        self.said.append(message.text)

    def close(self):
        self.events.append("close")


class GatedSink(ListSink):
    """Holds the worker inside ``emit`` of its first message until ``release``."""

    def __init__(self):
        super().__init__()
        self.entered = threading.Event()
        self.gate = threading.Event()

    def emit(self, message):
        super().emit(message)
        if not self.entered.is_set():
            self.entered.set()
            assert self.gate.wait(WAIT)


def test_fifo_within_a_priority_and_warnings_first():
    sink = ListSink()
    a = Announcer([sink], start=False)
    a.announce("one")
    a.announce("careful", priority="warning")
    a.announce("two")
    a.announce("stop", priority="warning")
    assert a.pending() == ["careful", "stop", "one", "two"]
    a.close()
    assert sink.said == ["careful", "stop", "one", "two"]
    assert sink.events == ["open:True", "close"]
    assert a.stats.spoken == 4 and a.stats.queued == 4


def test_warning_overtakes_routine_talk_queued_while_speaking():
    sink = GatedSink()
    with Announcer([sink]) as a:
        a.announce("Pawns: Black, Red, Blue, Green.")
        assert sink.entered.wait(WAIT)
        a.announce("Coins: 2, 4, 5, Ace, 3.")
        a.announce("Row one: ...")
        a.announce("Row 2, column 3: the Red Ace was lifted.", priority="warning", key="illegal", state=1)
        sink.gate.set()
    assert sink.said == [
        "Pawns: Black, Red, Blue, Green.",
        "Row 2, column 3: the Red Ace was lifted.",
        "Coins: 2, 4, 5, Ace, 3.",
        "Row one: ...",
    ]


def test_same_message_about_unchanged_state_is_not_repeated():
    sink = ListSink()
    with Announcer([sink]) as a:
        assert a.announce("Illegal A", key="illegal", state="s1", priority="warning") is True
        assert a.wait_idle(WAIT)
        assert a.announce("Illegal A", key="illegal", state="s1", priority="warning") is False
        assert a.announce("Illegal B", key="illegal", state="s2", priority="warning") is True
        assert a.wait_idle(WAIT)
        # back to the first state: that is news again
        assert a.announce("Illegal A", key="illegal", state="s1", priority="warning") is True
        # a message with no key is always said
        assert a.announce("Go!") and a.announce("Go!")
    assert sink.said == ["Illegal A", "Illegal B", "Illegal A", "Go!", "Go!"]
    assert a.stats.repeats == 1


def test_repeat_is_dropped_also_while_still_queued_and_forget_allows_it():
    sink = ListSink()
    a = Announcer([sink], start=False)
    assert a.announce("x", key="k", state=1)
    assert not a.announce("x", key="k", state=1)
    a.forget("k")
    assert a.announce("x", key="k", state=1)
    a.close()
    assert sink.said == ["x", "x"]


def test_message_made_stale_by_a_newer_state_is_dropped():
    sink = ListSink()
    a = Announcer([sink], start=False)
    a.announce("Row 1, column 1 is wrong.", key="done-check", state=("b1",))
    a.announce("Scores later.")
    a.announce("Row 2, column 2 is wrong.", key="done-check", state=("b2",))
    a.announce("Other subject.", key="setup", state=("b1",))
    assert a.pending() == ["Scores later.", "Row 2, column 2 is wrong.", "Other subject."]
    a.close()
    assert sink.said == ["Scores later.", "Row 2, column 2 is wrong.", "Other subject."]
    assert a.stats.stale == 1


def test_same_state_other_text_is_kept():
    sink = ListSink()
    a = Announcer([sink], start=False)
    a.announce("first", key="k", state=1)
    a.announce("second", key="k", state=1)
    a.close()
    assert sink.said == ["first", "second"]


def test_announce_never_waits_for_the_sink():
    sink = GatedSink()
    a = Announcer([sink])
    a.announce("held")
    assert sink.entered.wait(WAIT)
    finished = threading.Event()

    def camera_loop():
        for i in range(1000):
            a.announce(f"m{i}")
        finished.set()

    t = threading.Thread(target=camera_loop)
    t.start()
    assert finished.wait(WAIT), "announce blocked while the sink was busy"
    assert not sink.gate.is_set() and sink.said == ["held"]
    sink.gate.set()
    a.close()
    t.join()
    assert sink.said == ["held"] + [f"m{i}" for i in range(1000)]


def test_close_without_drain_drops_the_queue_but_finishes_the_current_sentence():
    sink = GatedSink()
    a = Announcer([sink])
    a.announce("current")
    assert sink.entered.wait(WAIT)
    a.announce("dropped 1")
    a.announce("dropped 2", priority="warning")
    closer = threading.Thread(target=a.close, kwargs={"drain": False})
    closer.start()
    sink.gate.set()
    closer.join(WAIT)
    assert not closer.is_alive()
    assert sink.said == ["current"]
    assert sink.events[-1] == "close"
    assert a.stats.dropped_at_close == 2


def test_close_is_idempotent_and_announce_after_close_is_an_error():
    sink = ListSink()
    a = Announcer([sink])
    a.close()
    a.close()
    with pytest.raises(VoiceError, match="closed"):
        a.announce("late")
    with pytest.raises(VoiceError, match="unknown priority 'urgent'"):
        Announcer([ListSink()], start=False).announce("x", priority="urgent")


def test_context_manager_drains_and_stops_on_error_without_draining():
    sink = ListSink()
    with pytest.raises(RuntimeError):
        with Announcer([sink], start=False) as a:
            a.announce("never said")
            raise RuntimeError("camera failed")
    assert sink.said == []
    assert sink.events == ["open:True", "close"]


def test_console_sink_prints_caller_lines():
    out = io.StringIO()
    with Announcer([ConsoleSink(out)]) as a:
        a.announce("Go!")
        a.announce("Done! Correct, in 1 minute 27 seconds.")
    assert out.getvalue() == "Caller: Go!\nCaller: Done! Correct, in 1 minute 27 seconds.\n"


def test_a_failing_sink_does_not_stop_the_others(capsys):
    import voice.notices

    voice.notices.reset()

    class Broken(ListSink):
        def emit(self, message):
            raise VoiceError("speaker on fire")

    good = ListSink()
    with Announcer([Broken(), good]) as a:
        a.announce("one")
        a.announce("two")
    assert good.said == ["one", "two"]
    assert capsys.readouterr().err == "caller: Broken: speaker on fire\n"


def test_speaking_is_true_while_a_loudspeaker_says_a_message_and_for_the_tail_after():
    class Loudspeaker(GatedSink):  # stands in for SpeakerSink: no loudspeaker exists here
        aloud = True
        failed = None

    loud, quiet = Loudspeaker(), GatedSink()
    with Announcer([loud]) as a, Announcer([quiet]) as b:
        assert not a.speaking(tail=60.0)  # nothing said yet
        a.announce("Red starts.")
        b.announce("Red starts.")
        assert loud.entered.wait(WAIT) and quiet.entered.wait(WAIT)
        assert a.speaking()
        assert not b.speaking()  # text only: nothing for a microphone to hear
        loud.gate.set()
        quiet.gate.set()
        assert a.wait_idle(WAIT)
        assert a.speaking(tail=60.0)
        assert not a.speaking(tail=0.0)
        loud.failed = VoiceError("no audio device")  # the loudspeaker gave up: silent from now on
        a.announce("Black to play.")
        assert a.wait_idle(WAIT)
        assert not a.speaking(tail=60.0)
