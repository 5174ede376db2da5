"""Truth files for calibration: the caller-read schema, validated; pairing truths with images."""

from __future__ import annotations

import json

import pytest

from calibration.errors import CalibrationError
from calibration.truth import load_truths, pair_truths, truth_from_json
from simulator.layouts import easy_slider_layout

LAYOUT = easy_slider_layout(1)


def test_a_read_line_with_extra_keys_is_a_truth():
    obj = dict(LAYOUT, image="x.jpg", confidence=0.97, uncertain=[[2, 3]], covered=[[0, 1]], look="standard")
    t = truth_from_json(obj, "t.json")
    assert t.board[0] == ("Ca", "C4", "Sa", "M4", "An")
    assert t.board[4][4] is None
    assert t.pawns == ("A", "S", "C", "M") and t.coins == ("4", "5", "2", "a", "3")
    assert t.covered == frozenset({(0, 1)}) and t.image == "x.jpg"
    assert t.to_json() == {"board": LAYOUT["board"], "pawns": LAYOUT["pawns"], "coins": LAYOUT["coins"]}


@pytest.mark.parametrize(
    "change, message",
    [
        ({"coins": ["4", "5", "2", "a", "a"]}, "t.json: not a valid easy-slider layout"),
        ({"game": "slide"}, "t.json: a layout of game 'slide', calibration learns 'easy-slider' sets"),
        ({"covered": [[5, 0]]}, r"t.json: covered cell \[5, 0\]: expected \[row, col\]"),
    ],
)
def test_bad_truths_are_refused_naming_the_file(change, message):
    with pytest.raises(CalibrationError, match=message):
        truth_from_json(dict(LAYOUT, **change), "t.json")


def test_a_doubled_tile_is_refused():
    board = [list(r) for r in LAYOUT["board"]]
    board[0][1] = board[0][0]
    with pytest.raises(CalibrationError, match="not a valid easy-slider layout"):
        truth_from_json(dict(LAYOUT, board=board), "t.json")


def test_files_hold_one_layout_a_list_or_json_lines(tmp_path):
    other = easy_slider_layout(2)
    (tmp_path / "one.json").write_text(json.dumps(LAYOUT))
    (tmp_path / "list.json").write_text(json.dumps([LAYOUT, other]))
    (tmp_path / "lines.jsonl").write_text(json.dumps(dict(LAYOUT, image="a.png")) + "\n" + json.dumps(dict(other, image="b.png")) + "\n")
    assert len(load_truths([tmp_path / "one.json"])) == 1
    two = load_truths([tmp_path / "list.json"])
    assert [t.board for t in two] == [truth_from_json(LAYOUT).board, truth_from_json(other).board]
    assert two[1].source.endswith("list.json item 2")
    lines = load_truths([tmp_path / "lines.jsonl"])
    # matched by image key, whatever the order on the command line
    paired = pair_truths(["dir/b.png", "dir/a.png"], lines)
    assert [t.image for t in paired] == ["b.png", "a.png"]
    with pytest.raises(CalibrationError, match="no such truth file"):
        load_truths([tmp_path / "missing.json"])
    (tmp_path / "bad.json").write_text("{nope")
    with pytest.raises(CalibrationError, match=r"bad.json: not valid JSON \(line 1 column 2"):
        load_truths([tmp_path / "bad.json"])


def test_pairing_by_order_or_one_for_all():
    a, b = truth_from_json(LAYOUT, "a"), truth_from_json(easy_slider_layout(2), "b")
    assert pair_truths(["1.png", "2.png"], [a, b]) == [a, b]
    assert pair_truths(["1.png", "2.png", "3.png"], [a]) == [a, a, a]
    with pytest.raises(CalibrationError, match="3 images and 2 truths: expected one truth per image"):
        pair_truths(["1.png", "2.png", "3.png"], [a, b])
