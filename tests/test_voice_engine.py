"""The real speech path: pyttsx3 + espeak-ng rendering to WAV, checked with the wave module and
transcribed by pocketsphinx; speaker and engine failures with stand-ins for aplay and the driver.

No test needs a sound card: the speaker path runs a fake ``aplay`` from a temporary PATH.
"""

from __future__ import annotations

import io
import os
import stat
import threading
import wave

import pytest

import rules
import voice.engine as engine_mod
import voice.notices
from caller.cli import main as caller_main
from voice import Announcer, ConsoleSink, SpeakerSink, VoiceConfig, VoiceError, WavSink, say
from voice.engine import Speech, SubprocessEngine, ThreadEngine, check_wav, concat_wavs
from voice.errors import EngineUnavailable, RenderFailed
from voice.phrasebook import easy_slider as ph
from voice.transcribe import Recogniser, recall, spoken_words

WARNING = "Row 2, column 3: the Red Ace was lifted."


@pytest.fixture(autouse=True)
def fresh_notices():
    voice.notices.reset()
    yield
    voice.notices.reset()


def _frames(path):
    with wave.open(str(path), "rb") as w:
        return w.getframerate(), w.getnchannels(), w.getsampwidth(), w.getnframes()


@pytest.mark.slow
def test_setup_and_warning_render_to_one_wav_in_order(tmp_path):
    lines = ph.setup_lines(rules.get("easy-slider").setup(seed=3)) + [WARNING]
    out = tmp_path / "setup.wav"
    wav = say(lines, voice_out=out)
    assert wav is not None and wav.error is None
    assert len(wav.rendered) == 8
    rate, channels, width, frames = _frames(out)
    # the engine's own rate (espeak-ng's voices render at 22050 Hz; other builds may not)
    assert rate == wav.rendered[0].rate and all(r.rate == rate for r in wav.rendered)
    assert (channels, width) == (1, 2)
    gap = int(round(0.35 * rate))
    assert frames == sum(r.frames for r in wav.rendered) + 7 * gap
    assert all(r.frames > rate * 0.5 for r in wav.rendered)  # every sentence is over half a second
    assert not os.path.exists(f"{out}.part")


@pytest.mark.slow
def test_recogniser_hears_the_callers_key_words(tmp_path):
    """Fixed sentences (seed 3's pawns, coins and first row, and a warning) through espeak-ng
    and pocketsphinx with the default voice. Measured here: 26 of the 32 words heard, the
    same in 10 runs (pawns and 3 colours, 4 of 5 coin values, all 6 of the warning's cell
    and tile words). A fresh CI machine heard "column" as "are done", so the bars leave a
    margin for other machines and builds: 22 words, "pawns" and 2 colours, 3 of the 5 coin
    values, 4 of the warning's 6 words."""
    sentences = [
        "Pawns: Blue, Red, Green, Black.",
        "Coins: 2, Ace, 5, 4, 3.",
        "Row one: Green Null, Blue Ace, Green 5, Blue 3, Red 2.",
        WARNING,
    ]
    speech = Speech(VoiceConfig())
    recogniser = Recogniser()
    try:
        heard = [recogniser.words(speech.render(s, str(tmp_path / f"{i}.wav")).path) for i, s in enumerate(sentences)]
    finally:
        recogniser.close()
        speech.close()
    hits = [recall(spoken_words(s), h) for s, h in zip(sentences, heard)]
    total = sum(k for k, _ in hits)
    assert sum(n for _, n in hits) == 32
    assert total >= 22, (hits, heard)
    assert "pawns" in heard[0] and recall(["blue", "red", "green", "black"], heard[0])[0] >= 2, heard[0]
    assert recall(["two", "ace", "five", "four", "three"], heard[1])[0] >= 3, heard[1]
    assert recall(["row", "two", "column", "three", "red", "ace"], heard[3])[0] >= 4, heard[3]


@pytest.mark.slow
def test_subprocess_engine_renders_the_same_way(tmp_path):
    config = VoiceConfig(engine="subprocess", rate=180, volume=0.8)
    out = tmp_path / "sub.wav"
    wav = say(["Go!", "Done! Correct, in 1 minute 27 seconds."], voice_out=out, config=config)
    assert len(wav.rendered) == 2 and wav.rendered[0].frames < wav.rendered[1].frames
    rate = wav.rendered[0].rate
    assert _frames(out)[3] == wav.rendered[0].frames + wav.rendered[1].frames + int(round(0.35 * rate))


@pytest.mark.slow
def test_caller_setup_voice_out_end_to_end(tmp_path, capsys):
    out = tmp_path / "x.wav"
    assert caller_main(["setup", "--seed", "3", "--voice-out", str(out)]) == 0
    stdout, stderr = capsys.readouterr()
    assert "Row five: Green 4, Black 5, Blue 2, Red 3, and the hole.\n" in stdout
    assert "Audio saved" not in stdout and stderr == ""
    rate, channels, width, frames = _frames(out)
    assert (channels, width) == (1, 2) and rate > 0 and frames > 7 * rate  # seven sentences, over a second each


def test_voice_out_into_a_missing_folder_is_one_clear_error(tmp_path, capsys):
    bad = tmp_path / "nope" / "x.wav"
    assert caller_main(["setup", "--seed", "3", "--voice-out", str(bad)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [f"caller: error: {bad}: the folder {bad.parent} does not exist"]


def _fake_aplay(tmp_path, monkeypatch, script: str):
    folder = tmp_path / "bin"
    folder.mkdir()
    aplay = folder / "aplay"
    aplay.write_text("#!/bin/sh\n" + script + "\n")
    aplay.chmod(aplay.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    return folder


@pytest.mark.slow
def test_speaker_without_sound_card_says_so_once_and_text_goes_on(tmp_path, monkeypatch, capsys):
    _fake_aplay(tmp_path, monkeypatch,
                'echo "aplay: main:831: audio open error: No such file or directory" >&2; exit 1')
    out = io.StringIO()
    speaker = SpeakerSink()
    with Announcer([ConsoleSink(out), speaker], start=False) as a:
        a.announce("Go!")
        a.announce(WARNING, priority="warning")
    assert out.getvalue() == "Caller: Row 2, column 3: the Red Ace was lifted.\nCaller: Go!\n"
    assert capsys.readouterr().err == (
        "caller: no audio device (aplay failed: aplay: main:831: audio open error: No such file or directory):"
        " speaking in text only\n"
    )
    assert speaker.spoken == 0


@pytest.mark.slow
def test_speaker_plays_through_aplay(tmp_path, monkeypatch, capsys):
    log = tmp_path / "played.txt"
    _fake_aplay(tmp_path, monkeypatch, f'echo "$@" >> {log}')
    speaker = SpeakerSink()
    with Announcer([speaker]) as a:
        a.announce("Go!")
        a.announce("Done!")
    assert speaker.spoken == 2
    calls = log.read_text().splitlines()
    assert len(calls) == 2 and all(c.startswith("-q ") and c.endswith(".wav") for c in calls)
    assert capsys.readouterr().err == ""


def test_missing_aplay_is_no_audio_device(monkeypatch):
    monkeypatch.setattr(engine_mod.shutil, "which", lambda name: None)
    with pytest.raises(engine_mod.NoAudioDevice, match="aplay is not installed"):
        engine_mod.play_wav("x.wav", 1.0)


def _no_driver(monkeypatch):
    def broken(self):
        raise EngineUnavailable("the pyttsx3 driver could not start: libespeak-ng.so.1 not found (install espeak-ng)")

    monkeypatch.setattr(engine_mod._Pyttsx3, "__init__", broken)
    fresh = ThreadEngine()
    monkeypatch.setattr(engine_mod, "shared_engine", lambda: fresh)


def test_no_speech_engine_speaker_falls_back_to_text_once(monkeypatch, capsys):
    _no_driver(monkeypatch)
    out = io.StringIO()
    with Announcer([ConsoleSink(out), SpeakerSink()]) as a:
        a.announce("Pawns: Black.")
        a.announce("Coins: 2.")
    assert out.getvalue() == "Caller: Pawns: Black.\nCaller: Coins: 2.\n"
    assert capsys.readouterr().err == (
        "caller: no speech engine (the pyttsx3 driver could not start: libespeak-ng.so.1 not found"
        " (install espeak-ng)): speaking in text only\n"
    )


def test_no_speech_engine_wav_request_is_an_error(monkeypatch, tmp_path):
    _no_driver(monkeypatch)
    out = tmp_path / "x.wav"
    with pytest.raises(VoiceError, match=r"x\.wav was not written: the pyttsx3 driver could not start"):
        say(["Go!"], voice_out=out, speaker=True)
    assert not out.exists()


def test_a_hung_engine_costs_one_timeout_then_fails_fast(monkeypatch, tmp_path):
    release = threading.Event()

    class Stuck:
        driver = "espeak"

        def configure(self, *a):
            pass

        def render(self, text, path):
            release.wait(30)
            raise RenderFailed("released")

    monkeypatch.setattr(engine_mod, "_Pyttsx3", Stuck)
    eng = ThreadEngine()
    config = VoiceConfig(timeout_s=0.5)
    try:
        with pytest.raises(RenderFailed, match=r"hung \(rendering 'Go!' took over 0.5 s\)"):
            eng.render("Go!", str(tmp_path / "a.wav"), config)
        with pytest.raises(RenderFailed, match="hung"):
            eng.render("Done!", str(tmp_path / "b.wav"), config)
    finally:
        release.set()


def test_check_wav_says_what_is_wrong(tmp_path):
    with pytest.raises(RenderFailed, match="wrote no file"):
        check_wav(str(tmp_path / "none.wav"), "Go!")
    empty = tmp_path / "empty.wav"
    empty.write_bytes(b"")
    with pytest.raises(RenderFailed, match="wrote an empty file"):
        check_wav(str(empty))
    junk = tmp_path / "junk.wav"
    junk.write_bytes(b"x" * 100)
    with pytest.raises(RenderFailed, match="not a readable WAV"):
        check_wav(str(junk))
    silent = tmp_path / "silent.wav"
    concat_wavs([], str(silent))
    assert _frames(silent) == (22050, 1, 2, 0)
    with pytest.raises(RenderFailed, match="holds no sound"):
        check_wav(str(silent))


def test_concat_refuses_mixed_formats(tmp_path):
    paths = []
    for rate in (22050, 16000):
        p = tmp_path / f"{rate}.wav"
        with wave.open(str(p), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(rate)
            w.writeframes(b"\1\0" * 100)
        paths.append(str(p))
    with pytest.raises(RenderFailed, match="cannot join them"):
        concat_wavs(paths, str(tmp_path / "out.wav"))
    assert not (tmp_path / "out.wav").exists()
    info = concat_wavs(paths[:1] * 2, str(tmp_path / "two.wav"), gap_s=0.01)
    assert info.frames == 200 + 220


def test_wav_sink_in_missing_folder_reports_without_rendering(tmp_path):
    sink = WavSink(str(tmp_path / "no" / "x.wav"))
    with Announcer([sink], speech=Speech(VoiceConfig(), engine=SubprocessEngine())) as a:
        a.announce("Go!")
    assert sink.rendered == [] and "does not exist" in str(sink.error)
