"""Hands-free commands: the real pocketsphinx spotter on espeak-ng speech, and what each phrase does.

The WAV files are synthesised here (voice/listen/synth.py), so the words and the time each
phrase ends are known exactly; the recogniser is the real one in pocketsphinx's wheel.
"""

import json

import numpy as np
import pytest

from caller.cli import main
from caller.listening import CLAIM_WAIT_S, Ears, RaceListening, apply_phrase
from caller.live import LiveCaller
from caller.referees.easy_slider_live import EasySliderLive
from caller.race import RaceRound
from caller.tracker import Reading
from rules.easy_slider.solver import hint
from rules import get as get_game
from voice.listen import synth

VOICE, SPEED = "en-gb-x-rp", 150  # a tuning voice of benchmarks/bench_listen.py


def track(lines: list[str], gap_s: float = 1.5, lead_s: float = 1.0, length_s: float | None = None) -> tuple[np.ndarray, list[float]]:
    """``lines`` said one after another: int16 samples and the time each line ends."""
    rate = 16000
    parts, ends, pos = [np.zeros(int(lead_s * rate), np.float32)], [], int(lead_s * rate)
    for line in lines:
        x = synth.speak(line, VOICE, SPEED)
        x /= np.sqrt(synth.power(x))
        parts += [x, np.zeros(int(gap_s * rate), np.float32)]
        pos += len(x)
        ends.append(pos / rate)
        pos += int(gap_s * rate)
    audio = np.concatenate(parts)
    if length_s is not None:
        audio = np.concatenate([audio, np.zeros(max(0, int(length_s * rate) - len(audio)), np.float32)])
    return synth.to_int16(audio), ends


@pytest.mark.slow
def test_caller_listen_hears_each_phrase_once_and_not_the_callers_own_words(tmp_path, capsys):
    said = ["Round 1. Pawns: red on row 1, column 1, black on row 5, column 5.", "Coins: ace, two, three.", "Go!",
            "Caller, done, Ann.", "Caller, repeat.", "Caller, pause.", "Caller, done, Bob.",
            "Done! Correct, in 1 minute 12 seconds."]
    audio, ends = track(said)
    wav = tmp_path / "phrases.wav"
    synth.write_wav(wav, audio)
    assert main(["listen", str(wav), "--names", "Ann,Bob", "--json"]) == 0
    heard = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(h["phrase"], h["name"]) for h in heard] == [("done", "Ann"), ("repeat", None), ("pause", None),
                                                         ("done", "Bob")]
    for h, end in zip(heard, ends[3:7]):
        assert abs(h["t"] - end) <= 0.3, (h, end)


def test_a_voice_built_from_a_real_speaker_is_heard_too(tmp_path, capsys):
    # Festival's diphone voice is cut from recordings of a person, unlike espeak-ng's formants
    # (the first words after a long silence are heard less reliably: some talk comes first)
    rate = 16000
    parts, ends = [np.zeros(rate, np.float32)], []
    for line in ("Right, whose turn is it now?", "Caller, hint.", "Let me think about it.", "Caller, pause."):
        x = synth.speak(line, "festival:kal_diphone", 160)
        parts += [x / np.sqrt(synth.power(x)), np.zeros(int(1.5 * rate), np.float32)]
        ends.append((sum(map(len, parts)) - len(parts[-1])) / rate)
    synth.write_wav(tmp_path / "kal.wav", synth.to_int16(np.concatenate(parts)))
    assert main(["listen", str(tmp_path / "kal.wav"), "--json"]) == 0
    heard = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [h["phrase"] for h in heard] == ["hint", "pause"]
    assert abs(heard[0]["t"] - ends[1]) <= 0.3 and abs(heard[1]["t"] - ends[3]) <= 0.3


def test_table_talk_that_fits_a_command_for_a_moment_is_not_one(tmp_path):
    """"Put the pawns back on their spaces" fits "Caller, pause" for half a second: the second
    look refuses a phrase that short, and the phrase that was said is heard, with its length."""
    from voice.listen.worker import listen_file

    rate = 16000
    lines = [("Your turn, I think. No wait, it is mine.", "en-us", 150), ("Put the pawns back on their spaces.", "en-us+m3", 180),
             ("Caller, hint.", VOICE, SPEED), ("Put the pawns back on their spaces.", "en-us+m3", 180)]
    parts, spans = [np.zeros(rate, np.float32)], []
    for text, voice, speed in lines:
        x = synth.speak(text, voice, speed)
        spans.append((sum(map(len, parts)) / rate, (sum(map(len, parts)) + len(x)) / rate))
        parts += [x / np.sqrt(synth.power(x)), np.zeros(int(1.2 * rate), np.float32)]
    synth.write_wav(tmp_path / "talk.wav", synth.to_int16(np.concatenate(parts)))
    heard = listen_file(tmp_path / "talk.wav")
    assert [h.phrase for h in heard] == ["hint"]
    start, end = spans[2]
    assert abs(heard[0].t - end) <= 0.3
    assert abs(heard[0].seconds - (end - start)) <= 0.3
    assert heard[0].score >= 0.0  # it fits better than free phones
    unchecked = listen_file(tmp_path / "talk.wav", min_score=float("-inf"), min_seconds=0.0)
    assert ("pause", True) in [(h.phrase, spans[1][0] <= h.t <= spans[1][1] + 0.3) for h in unchecked]


def test_an_unknown_festival_voice_is_one_clear_error():
    from voice.errors import VoiceError

    with pytest.raises(VoiceError, match="Festival could not say it with voice 'nobody'"):
        synth.speak("Caller, done.", "festival:nobody")


def test_a_flite_voice_speaks_at_the_speed_asked_and_an_unknown_one_is_one_clear_error():
    from voice.errors import VoiceError

    slow, fast = (synth.speak("Caller, done, Kim.", "flite:awb", wpm) for wpm in (120, 200))
    assert 1.4 < len(slow) / len(fast) < 1.9  # 200/120 = 1.67
    with pytest.raises(VoiceError, match="Flite has no voice 'nobody'"):
        synth.speak("Caller, done.", "flite:nobody")


def test_listen_errors_are_one_line(tmp_path, capsys):
    assert main(["listen", str(tmp_path / "missing.wav")]) == 2
    assert capsys.readouterr().err.strip().endswith("missing.wav: no such file")
    (tmp_path / "bad.wav").write_bytes(b"not a wav")
    assert main(["listen", str(tmp_path / "bad.wav")]) == 2
    assert "not a readable WAV file" in capsys.readouterr().err
    synth.write_wav(tmp_path / "quiet.wav", np.zeros(1600, np.int16))
    assert main(["listen", str(tmp_path / "quiet.wav"), "--names", "Qxzvb"]) == 2
    assert "does not know how to say 'Qxzvb'" in capsys.readouterr().err


def _callers_pause_track() -> tuple[np.ndarray, tuple[float, float]]:
    """A player says "Caller, pause."; the Caller answers in its own voice with the words that
    name the command; the player says "Caller, repeat.". The samples and the span (s) of the
    Caller's answer."""
    from voice.config import VoiceConfig
    from voice.engine import DEFAULT_ESPEAK_VOICE
    from voice.phrasebook import listening as phrasebook

    rate, callers = 16000, DEFAULT_ESPEAK_VOICE
    lines = [("Caller, pause.", VOICE, SPEED), (phrasebook.paused(), callers, VoiceConfig().rate),
             ("Caller, repeat.", VOICE, SPEED)]
    parts, span = [np.zeros(rate, np.float32)], None
    for text, voice, speed in lines:
        x = synth.speak(text, voice, speed)
        start = sum(map(len, parts)) / rate
        parts += [x / np.sqrt(synth.power(x)), np.zeros(int(1.2 * rate), np.float32)]
        if voice == callers:
            span = (start, start + len(x) / rate)
    return synth.to_int16(np.concatenate(parts)), span


def test_what_the_microphone_hears_while_the_caller_speaks_is_no_command(tmp_path):
    """The Caller's answer to "Caller, pause" names the command; heard by the microphone it
    would resume the clock at once. Chunks read while the Caller speaks are not listened to."""
    from voice.listen.audio import WavAudio
    from voice.listen.spotter import Spotter
    from voice.listen.worker import spot

    audio, (start, end) = _callers_pause_track()
    synth.write_wav(tmp_path / "room.wav", audio)
    for muted in (False, True):
        spotter, heard = Spotter(), []
        speaking = (lambda: start <= spotter.t <= end + 0.4) if muted else None
        spot(WavAudio(tmp_path / "room.wav"), spotter, heard.append, muted=speaking)
        expected = ["pause", "repeat"] if muted else ["pause", "pause", "repeat"]
        assert [h.phrase for h in heard] == expected, muted
        assert all(not start <= h.t <= end for h in heard) == muted


def test_the_microphone_is_not_listened_to_while_the_announcer_speaks_aloud():
    """``Ears.mute_while``: a live microphone's chunks are not listened to while the Announcer
    speaks aloud (the track above; the microphone is switched on once the Caller speaks)."""
    import threading

    from voice import Announcer
    from voice.listen.audio import CHUNK

    audio, _ = _callers_pause_track()

    class Microphone:  # a live source: hands out the track's chunks once switched on
        live, description = True, "microphone (test)"
        on = threading.Event()

        def chunks(self):
            assert self.on.wait(10)
            for i in range(0, len(audio), CHUNK):
                yield audio[i : i + CHUNK]

        def close(self):
            pass

    class Loudspeaker:  # stands in for SpeakerSink (no loudspeaker exists here): speaks until released
        aloud, failed = True, None
        entered, gate = threading.Event(), threading.Event()

        def open(self, speech):
            pass

        def emit(self, message):
            self.entered.set()
            assert self.gate.wait(10)

        def close(self):
            pass

    mic, loud = Microphone(), Loudspeaker()
    ears = Ears(mic)
    assert ears.live
    with Announcer([loud]) as announcer:
        ears.mute_while(announcer)
        announcer.announce("Clock paused.")
        assert loud.entered.wait(10)
        mic.on.set()
        assert ears.listener.join(30)
        loud.gate.set()
    assert ears.due(float("inf")) == []
    assert ears.listener.error is None


def test_a_microphone_read_through_arecord_hears_the_phrases(tmp_path, monkeypatch):
    """The real microphone path (``arecord`` through ALSA) with a file standing in for the
    microphone: an ALSA ``file`` device whose capture reads raw samples from ``infile``."""
    import time

    from voice.listen import Listener

    audio, ends = track(["Right, whose turn is it now?", "Caller, repeat.", "Let me think.", "Caller, pause."])
    audio.tofile(tmp_path / "table.raw")
    (tmp_path / ".asoundrc").write_text(
        f'pcm.tablemic {{\n type file\n slave.pcm "null"\n file "/dev/null"\n infile "{tmp_path}/table.raw"\n'
        ' format "raw"\n}\n')
    monkeypatch.setenv("HOME", str(tmp_path))  # alsa-lib reads ~/.asoundrc
    listener = Listener("tablemic")
    try:
        assert listener.source.live and "arecord" in listener.source.description
        deadline = time.monotonic() + 60
        while listener.spotter.t < len(audio) / 16000 and listener.error is None and time.monotonic() < deadline:
            time.sleep(0.05)
        heard = [h for h in listener.take() if h.t <= len(audio) / 16000]  # after the file: whatever ALSA hands out
    finally:
        listener.close()
    assert listener.error is None
    assert [h.phrase for h in heard] == ["repeat", "pause"]
    assert abs(heard[0].t - ends[1]) <= 0.3 and abs(heard[1].t - ends[3]) <= 0.3


def _reading(state) -> Reading:
    return Reading(tuple(tuple(r) for r in state.board.to_lists(lambda t: t.code)),
                   tuple(p.code for p in state.pawns), tuple(c.code for c in state.coins))


class Typed:
    """The push-to-talk fallback: lines typed on the terminal, one batch per take()."""

    def __init__(self, *batches):
        self.batches = list(batches)

    def take(self):
        return self.batches.pop(0) if self.batches else []


def test_a_wrong_claim_in_a_race_is_a_fumble_with_the_rules_consequence():
    setup = get_game("easy-slider").setup(seed=5)
    race = RaceRound(["Ann", "Bob"], setup, reader=None)
    for board in race.boards.values():
        board.live.on_position(0.5, _reading(setup))
    listening = RaceListening(race, Ears(None, (), Typed(["done bob"], ["done Zed"])))
    first = listening(4.0)
    assert [(e.type, e.data) for e in first] == [("heard", {"phrase": "done", "name": "Bob"})]
    assert first[0].say == "Bob calls Done. Checking."
    who = listening(4.5)
    assert [e.type for e in who] == ["heard", "who"]
    assert listening(4.0 + CLAIM_WAIT_S - 0.1) == []  # the camera may still settle on the board
    events = listening(4.0 + CLAIM_WAIT_S)
    assert [e.type for e in events] == ["fumble", "finish"]
    assert events[1].data == {"player": "Bob", "place": 1, "correct": False, "elapsed": 6.5}
    assert race.over  # two players, one out: run_round ends the round with race.round_over
    assert race.round_over(6.5).data == {"points": {"Ann": 1, "Bob": 0}}  # the fumbler's bonus to everyone else
    assert events[1].say.startswith("Bob: Fumble!")


def test_hint_pause_and_repeat_on_one_board():
    setup = get_game("easy-slider").setup(seed=5)
    live = LiveCaller(EasySliderLive())
    live.on_position(1.0, _reading(setup))
    assert live.start_t == 1.0
    events = apply_phrase(live, "heard hint", 2.0)
    slide, length = hint(setup)
    assert [e.type for e in events] == ["heard", "hint"]
    assert events[1].data == {"next": slide.to_json(), "solution_length": length}
    assert events[1].say.startswith(f"Hint: slide the {slide.tile.spoken} ")
    assert [e.type for e in apply_phrase(live, "pause", 10.0)] == ["pause"]
    assert [e.type for e in apply_phrase(live, "heard pause", 25.0)] == ["heard", "resume"]
    assert live.start_t == 16.0  # the 15 paused seconds are left out of the finish time
    assert [e.type for e in apply_phrase(live, "heard repeat", 26.0)] == ["heard", "repeat"]
    assert apply_phrase(live, "heard nonsense", 27.0) == []


@pytest.fixture(scope="module")
def recorded_round(tmp_path_factory):
    """Two recorded players (rendered videos) and the table's audio: the Caller's "Round 1.", a
    setup line and "Go!" in its own voice, then Ann says "Caller, done, Ann" as her last slide ends, before
    the camera has settled on her board."""
    from simulator.video import finishing_game, render_game_video

    folder = tmp_path_factory.mktemp("listen-race")
    layout, actions = finishing_game(17, 3)
    ann = render_game_video(layout, actions, seed=17, fps=30, size=(1280, 720), path=folder / "ann.mp4")
    render_game_video(layout, actions[:1] + [{"type": "pause", "seconds": 12.0}], seed=18, fps=30,
                            size=(1280, 720), path=folder / "bob.mp4")
    (folder / "layout.json").write_text(json.dumps(layout))
    done_t = next(e for e in ann["events"] if e["type"] == "done")["t"]
    claim = synth.speak("Caller, done, Ann.", "en-us", SPEED)
    rate = 16000
    audio = np.zeros(int((done_t + 4.0) * rate), np.float32)
    pos = int(0.3 * rate)
    for line in ("Round 1.", "Pawns: red on row 1, column 1, black on row 5, column 5.", "Go!"):
        x = synth.speak(line, "gmw/en-us+klatt3", 140)
        audio[pos : pos + len(x)] = x / np.sqrt(synth.power(x))
        pos += len(x) + rate // 2
    end = int(done_t * rate)
    audio[end - len(claim) : end] = claim / np.sqrt(synth.power(claim))
    audio += synth.mix_at(np.ones(1), synth.tile_noise(len(audio) / rate, np.random.default_rng(0)), 20)
    synth.write_wav(folder / "table.wav", synth.to_int16(audio))
    return folder, done_t


@pytest.mark.slow
def test_race_with_listen_on_a_recorded_round(recorded_round, capsys):
    folder, done_t = recorded_round
    out, events = folder / "round.json", folder / "events.jsonl"
    status = main(["race", str(folder / "ann.mp4"), str(folder / "bob.mp4"), "--players", "Ann,Bob",
                   "--layout", str(folder / "layout.json"), "--no-voice", "--out", str(out),
                   "--events", str(events), "--listen", "--mic", str(folder / "table.wav")])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    lines = [json.loads(line) for line in events.read_text().splitlines()]
    kinds = [e["type"] for e in lines if e["type"] in ("heard", "finish", "fumble", "round_over")]
    assert kinds == ["heard", "finish", "round_over"]
    heard = next(e for e in lines if e["type"] == "heard")
    finish = next(e for e in lines if e["type"] == "finish")
    assert (heard["phrase"], heard["name"]) == ("done", "Ann")
    assert done_t - 0.3 <= heard["t"] <= done_t + 0.5  # heard as the phrase ends, at frame time
    assert (finish["player"], finish["correct"]) == ("Ann", True)
    assert heard["t"] <= finish["t"] <= heard["t"] + 2.5  # the camera confirms within the claim's wait
    record = json.loads(out.read_text())
    assert record["points"] == {"Ann": 1, "Bob": 0}
    said = captured.out
    assert "Caller: Ann calls Done. Checking." in said
    assert f"Caller: Ann: Done! Correct, in {int(round(finish['elapsed']))} seconds." in said or \
        "Caller: Ann: Done! Correct, in " in said


@pytest.mark.slow
def test_watch_with_listen_pauses_repeats_and_leaves_the_pause_out_of_the_time(tmp_path, capsys):
    """The bundled sample game with a table recording: the setup said, then "Caller, pause",
    "Caller, repeat", "Caller, pause" while the player slides."""
    said = ["Round 1. Pawns: red on row 1, column 1, black on row 5, column 5.", "Coins: ace, two, three.", "Go!",
            "Caller, pause.", "Caller, repeat.", "Caller, pause."]
    audio, ends = track(said, gap_s=1.0, lead_s=0.3, length_s=30.0)
    synth.write_wav(tmp_path / "table.wav", audio)
    status = main(["watch", "sample_images/easy-slider_game.mp4", "--no-voice", "--events", "-", "--listen",
                   "--mic", str(tmp_path / "table.wav")])
    assert status == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    kinds = [e["type"] for e in lines if e["type"] in ("go", "heard", "pause", "repeat", "resume", "done")]
    assert kinds == ["go", "heard", "pause", "heard", "repeat", "heard", "resume", "done"]
    pause, repeat, resume, done = (next(e for e in lines if e["type"] == k) for k in ("pause", "repeat", "resume", "done"))
    assert repeat["say"] == pause["say"] == "Clock paused. Say: Caller, pause, again to go on."
    go = next(e for e in lines if e["type"] == "go")
    assert done["elapsed"] == pytest.approx(done["t"] - go["t"] - (resume["t"] - pause["t"]), abs=0.01)
