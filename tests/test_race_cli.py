"""``caller race`` end to end: two recorded players (rendered videos stand in for two cameras)."""

import json

import pytest

from caller.cli import main
from simulator.video import finishing_game, render_game_video

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def recordings(tmp_path_factory):
    folder = tmp_path_factory.mktemp("race")
    layout, actions = finishing_game(17, 3)  # three slides from solved; the same board for both players
    ann = render_game_video(layout, actions, seed=17, fps=30, size=(1280, 720), path=folder / "ann.mp4")
    bob_actions = actions[:1] + [{"type": "pause", "seconds": 12.0}]
    bob = render_game_video(layout, bob_actions, seed=18, fps=30, size=(1280, 720), path=folder / "bob.mp4")
    (folder / "layout.json").write_text(json.dumps(layout))
    return folder, ann, bob


def test_a_race_round_is_dealt_timed_verified_and_scored(recordings, capsys):
    folder, ann, bob = recordings
    out = folder / "round.json"
    totals = folder / "totals.json"
    events = folder / "events.jsonl"
    status = main(["race", str(folder / "ann.mp4"), str(folder / "bob.mp4"), "--players", "Ann,Bob",
                   "--layout", str(folder / "layout.json"), "--no-voice", "--out", str(out),
                   "--totals", str(totals), "--rounds", "1", "--events", str(events)])
    assert status == 0, capsys.readouterr().err
    record = json.loads(out.read_text())
    ann_done = next(e for e in ann["events"] if e["type"] == "done")
    assert record["complete"] is True
    assert [(f["player"], f["correct"]) for f in record["finishes"]] == [("Ann", True)]
    assert ann_done["t"] <= record["finishes"][0]["t"] <= ann_done["t"] + 1.5
    assert record["points"] == {"Ann": 1, "Bob": 0}
    assert record["slides"] == {"Ann": 3, "Bob": 1}
    assert json.loads(totals.read_text()) == {"players": ["Ann", "Bob"], "rounds": [{"Ann": 1, "Bob": 0}],
                                              "rounds_planned": 1}
    lines = [json.loads(line) for line in events.read_text().splitlines()]
    assert [e["type"] for e in lines if e["type"] in ("finish", "round_over")] == ["finish", "round_over"]
    said = capsys.readouterr().out
    assert "Caller: Ann: Done! Correct" in said
    assert "Caller: Ann wins with 1 point." in said or "Ann wins" in said
    assert "Round 1: Ann (" in said


def test_race_argument_errors_are_one_line(recordings, capsys):
    folder, _, _ = recordings
    video = str(folder / "ann.mp4")
    assert main(["race", video, "--players", "Ann,Bob", "--no-voice"]) == 2
    assert "2 players need 2 sources" in capsys.readouterr().err
    assert main(["race", video, video, "--players", "Ann,Ann", "--no-voice"]) == 2
    assert "at least two distinct names" in capsys.readouterr().err
    assert main(["race", video, "--split", "3x1", "--players", "Ann,Bob", "--no-voice"]) == 2
    assert "gives 3 regions" in capsys.readouterr().err
    assert main(["race", video, "--split", "two", "--players", "Ann,Bob", "--no-voice"]) == 2
    assert "expected COLSxROWS" in capsys.readouterr().err
