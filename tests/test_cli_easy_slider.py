"""The Easy Slider commands: caller check, explain and hint (text, JSON, malformed input)."""

import copy
import json
import subprocess
import sys

import pytest

from caller.cli import main
from rules.easy_slider.game import GAME
from rules.easy_slider.state import is_done

# the real command in a child process, with the interpreter running these tests
CALLER = [sys.executable, "-m", "caller"]

START = GAME.to_json(GAME.setup(seed=7))
# seed 7: row 4 is Ma A3 S2 Cn (hole); row 3 is S4 M3 A4 S5 C2


def write(tmp_path, name, obj):
    path = tmp_path / name
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj))
    return str(path)


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def three_slides():
    """START after C2 down, S5 right, A4 right."""
    obj = copy.deepcopy(START)
    b = obj["board"]
    b[4][4], b[3][4], b[3][3], b[3][2] = b[3][4], b[3][3], b[3][2], None
    return obj


def solved():
    pawns, coins = "MSCA", "245a3"
    board = [[p + c for c in coins] for p in pawns] + [["An", "Cn", None, "Mn", "Sn"]]
    return {"board": board, "pawns": list(pawns), "coins": list(coins)}


# ---- check


def test_check_a_fresh_setup_lists_the_wrong_cells(tmp_path, capsys):
    path = write(tmp_path, "start.json", START)
    status, out, err = run(capsys, "check", path, "--json")
    assert status == 0 and err == ""
    report = json.loads(out)
    assert report["legal"] is True and report["done"] is False
    assert len(report["problems"]) == 21
    assert report["problems"][0] == {
        "cells": [[0, 0]],
        "has": "C3",
        "wants": "A2",
        "message": "[0, 0] has Green 3 (C3), wants Blue 2 (A2)",
    }
    status, out, _ = run(capsys, "check", path)
    assert out.splitlines()[:2] == ["Not done: 21 cells are wrong.", "  [0, 0] has Green 3 (C3), wants Blue 2 (A2)"]


def test_check_done_with_extra_read_keys(tmp_path, capsys):
    obj = dict(solved(), image="x.jpg", game="easy-slider", confidence=0.9, uncertain=[])
    path = write(tmp_path, "done.json", obj)
    status, out, _ = run(capsys, "check", path, "--json")
    assert (status, json.loads(out)) == (0, {"legal": True, "done": True, "problems": []})
    status, out, _ = run(capsys, "check", path)
    assert out == "Done! The board matches the pawns and coins.\n"


def test_check_a_lifted_tile_is_not_legal(tmp_path, capsys):
    obj = solved()
    obj["board"][1][1] = None  # S4 lifted
    status, out, _ = run(capsys, "check", write(tmp_path, "lifted.json", obj), "--json")
    assert status == 0
    assert json.loads(out) == {
        "legal": False,
        "done": False,
        "problems": [
            {
                "cells": [[1, 1], [4, 2]],
                "missing": ["S4"],
                "message": "Red 4 (S4) missing from the board: 2 holes, expected one",
            }
        ],
    }


# ---- explain


def test_explain_several_slides(tmp_path, capsys):
    before = write(tmp_path, "before.json", START)
    after = write(tmp_path, "after.json", three_slides())
    status, out, err = run(capsys, "explain", before, after, "--json")
    assert status == 0 and err == ""
    assert json.loads(out) == {
        "legal": True,
        "slides": [
            {"tile": "C2", "from": [3, 4], "to": [4, 4]},
            {"tile": "S5", "from": [3, 3], "to": [3, 4]},
            {"tile": "A4", "from": [3, 2], "to": [3, 3]},
        ],
        "shortest": True,
    }
    status, out, _ = run(capsys, "explain", before, after)
    assert out.splitlines() == [
        "3 slides:",
        "  1. Green 2 (C2) down from [3, 4] to [4, 4]",
        "  2. Red 5 (S5) right from [3, 3] to [3, 4]",
        "  3. Blue 4 (A4) right from [3, 2] to [3, 3]",
    ]


def test_explain_no_change(tmp_path, capsys):
    before = write(tmp_path, "before.json", START)
    status, out, _ = run(capsys, "explain", before, before, "--json")
    assert json.loads(out) == {"legal": True, "slides": [], "shortest": True}
    status, out, _ = run(capsys, "explain", before, before)
    assert out == "No change.\n"


def test_explain_with_a_limit(tmp_path, capsys):
    before = write(tmp_path, "before.json", START)
    after = write(tmp_path, "after.json", three_slides())
    status, out, _ = run(capsys, "explain", before, after, "--json", "--max-slides", "2")
    assert json.loads(out) == {
        "legal": False,
        "reason": "the board changed too much to be 2 slides or fewer",
        "cells": [[3, 2], [3, 3], [3, 4], [4, 4]],
    }


@pytest.mark.parametrize(
    "change, reason, cells",
    [
        (
            lambda b: b[0].__setitem__(slice(0, 2), [b[0][1], b[0][0]]),
            "Green 3 and Red Null changed places: tiles must slide into the hole, not swap",
            [[0, 0], [0, 1]],
        ),
        (
            lambda b: b[0].__setitem__(0, None),
            "Green 3 (C3) from [0, 0] was lifted off the board: 2 holes",
            [[0, 0]],
        ),
        (
            lambda b: (b[4].__setitem__(4, b[3][3]), b[3].__setitem__(3, None)),
            "Red 5 moved diagonally from [3, 3] to [4, 4]: tiles slide along rows and columns only",
            [[3, 3], [4, 4]],
        ),
    ],
)
def test_explain_illegal_changes(tmp_path, capsys, change, reason, cells):
    obj = copy.deepcopy(START)
    change(obj["board"])
    before = write(tmp_path, "before.json", START)
    after = write(tmp_path, "after.json", obj)
    status, out, _ = run(capsys, "explain", before, after, "--json")
    assert status == 0
    assert json.loads(out) == {"legal": False, "reason": reason, "cells": cells}
    status, out, _ = run(capsys, "explain", before, after)
    assert out.startswith(f"Illegal: {reason}.")


def test_explain_reports_moved_pawns(tmp_path, capsys):
    obj = copy.deepcopy(START)
    obj["pawns"] = ["M", "A", "S", "C"]
    before = write(tmp_path, "before.json", START)
    status, out, _ = run(capsys, "explain", before, write(tmp_path, "after.json", obj), "--json")
    assert json.loads(out) == {"legal": False, "reason": "the pawns changed: A M S C became M A S C", "cells": []}


# ---- hint


def test_hint_gives_a_legal_first_slide_of_a_solution(tmp_path, capsys):
    path = write(tmp_path, "start.json", START)
    status, out, _ = run(capsys, "hint", path, "--json")
    assert status == 0
    reply = json.loads(out)
    assert reply["next"]["tile"] in {"C2", "Cn"} and reply["next"]["to"] == [4, 4]
    assert 40 <= reply["solution_length"] <= 400
    status, text, _ = run(capsys, "hint", path)
    assert text.startswith("Slide ") and f"takes {reply['solution_length']} slides" in text


def test_hint_on_a_done_board(tmp_path, capsys):
    path = write(tmp_path, "done.json", solved())
    status, out, _ = run(capsys, "hint", path, "--json")
    assert json.loads(out) == {"next": None, "solution_length": 0}
    status, out, _ = run(capsys, "hint", path)
    assert out == "Done already: nothing to slide.\n"


def test_hint_one_slide_from_done(tmp_path, capsys):
    obj = solved()
    b = obj["board"]
    b[4][2], b[3][2] = b[3][2], None  # A5 slid down into the hole
    assert not is_done(GAME.from_json(obj))
    status, out, _ = run(capsys, "hint", write(tmp_path, "one.json", obj), "--json")
    assert json.loads(out) == {"next": {"tile": "A5", "from": [4, 2], "to": [3, 2]}, "solution_length": 1}


# ---- malformed input: one line on stderr, exit status 2


def _doubled():
    obj = copy.deepcopy(START)
    obj["board"][0][0] = "Sn"
    return obj


def _bad_code():
    obj = copy.deepcopy(START)
    obj["board"][2][2] = "X7"
    return obj


def _short_row():
    obj = copy.deepcopy(START)
    obj["board"][1] = obj["board"][1][:4]
    return obj


MALFORMED = [
    ("{not json", "not valid JSON"),
    ([1, 2, 3], "must be a JSON object"),
    ({"pawns": ["M", "S", "C", "A"]}, "lacks 'board'"),
    (_short_row(), "must be 5 rows of 5 cells"),
    (_bad_code(), "'X7'"),
    (_doubled(), "tile Sn is on the board twice"),
    (dict(START, pawns=["M", "S", "M", "A"]), "repeat a colour"),
    (dict(START, coins=["2", "4", "5", "a", "9"]), "'9'"),
]


@pytest.mark.parametrize("command", ["check", "hint", "explain-before", "explain-after"])
@pytest.mark.parametrize("content, message", MALFORMED)
def test_malformed_input_is_one_line_and_status_2(tmp_path, capsys, command, content, message):
    bad = write(tmp_path, "bad.json", content)
    good = write(tmp_path, "good.json", START)
    argv = {
        "check": ["check", bad],
        "hint": ["hint", bad],
        "explain-before": ["explain", bad, good],
        "explain-after": ["explain", good, bad],
    }[command]
    status, out, err = run(capsys, *argv, "--json")
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("caller: error: ") and message in err
    assert bad in err


def test_missing_file(tmp_path, capsys):
    status, out, err = run(capsys, "check", str(tmp_path / "nope.json"))
    assert status == 2 and "no such file" in err


def test_check_needs_pawns_and_coins(tmp_path, capsys):
    bad = write(tmp_path, "bad.json", {"board": START["board"]})
    status, _, err = run(capsys, "check", bad)
    assert status == 2 and "lacks 'pawns' and 'coins'" in err


def test_real_command_prints_no_traceback(tmp_path):
    bad = write(tmp_path, "bad.json", _doubled())
    good = write(tmp_path, "good.json", START)
    for argv in (["check", bad], ["explain", good, bad], ["hint", bad]):
        proc = subprocess.run([*CALLER, *argv], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2
        assert proc.stdout == ""
        assert "Traceback" not in proc.stderr
        assert proc.stderr == f"caller: error: {bad}: tile Sn is on the board twice, at [0, 0] and [0, 1]\n"
    proc = subprocess.run([*CALLER, "check", good, "--json"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and json.loads(proc.stdout)["legal"] is True
