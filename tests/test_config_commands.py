"""Every command that takes a settings file reads it through ``caller.config.load``: the same
errors, the same sections, and each section reaches the part that uses it."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest

from caller import cli
from caller import config as cfg

ROOT = Path(__file__).resolve().parents[1]
S = ROOT / "sample_images"
TYPO = "[voise]\nrate = 120\n"


def _settings(tmp_path, monkeypatch, text: str) -> Path:
    p = tmp_path / "caller.toml"
    p.write_text(text, encoding="utf-8")
    monkeypatch.setenv(cfg.ENV_VAR, str(p))
    return p


@pytest.mark.parametrize(
    "argv",
    [
        ["read", str(S / "easy-slider_setup_standard.jpg")],
        ["watch", str(S / "easy-slider_game.mp4"), "--no-voice", "--events", "EVENTS"],
        ["race", str(S / "easy-slider_game.mp4"), str(S / "easy-slider_game.mp4"), "--players", "Ann,Bob", "--no-voice"],
        ["setup", "--seed", "7"],
        ["demo", "--no-voice", "--voice-out", "DEMO.wav"],
        ["calibrate", "--setup", "7", "--camera-source", str(S / "easy-slider_setup_standard.jpg"), "--no-voice", "--out", "P"],
        ["calibrate", str(S / "easy-slider_solved_paper.jpg"), "--truth", str(S / "easy-slider_solved_paper.json"), "--out", "P"],
        ["play", "slide", "--seed", "1", "--voice-out", "OUT.wav"],
        ["play", "slider", "--voice-out", "OUT.wav"],
        ["play", "steppin-stones", "--voice-out", "OUT.wav"],
        ["play", "scavenger-hunt", "--voice-out", "OUT.wav"],
    ],
    ids=lambda argv: " ".join(a for a in argv[:2] if not a.startswith("/")),
)
def test_every_command_refuses_a_bad_settings_file_alike_before_any_work(tmp_path, monkeypatch, capsys, argv):
    # `read` and `play` used to ignore the settings file (`read` read only its own --config's
    # [vision] table), `calibrate` had none; an unknown section passed everywhere
    p = _settings(tmp_path, monkeypatch, TYPO)
    argv = [str(tmp_path / a) if a.isupper() or a.endswith(".wav") or a == "P" else a for a in argv]
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert err == f"caller: error: {str(p)!r}: unknown section [voise]: expected one of [voice], [vision], [calibration]\n"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["caller.toml"]  # nothing written


def test_read_uses_the_settings_file(tmp_path, monkeypatch, capsys):
    image = str(S / "easy-slider_midgame_hand_standard.jpg")
    assert cli.main(["read", image, "--json"]) == 0
    assert '"uncertain": [[0, 4], [1, 0], [2, 0], [2, 1], [3, 0], [4, 0]]' in capsys.readouterr().out
    # with no confidence required, nothing is uncertain (the covered cells' 0.0 is not below 0.0)
    _settings(tmp_path, monkeypatch, "[vision.assign]\nconfidence_threshold = 0.0\n")
    assert cli.main(["read", image, "--json"]) == 0
    assert '"uncertain": [], "uncertain_pawns": [], "uncertain_coins": []' in capsys.readouterr().out


def _spoken(monkeypatch) -> list:
    """Stand-in for ``voice.say`` that records the settings each call was given."""
    calls = []
    monkeypatch.setattr("voice.say", lambda lines, voice_out=None, speaker=False, config=None, **kw: calls.append(config))
    return calls


def test_play_speaks_with_the_voice_settings(tmp_path, monkeypatch):
    from caller.referees import slide

    p = _settings(tmp_path, monkeypatch, "[voice]\nrate = 200\n")
    calls = _spoken(monkeypatch)
    out = io.StringIO()
    assert slide.main(["--seed", "1", "--voice-out", str(tmp_path / "x.wav")], io.StringIO("quit\n"), out) == 0
    assert [c.rate for c in calls] == [200]
    calls.clear()
    q = tmp_path / "other.toml"
    q.write_text("[voice]\nrate = 90\n", encoding="utf-8")
    assert slide.main(["--seed", "1", "--voice-out", str(tmp_path / "x.wav"), "--config", str(q)], io.StringIO("quit\n"), out) == 0
    assert [c.rate for c in calls] == [90] and p.exists()


def test_the_guided_calibration_speaks_with_the_voice_settings(tmp_path, monkeypatch):
    import calibration.guided
    from calibration.errors import CalibrationError
    from caller.commands import calibrate

    _settings(tmp_path, monkeypatch, "[voice]\nrate = 200\n")
    calls = _spoken(monkeypatch)

    def shot(seed, open_source, *, announce, ask):
        announce(["Lay out the board."])
        raise CalibrationError("no photo")

    monkeypatch.setattr(calibration.guided, "guided_shot", shot)
    args = argparse.Namespace(setup=7, images=[], truth=[], camera=None, quiet=True, augment=4, seed=0, config=None,
                              camera_source="0", no_voice=False, voice_out=None, keep_photo=False, out=str(tmp_path / "p"), name=None)
    with pytest.raises(CalibrationError, match="no photo"):
        calibrate.run(args)
    assert [c.rate for c in calls] == [200]


def test_the_live_loop_takes_motion_pushes_and_tracker_from_the_reader_config():
    from caller.live import LiveCaller
    from caller.referees.easy_slider_live import EasySliderLive
    from caller.watch import UndistortingReader, Watcher
    from vision.config import VisionConfig
    from vision.reader import Reader

    vc = VisionConfig().replace(settle_s=0.4, accept_s=0.5, pushes__max_frames=10)
    for reader in (Reader(config=vc), UndistortingReader(Reader(config=vc), None)):
        w = Watcher(reader, LiveCaller(EasySliderLive()))
        assert (w.gate.config.settle_s, w.tracker.config.accept_s, w.track.config.max_frames) == (0.4, 0.5, 10)
    w = Watcher(Reader(), LiveCaller(EasySliderLive()))
    assert w.gate.config == VisionConfig().motion and w.track.config == VisionConfig().pushes
