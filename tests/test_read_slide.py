"""Reading a Slide grid with the camera: ``caller read --game slide``, ``caller slide
score-photo`` and the cards reader (``vision.card_grid``, ``vision.cards``).

The samples (``sample_images/slide_*.jpg``) are renders whose truth is in the player's frame
(row 0 where the numerals' tops point), whichever way round the camera stands: the read
must give the truth's grid exactly.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

import rules
from caller.cli import main
from vision.card_grid import locate_cards
from vision.errors import BoardNotFound
from vision.table_reader import table_reader

SAMPLES = Path(__file__).resolve().parents[1] / "sample_images"
TABLE = rules.record("slide").table


def _truth(stem: str) -> dict:
    return json.loads((SAMPLES / f"{stem}.json").read_text())


def _grid(truth: dict) -> list[list]:
    return [["down" if isinstance(v, dict) else v for v in row] for row in truth["grid"]]


def _one_error(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("caller: error: "), err
    return lines[0]


@pytest.mark.parametrize("stem", ["slide_a", "slide_b", "slide_finished"])
def test_the_samples_read_as_their_truth(stem, capsys):
    truth = _truth(stem)
    image = str(SAMPLES / f"{stem}.jpg")
    assert main(["read", image, "--game", "slide", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    got = json.loads(out)
    assert list(got) == ["image", "game", "grid", "confidence", "uncertain", "board_corners"]
    assert (got["image"], got["game"]) == (image, "slide")
    assert got["grid"] == _grid(truth)
    # the grid's corners in the player's frame: the truth's outer corners of its corner slots
    cells = np.array(truth["cells"], float)
    expected = np.array([cells[0, 0, 0], cells[0, 3, 1], cells[3, 3, 2], cells[3, 0, 3]])
    width = np.linalg.norm(cells[0, 0, 1] - cells[0, 0, 0])
    assert np.linalg.norm(np.array(got["board_corners"]) - expected, axis=1).max() < 0.3 * width


def test_the_text_report_shows_the_grid_a_row_a_line(capsys):
    image = str(SAMPLES / "slide_finished.jpg")
    assert main(["read", image, "--game", "slide"]) == 0
    out, _ = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].startswith(f"{image}: confidence ")
    assert [line.split() for line in lines[1:5]] == [[str(v) for v in row] for row in _grid(_truth("slide_finished"))]


@pytest.mark.parametrize("k", [1, 2, 3])
def test_the_grid_is_read_in_the_player_s_frame_whichever_way_the_picture_is_turned(k):
    image = cv2.imread(str(SAMPLES / "slide_finished.jpg"))
    turned = np.ascontiguousarray(np.rot90(image, k))
    obs = table_reader(TABLE).read(turned)
    assert [list(row) for row in obs.grid] == _grid(_truth("slide_finished"))


def test_score_photo_scores_a_finished_grid(capsys):
    image = str(SAMPLES / "slide_finished.jpg")
    assert main(["slide", "score-photo", image, "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    got = json.loads(out)
    assert list(got) == ["image", "points", "cards", "grid", "cancelled", "confidence"]
    assert (got["points"], got["cards"]) == (65, 11)
    assert got["grid"] == [[4, 10, 9, 3], [6, 10, 8, 10], [2, 10, 1, 8], [5, 9, 4, 4]]
    assert got["cancelled"] == [[0, 1], [1, 1], [2, 1], [3, 2], [3, 3]]
    assert main(["slide", "score-photo", image]) == 0
    out, _ = capsys.readouterr()
    assert out.splitlines()[-1] == "65 points from 4 + 9 + 3 + 6 + 8 + 10 + 2 + 1 + 8 + 5 + 9 (11 cards left, 5 cancelled)"


def test_score_photo_names_the_slots_that_keep_a_grid_from_being_scored(capsys):
    image = str(SAMPLES / "slide_b.jpg")
    assert _grid(_truth("slide_b"))[0][0] == "down" and _grid(_truth("slide_b"))[3][2] == "down"
    assert main(["slide", "score-photo", image]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    line = _one_error(err)
    assert line.startswith(f"caller: error: {image}: cannot score it: ")
    assert "slots [1, 1], [4, 3] hold a card face down: a finished grid has 16 cards face up" in line


def test_score_photo_of_no_grid_is_one_line_and_exit_1(tmp_path, capsys):
    blank = tmp_path / "table.png"
    cv2.imwrite(str(blank), np.full((360, 640, 3), (60, 90, 120), np.uint8))
    assert main(["slide", "score-photo", str(blank)]) == 1
    _, err = capsys.readouterr()
    assert _one_error(err) == (f"caller: error: {blank}: no grid of cards in view: 0 card-shaped outlines found, "
                               "8 needed")


def test_a_checked_cloth_is_no_grid_of_cards():
    # squares touching edge to edge, of a card's size: many outlines, no gaps, no card's proportions
    yy, xx = np.mgrid[0:720, 0:1280]
    cloth = np.where(((xx // 48) + (yy // 48)) % 2 == 0, 200, 90).astype(np.uint8)
    image = cv2.cvtColor(cloth, cv2.COLOR_GRAY2BGR)
    with pytest.raises(BoardNotFound, match="^no grid of cards in view: "):
        locate_cards(image)


def test_cards_drawn_flat_give_their_lattice_and_its_pitch():
    # sixteen white cards 66 x 94 px, 10 px apart, on a dark table, seen straight on
    image = np.full((600, 800, 3), 40, np.uint8)
    for r in range(4):
        for c in range(4):
            x, y = 200 + c * 76, 100 + r * 104
            cv2.rectangle(image, (x, y), (x + 65, y + 93), (235, 235, 235), -1)
    lattice = locate_cards(image)
    assert (lattice.rows, lattice.cols, len(lattice.found)) == (4, 4, 16)
    corners = lattice.board_corners()
    assert np.abs(corners - [[200, 100], [494, 100], [494, 506], [200, 506]]).max() < 2.5
    # the pitch: a card and a gap
    centre = [[lattice.slot_corners(r, c).mean(0) for c in range(4)] for r in range(4)]
    assert np.linalg.norm(centre[0][1] - centre[0][0]) == pytest.approx(76, abs=1)
    assert np.linalg.norm(centre[1][0] - centre[0][0]) == pytest.approx(104, abs=1)
    assert 0.1 < lattice.gap[0] < 0.25 and 0.07 < lattice.gap[1] < 0.18


def test_a_hand_over_the_grid_is_flagged_not_misread():
    from simulator.render import render_table

    truth_layout = {"game": "slide", "grid": _truth("slide_finished")["grid"], "deck": "cream"}
    r = render_table(truth_layout, seed=12, game="slide", look="standard", hands=1)
    covered = {tuple(c) for c in r.truth["covered"]}
    assert covered  # the hand is over some slots
    obs = table_reader(TABLE).read(r.image)
    wrong = {(i, j) for i in range(4) for j in range(4) if obs.grid[i][j] != r.truth["grid"][i][j]}
    assert wrong <= set(obs.uncertain)
