"""``caller render``: stills and videos with truth beside them, and one-line errors."""

import json

import cv2

from caller.cli import main
from simulator.layouts import easy_slider_layout


def test_render_a_dealt_still_with_truth_beside(tmp_path, capsys):
    out = tmp_path / "table.png"
    assert main(["render", "--seed", "7", "--kind", "solved", "--size", "640x360", "--look", "wood-classic", "-o", str(out)]) == 0
    truth = json.loads((tmp_path / "table.json").read_text())
    assert truth["board"] == easy_slider_layout(7, "solved")["board"] and truth["look"] == "wood-classic"
    assert cv2.imread(str(out)).shape == (360, 640, 3)
    assert "seed 7" in capsys.readouterr().out


def test_render_a_layout_file_and_another_game(tmp_path):
    layout = easy_slider_layout(2, "midgame")
    src = tmp_path / "layout.json"
    src.write_text(json.dumps({**layout, "image": "ignored.jpg"}))
    assert main(["render", str(src), "--seed", "1", "--size", "320x180", "--hands", "1", "-o", str(tmp_path / "a.jpg")]) == 0
    truth = json.loads((tmp_path / "a.json").read_text())
    assert truth["board"] == layout["board"] and len(truth["hands"]) == 1
    assert main(["render", "--game", "slide", "--seed", "2", "--size", "320x180", "-o", str(tmp_path / "s.jpg")]) == 0
    assert json.loads((tmp_path / "s.json").read_text())["game"] == "slide"


def test_render_a_video_with_a_progress_bar(tmp_path, capsys):
    out = tmp_path / "game.avi"
    assert main(["render", "--seed", "4", "--video", "--moves", "1", "--illegal", "1", "--fps", "8",
                 "--size", "320x180", "--clean", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "100%" in err and "frames" in err
    truth = json.loads((tmp_path / "game.json").read_text())
    assert [e["type"] for e in truth["events"]][0] == "board" and len(truth["events"]) == 3
    cap = cv2.VideoCapture(str(out))
    assert cap.read()[0]
    cap.release()


def test_user_errors_are_one_line_with_exit_status_2(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"board": [["S5"]]}')
    cases = [
        ["render", str(bad), "-o", str(tmp_path / "x.jpg")],
        ["render", str(tmp_path / "missing.json"), "-o", str(tmp_path / "x.jpg")],
        ["render", "--seed", "1", "-o", str(tmp_path / "x.mp4")],
        ["render", "--seed", "1", "--video", "-o", str(tmp_path / "x.jpg")],
        ["render", "--seed", "1", "--size", "big", "-o", str(tmp_path / "x.jpg")],
        ["render", "--seed", "1", "--look", "nope", "-o", str(tmp_path / "x.jpg")],
    ]
    for argv in cases:
        capsys.readouterr()
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("caller: error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    assert not (tmp_path / "x.jpg").exists()
