"""A set whose faces are the table's colour (white tiles on a white laminate, pastel paper on
a cream cloth): the hole shows no less paper than a blank face, so the calibration's hole
check stands aside and the faces' own structure checks the layout."""

from __future__ import annotations

import pytest

import calibration.learn as L
from calibration.truth import truth_from_json
from simulator.layouts import easy_slider_layout
from simulator.render import render_table
from vision.config import VisionConfig
from vision.reader import Reader

#: tuning edition 543: white plastic tiles, blank nulls, on a white laminate in window light
WHITE_ON_WHITE = 543
#: tuning edition 567: light wood on a blue felt
ON_FELT = 567


def _photo(ed: int, j: int, kind: str):
    seed = 20_000_000 + 8 * ed + j
    return render_table(easy_slider_layout(seed, kind=kind), seed=seed, edition=ed)


def _found(ed: int):
    cal = _photo(ed, 7, "setup")
    truth = truth_from_json(cal.truth)
    return cal, truth, L._choose_turn(cal.image, truth, VisionConfig(), L._prior().model("tiles"))


def test_the_ring_round_the_board_tells_a_table_like_the_paper():
    cfg = VisionConfig()
    ring = [L._table_paperness(a, cfg, L._paper(a.cell_images)) for _, _, a in (_found(WHITE_ON_WHITE), _found(ON_FELT))]
    assert ring[0] > L.TABLE_LIKE_PAPER > ring[1]
    assert (ring[0], ring[1]) == (1.0, 0.0)


@pytest.mark.slow
def test_white_tiles_on_a_white_table_are_learnt_and_read():
    # the hole check took a blank null at [0, 0] for the hole: "the truth puts the hole at
    # [4, 4] but that cell shows a tile face", and nothing was learnt
    cal = _photo(WHITE_ON_WHITE, 7, "setup")
    reader = Reader(L.learn_profile([("calibration photo", cal.image)], [truth_from_json(cal.truth)]).profile)
    for j, kind in ((0, "setup"), (1, "midgame")):
        photo = _photo(WHITE_ON_WHITE, j, kind)
        obs = reader.read(photo.image)
        assert [list(row) for row in obs.board] == photo.truth["board"]
        assert list(obs.pawns) == photo.truth["pawns"] and list(obs.coins) == photo.truth["coins"]


def test_a_hole_moved_in_the_layout_is_still_named_on_a_table_unlike_the_paper():
    cal, truth, a = _found(ON_FELT)
    board = [list(row) for row in cal.truth["board"]]
    assert board[4][4] is None and board[0][0] == "C5"
    board[4][4], board[0][0] = "C5", None
    moved = truth_from_json(dict(cal.truth, board=board))
    assert L._hole_problem(a, moved, VisionConfig()) == (
        "the truth puts the hole at [0, 0] but that cell shows a tile face; the hole is at [4, 4]")
