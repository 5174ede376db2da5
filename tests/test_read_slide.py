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
from vision.card_grid import card_quads, locate_cards
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


def test_each_slot_s_look_is_given_in_the_player_s_frame_and_a_slot_looks_like_itself_turned():
    """``looks``: each slot's coarse Lab picture, in the same frame as the grid. The picture
    turned half round reads in the same frame, so each slot's look matches its own there
    (the same card, a pixel or two apart) and not its neighbours' (another number)."""
    from vision.cards import LOOK, look_distance

    image = cv2.imread(str(SAMPLES / "slide_finished.jpg"))
    reader = table_reader(TABLE)
    a, b = reader.read(image), reader.read(np.ascontiguousarray(np.rot90(image, 2)))
    assert a.grid == b.grid and a.looks.shape == b.looks.shape == (4, 4, LOOK[1], LOOK[0], 3)
    same = [look_distance(a.looks[r, c], b.looks[r, c]) for r in range(4) for c in range(4)]
    other = [look_distance(a.looks[r, c], b.looks[r, (c + 1) % 4]) for r in range(4) for c in range(4)]
    assert max(same) < 1.0 and min(other) > 4.0


def _rect(x0, y0, x1, y1):
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float)


def test_two_cards_laid_touching_closed_as_one_outline_are_split_in_two_by_the_last_look():
    from vision.card_grid import split_pairs

    # cards 100 x 145 px seen square on: the outline of two laid side by side (touching), the
    # two closed one by one inside it (a little smaller), and four other cards of the grid
    pair = _rect(100, 100, 300, 245)
    inner = [_rect(104, 104, 196, 241), _rect(204, 104, 296, 241)]
    others = [_rect(100 + 105 * k, 300, 200 + 105 * k, 445) for k in range(4)]
    got = split_pairs([pair, *inner, *others], (1280, 720))
    assert len(got) == 8 and not any(np.array_equal(q, pair) for q in got)
    halves = sorted((q for q in got if q.min(0)[1] == 100), key=lambda q: q[0, 0])
    assert [q.tolist() for q in halves] == [_rect(100, 100, 200, 245).tolist(), _rect(200, 100, 300, 245).tolist()]
    # one card's outline holding two parts of its printed panel (a ring cuts it): no larger
    # than the other cards, so it stays whole
    card = _rect(100, 100, 200, 245)
    parts = [_rect(104, 104, 196, 168), _rect(104, 177, 196, 241)]
    assert len(split_pairs([card, *parts, *others], (1280, 720))) == 7
    # two squares of a checked cloth, closed as one and one by one: the halves are no card's shape
    squares = [_rect(100, 100, 300, 200), _rect(102, 102, 198, 198), _rect(202, 102, 298, 198)]
    cloth = [_rect(100 + 100 * k, 300, 200 + 100 * k, 400) for k in range(4)]
    assert len(split_pairs(squares + cloth, (1280, 720))) == 7


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


def _card_slots():
    """(row, col, x, y) of sixteen cards 66 x 94 px, 10 px apart, the grid's top-left corner at
    (200, 100): the layout the drawn-card tests share."""
    return [(r, c, 200 + c * 76, 100 + r * 104) for r in range(4) for c in range(4)]


def _white_cards(table: int = 40) -> np.ndarray:
    """The sixteen cards of ``_card_slots`` drawn white on a grey table of level ``table``."""
    image = np.full((600, 800, 3), table, np.uint8)
    for _, _, x, y in _card_slots():
        cv2.rectangle(image, (x, y), (x + 65, y + 93), (235, 235, 235), -1)
    return image


def test_cards_drawn_flat_give_their_lattice_and_its_pitch():
    # sixteen white cards 66 x 94 px, 10 px apart, on a dark table, seen straight on
    lattice = locate_cards(_white_cards())
    assert (lattice.rows, lattice.cols, len(lattice.found)) == (4, 4, 16)
    corners = lattice.board_corners()
    assert np.abs(corners - [[200, 100], [494, 100], [494, 506], [200, 506]]).max() < 2.5
    # the pitch: a card and a gap
    centre = [[lattice.slot_corners(r, c).mean(0) for c in range(4)] for r in range(4)]
    assert np.linalg.norm(centre[0][1] - centre[0][0]) == pytest.approx(76, abs=1)
    assert np.linalg.norm(centre[1][0] - centre[0][0]) == pytest.approx(104, abs=1)
    assert 0.1 < lattice.gap[0] < 0.25 and 0.07 < lattice.gap[1] < 0.18


def test_the_second_look_asked_for_adds_no_grid_already_offered():
    from vision.card_grid import CardGridSearch

    # the sixteen white cards of the test above: the first look finds them, and the second,
    # asked for, finds the same grid again and leaves it out
    search = CardGridSearch(_white_cards())
    assert len(search.first) == 1
    assert search.second() == []


def test_light_cards_on_a_light_table_are_found_by_a_second_look():
    # sixteen cards 66 x 94 px, 10 px apart, on a light table: five drawn with a dark edge,
    # the others only a little off the table's colour, so that their edges do not close
    image = np.full((600, 800, 3), (200, 205, 210), np.uint8)
    for r, c, x, y in _card_slots():
        if (r, c) in {(0, 0), (0, 1), (1, 0), (1, 1), (2, 2)}:
            cv2.rectangle(image, (x, y), (x + 65, y + 93), (235, 235, 235), -1)
            cv2.rectangle(image, (x, y), (x + 65, y + 93), (60, 60, 60), 1)
        else:
            cv2.rectangle(image, (x, y), (x + 65, y + 93), (190, 212, 222), -1)
    image = cv2.GaussianBlur(image, (3, 3), 0)
    assert len(card_quads(image)) < 8  # the first look closes too few outlines
    lattice = locate_cards(image)
    assert (lattice.rows, lattice.cols) == (4, 4)
    assert np.abs(lattice.board_corners() - [[200, 100], [494, 100], [494, 506], [200, 506]]).max() < 4


def _rounded(image, x, y, w, h, radius, colour, thickness=-1):
    """A rectangle with rounded corners, filled (thickness -1) or outlined."""
    corners = ((x + radius, y + radius, 180), (x + w - radius, y + radius, 270),
               (x + w - radius, y + h - radius, 0), (x + radius, y + h - radius, 90))
    if thickness < 0:
        cv2.rectangle(image, (x + radius, y), (x + w - radius, y + h), colour, -1)
        cv2.rectangle(image, (x, y + radius), (x + w, y + h - radius), colour, -1)
        for cx, cy, _ in corners:
            cv2.circle(image, (cx, cy), radius, colour, -1)
        return
    for a, b in (((x + radius, y), (x + w - radius, y)), ((x + radius, y + h), (x + w - radius, y + h)),
                 ((x, y + radius), (x, y + h - radius)), ((x + w, y + radius), (x + w, y + h - radius))):
        cv2.line(image, a, b, colour, thickness)
    for cx, cy, angle in corners:
        cv2.ellipse(image, (cx, cy), (radius, radius), angle, 0, 90, colour, thickness)


def test_small_cards_with_rounded_printed_frames_are_found_by_their_straight_sides():
    # sixteen cards 41 x 59 px, 5 px apart, hardly off a light table, each with a printed
    # frame of rounded corners: only the frames' insides close, and their rounded corners
    # cut a four-corner approximation short unless the corners are put where the sides meet
    image = np.full((600, 800, 3), (200, 222, 232), np.uint8)
    for r in range(4):
        for c in range(4):
            x, y = 300 + c * 46, 180 + r * 64
            _rounded(image, x, y, 41, 59, 5, (205, 228, 238))
            _rounded(image, x + 4, y + 4, 33, 51, 6, (70, 110, 60), 1)
    image = cv2.GaussianBlur(image, (3, 3), 0)
    lattice = locate_cards(image)
    assert (lattice.rows, lattice.cols, len(lattice.found)) == (4, 4, 16)
    # the frames' outer edges (the outline found is the frame's inside, grown by the line)
    assert np.abs(lattice.board_corners() - [[304, 184], [476, 184], [476, 428], [304, 428]]).max() < 2.5


def test_a_row_whose_outlines_a_line_cuts_is_counted_by_the_edges_round_its_cards():
    # sixteen white cards, a dark pen lying across the second row: those four cards' outlines
    # do not close (each is cut in two), the other twelve's span three rows only
    image = np.full((600, 800, 3), 200, np.uint8)
    for _, _, x, y in _card_slots():
        cv2.rectangle(image, (x, y), (x + 65, y + 93), (245, 245, 245), -1)
        cv2.rectangle(image, (x, y), (x + 65, y + 93), (60, 60, 60), 2)
    cv2.line(image, (0, 250), (799, 250), (40, 40, 40), 4)
    image = cv2.GaussianBlur(image, (3, 3), 0)
    lattice = locate_cards(image)
    assert (lattice.rows, lattice.cols, len(lattice.found)) == (4, 4, 12)
    assert {r for r, _ in lattice.found} == {0, 2, 3}
    assert np.abs(lattice.board_corners() - [[200, 100], [494, 100], [494, 506], [200, 506]]).max() < 4.5


@pytest.mark.parametrize("low", [0, 6])
def test_a_row_of_white_cards_on_a_white_table_is_counted_by_its_faint_outlines(low):
    # sixteen cards on a blown-out white table: three rows drawn with a dark edge, the far row
    # white on white with only a faint grey line round each card (20 levels deep), ``low`` px
    # lower than the other rows' spacing puts it (the lattice's extrapolation, off under a
    # steep tilt); the line is far under the full edge step, the shift beyond EDGE_REACH
    image = np.full((600, 800, 3), 255, np.uint8)
    for r, c, x, y in _card_slots():
        if r == 0:
            cv2.rectangle(image, (x, y + low), (x + 65, y + low + 93), (235, 235, 235), 1)
        else:
            cv2.rectangle(image, (x, y), (x + 65, y + 93), (60, 60, 60), 2)
    image = cv2.GaussianBlur(image, (3, 3), 0)
    assert len(card_quads(image)) == 12  # the far row's outlines do not close
    lattice = locate_cards(image)
    assert (lattice.rows, lattice.cols, len(lattice.found)) == (4, 4, 12)
    assert {r for r, _ in lattice.found} == {1, 2, 3}
    assert np.abs(lattice.board_corners() - [[200, 100], [494, 100], [494, 506], [200, 506]]).max() < 2.5


def test_a_hand_over_the_grid_is_flagged_not_misread():
    from simulator.render import render_table

    truth_layout = {"game": "slide", "grid": _truth("slide_finished")["grid"], "deck": "cream"}
    r = render_table(truth_layout, seed=12, game="slide", look="standard", hands=1)
    covered = {tuple(c) for c in r.truth["covered"]}
    assert covered  # the hand is over some slots
    obs = table_reader(TABLE).read(r.image)
    wrong = {(i, j) for i in range(4) for j in range(4) if obs.grid[i][j] != r.truth["grid"][i][j]}
    assert wrong <= set(obs.uncertain)


def _deck_photo(path: Path, deck: str, seed: int) -> None:
    """A render of the calibration layout (``calibration.deck.DECK_LAYOUT``) in ``deck``."""
    from calibration.deck import DECK_LAYOUT
    from simulator.render import render_table

    grid = [[{"down": 5} if lab == "down" else int(lab) for lab in row] for row in DECK_LAYOUT]
    r = render_table({"game": "slide", "grid": grid, "deck": deck}, seed=seed, game="slide", look="standard")
    cv2.imwrite(str(path), r.image)


def test_calibrate_learns_a_deck_from_one_photo_of_its_layout(tmp_path, capsys):
    from vision.profile import load_profile

    photo = tmp_path / "deck.png"
    _deck_photo(photo, "deck-7", seed=31)
    out = tmp_path / "mydeck"
    assert main(["calibrate", "--game", "slide", str(photo), "--out", str(out)]) == 0
    printed, err = capsys.readouterr()
    assert err == "" and printed.startswith(f"wrote {out}.json and {out}.npz: deck 'mydeck' learnt from {photo}")
    base = load_profile(SAMPLES.parent / "vision" / "models" / "cards", game="cards", kinds=("cards",)).model("cards")
    learnt = load_profile(out, game="cards", kinds=("cards",)).model("cards")
    assert learnt.labels[len(base.labels):] == ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10") + ("down",) * 6
    # another photo of a grid in that deck reads with the profile
    from simulator.render import render_table

    layout = {"game": "slide", "grid": _truth("slide_finished")["grid"], "deck": "deck-7"}
    r = render_table(layout, seed=32, game="slide", look="wood-classic")
    other = tmp_path / "grid.png"
    cv2.imwrite(str(other), r.image)
    assert main(["read", str(other), "--game", "slide", "--profile", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr()[0])["grid"] == _grid(_truth("slide_finished"))


def test_calibrate_refuses_a_photo_not_laid_out_as_documented(tmp_path, capsys):
    photo = tmp_path / "grid.jpg"
    photo.write_bytes((SAMPLES / "slide_finished.jpg").read_bytes())  # no face-down cards at all
    assert main(["calibrate", "--game", "slide", str(photo), "--out", str(tmp_path / "d")]) == 2
    assert _one_error(capsys.readouterr()[1]).startswith("caller: error: the six face-down cards were not found where the layout puts them")
    assert main(["calibrate", "--game", "slide", str(photo), "--truth", "t.json", "--out", str(tmp_path / "d")]) == 2
    assert _one_error(capsys.readouterr()[1]) == ("caller: error: --game slide learns a deck from one photo of its "
                                                  "documented layout: --truth not taken")
    assert not list(tmp_path.glob("d.*"))


def test_a_profile_of_another_kind_is_refused_before_any_photo(capsys):
    default = str(SAMPLES.parent / "vision" / "models" / "default")
    assert main(["read", str(SAMPLES / "slide_a.jpg"), "--game", "slide", "--profile", default]) == 2
    assert _one_error(capsys.readouterr()[1]) == (f"caller: error: {default}: profile for game 'easy-slider', "
                                                  "expected a profile for 'cards'")
    assert main(["slide", "score-photo", "missing.jpg"]) == 1
    assert _one_error(capsys.readouterr()[1]) == "caller: error: missing.jpg: no such file"


class _QueuedModel:
    """A cards model whose costs are given: the upright read's, then the half-turned read's
    (16 slots x labels each, in the order ``read_slots`` asks for them)."""

    def __init__(self, *costs):
        from vision.cards import LABELS

        self.classes, self.outlier, self._costs = LABELS, 50.0, list(costs)

    def costs(self, features):
        return self._costs.pop(0)


def _slot_costs(face_at_00: float, other: float) -> np.ndarray:
    """Every slot best read as a back; slot (0, 0) as a 5 costing ``face_at_00``, the back next
    at ``other``."""
    from vision.cards import LABELS

    costs = np.full((16, len(LABELS)), 30.0)
    costs[:, LABELS.index("down")] = 5.0
    costs[0, LABELS.index("down")] = other
    costs[0, LABELS.index("5")] = face_at_00
    return costs


def test_only_a_face_read_sure_tells_the_grid_s_turn():
    """A back that reads, unsure, a little like a 5 in one half turn does not turn the grid (the
    camera's frame is kept: margin 0); a 5 read sure does."""
    from vision.card_grid import CardLattice
    from vision.cards import read_slots

    lattice = CardLattice(np.diag([60.0, 84.0, 1.0]), (0.1, 0.1), 4, 4, (), ())
    image = np.full((480, 360, 3), 90, np.uint8)
    # the card at slot (3, 3) reads upright as a back (every face 30), half turned (where it is
    # slot (0, 0)) as a 5 ahead of the back by 1 nat: unsure; then by 3 nats: sure
    unsure = read_slots(image, lattice, _QueuedModel(_slot_costs(30.0, 5.0), _slot_costs(4.0, 5.0)[::-1]))
    assert unsure.turn_margin == 0.0 and unsure.lattice is lattice and unsure.labels[0][0] == "down"
    sure = read_slots(image, lattice, _QueuedModel(_slot_costs(30.0, 5.0), _slot_costs(2.0, 5.0)[::-1]))
    assert sure.turn_margin == pytest.approx(28.0) and sure.labels[0][0] == 5 and sure.lattice is not lattice
