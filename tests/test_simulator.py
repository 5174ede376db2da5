"""The simulator's stills: determinism, geometric truth, looks, layouts, conditions, hands."""

import numpy as np
import pytest

import rules
from simulator import SimulatorError
from simulator.camera import CameraSpec
from simulator.layouts import easy_slider_layout
from simulator.looks import HELD_OUT_LOOKS, LOOKS
from simulator.render import CLEAN, render_table

SMALL = (640, 360)


def _inset(quad, f):
    q = np.asarray(quad, float)
    c = q.mean(0)
    return c + (q - c) * (1 - f)


def _grey(img, pt):
    x, y = int(round(pt[0])), int(round(pt[1]))
    return float(img[y - 1 : y + 2, x - 1 : x + 2].mean())


def test_same_seed_gives_identical_bytes_and_another_seed_differs():
    layout = easy_slider_layout(1)
    a = render_table(layout, seed=5, size=SMALL, hands=1)
    b = render_table(layout, seed=5, size=SMALL, hands=1)
    c = render_table(layout, seed=6, size=SMALL, hands=1)
    assert a.image.tobytes() == b.image.tobytes()
    assert a.truth == b.truth
    assert a.image.tobytes() != c.image.tobytes()
    assert a.image.shape == (360, 640, 3) and a.image.dtype == np.uint8


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_projected_cells_fall_on_the_drawn_tiles(seed):
    """Just inside every projected tile corner is bright tile face; the gaps between tiles are dark felt."""
    layout = easy_slider_layout(seed)
    cond = dict(CLEAN, table="felt", table_colour=3)
    r = render_table(layout, seed=seed, size=(1280, 720), conditions=cond)
    img = r.image.astype(float)
    cells = r.truth["cells"]
    inside, gaps = [], []
    for row in range(5):
        for col in range(5):
            if layout["board"][row][col] is None:
                hole = [_grey(img, p) for p in _inset(cells[row][col], 0.12)] + [_grey(img, np.mean(cells[row][col], 0))]
                continue
            q = _inset(cells[row][col], 0.07)
            inside += [_grey(img, p) for p in q[1:]]  # skip the top-left corner's suit symbol
            if col < 4 and layout["board"][row][col + 1] is not None:
                right = (np.array(cells[row][col][1]) + np.array(cells[row][col][2])) / 2
                left = (np.array(cells[row][col + 1][0]) + np.array(cells[row][col + 1][3])) / 2
                mid = np.round((right + left) / 2).astype(int)
                gaps.append(float(img[mid[1], mid[0]].mean()))
    assert min(inside) > 150, min(inside)
    assert max(hole) < 100, hole
    # narrow gaps can show a tile's side face, so only most of them must be table
    assert np.median(gaps) < 90, gaps


def test_truth_has_the_caller_read_layout_and_geometry():
    layout = easy_slider_layout(2, "midgame")
    r = render_table(layout, seed=2, size=SMALL)
    t = r.truth
    assert {k: t[k] for k in ("game", "board", "pawns", "coins")} == layout
    assert len(t["cells"]) == 5 and all(len(row) == 5 and all(len(q) == 4 for q in row) for row in t["cells"])
    assert len(t["board_corners"]) == 4 and len(t["pawn_points"]) == 4 and len(t["coin_points"]) == 5
    assert t["look"] == "standard" and t["size"] == [640, 360] and t["covered"] == []
    assert 0 <= t["camera"]["tilt_deg"] <= 40 and 300 <= t["camera"]["distance_mm"] <= 1300
    pts = np.array([p for row in t["cells"] for q in row for p in q] + t["pawn_points"] + t["coin_points"])
    assert (pts[:, 0] > 0).all() and (pts[:, 0] < 640).all() and (pts[:, 1] > 0).all() and (pts[:, 1] < 360).all()


def _camera(rotation, tilt=0.0):
    return CameraSpec(1280, 720, 900.0, 900.0, 640.0, 360.0, (0.0, 0.0, 0.0, 0.0, 0.0), tilt, rotation, 800.0)


def test_player_frame_follows_the_camera_rotation():
    layout = easy_slider_layout(3)
    up = render_table(layout, seed=1, camera=_camera(0.0), conditions=CLEAN).truth
    tl, tr, br, bl = np.array(up["board_corners"])
    assert tl[0] < tr[0] and tl[1] < bl[1] and abs(tl[1] - tr[1]) < 1e-6 + 0.5  # straight overhead, upright
    assert np.allclose((tl + br) / 2, (640, 360), atol=1.0)
    across = render_table(layout, seed=1, camera=_camera(180.0), conditions=CLEAN).truth
    tl2, tr2, br2, bl2 = np.array(across["board_corners"])
    assert tl2[0] > tr2[0] and tl2[1] > bl2[1]  # seen from across the table: upside down
    side = render_table(layout, seed=1, camera=_camera(90.0, tilt=30.0), conditions=CLEAN).truth
    tl3, tr3, _, bl3 = np.array(side["board_corners"])
    # camera on the player's right: the far side (row 1) appears on the image's right
    assert tl3[0] > bl3[0] and abs(tr3[1] - tl3[1]) > abs(tr3[0] - tl3[0])
    # coins lie beyond row 1, i.e. further right than the board's top edge
    for x, y in side["coin_points"]:
        edge_x = tl3[0] + (tr3[0] - tl3[0]) * (y - tl3[1]) / (tr3[1] - tl3[1])
        assert x > edge_x + 10


def test_explicit_camera_keeps_other_random_elements():
    layout = easy_slider_layout(3)
    cam = _camera(45.0, tilt=20.0)
    a = render_table(layout, seed=8, camera=cam, size=SMALL)
    b = render_table(layout, seed=8, size=SMALL)
    assert a.truth["conditions"] == b.truth["conditions"]
    assert a.truth["camera"]["rotation_deg"] == 45.0 and a.truth["camera"]["width"] == 640


def test_every_look_renders_and_one_is_held_out():
    assert "standard" in LOOKS and len(LOOKS) >= 4
    assert HELD_OUT_LOOKS and set(HELD_OUT_LOOKS) <= set(LOOKS) and "standard" not in HELD_OUT_LOOKS
    assert all(name.startswith("unseen-") for name in HELD_OUT_LOOKS)
    layout = easy_slider_layout(4)
    images = {}
    for name in LOOKS:
        r = render_table(layout, seed=4, look=name, size=SMALL, conditions=CLEAN)
        assert r.truth["look"] == name
        images[name] = r.image
    assert len({img.tobytes() for img in images.values()}) == len(LOOKS)
    with pytest.raises(SimulatorError, match="unknown look 'nope'"):
        render_table(layout, seed=4, look="nope", size=SMALL)


def test_layout_kinds_are_legal_easy_slider_positions():
    game = rules.get("easy-slider")
    for seed in range(6):
        setup = easy_slider_layout(seed)
        assert setup == game.to_json(game.setup(seed=seed))
        mid = game.from_json(easy_slider_layout(seed, "midgame"))
        solved = game.from_json(easy_slider_layout(seed, "solved"))
        assert game.is_over(solved) and not game.is_over(mid)
        assert mid.pawns == solved.pawns and mid.coins == solved.coins
    assert easy_slider_layout(9, "midgame") == easy_slider_layout(9, "midgame")


def test_hands_cover_cells_and_the_covered_cells_look_different():
    layout = easy_slider_layout(5)
    covered_any = False
    for seed in range(4):
        with_hand = render_table(layout, seed=seed, size=SMALL, hands=2, conditions=CLEAN)
        bare = render_table(layout, seed=seed, size=SMALL, hands=0, conditions=CLEAN)
        assert bare.truth["covered"] == []
        assert len(with_hand.truth["hands"]) == 2
        for r, c in with_hand.truth["covered"]:
            covered_any = True
            q = np.array(with_hand.truth["cells"][r][c])
            x0, y0 = np.maximum(q.min(0).astype(int), 0)
            x1, y1 = q.max(0).astype(int)
            diff = np.abs(with_hand.image[y0:y1, x0:x1].astype(int) - bare.image[y0:y1, x0:x1].astype(int))
            assert diff.max(axis=2).mean() > 8
    assert covered_any


def test_conditions_change_the_picture_and_bad_inputs_are_one_line_errors():
    layout = easy_slider_layout(6)
    warm = render_table(layout, seed=1, size=SMALL, conditions=dict(CLEAN, white_balance=-1.0)).image
    cold = render_table(layout, seed=1, size=SMALL, conditions=dict(CLEAN, white_balance=1.0)).image
    assert warm[..., 2].mean() - warm[..., 0].mean() > cold[..., 2].mean() - cold[..., 0].mean() + 20
    with pytest.raises(SimulatorError, match="unknown condition"):
        render_table(layout, seed=1, conditions={"fog": 1})
    with pytest.raises(SimulatorError, match=r"board\[0\]\[0\] is 'X9'"):
        render_table({**layout, "board": [["X9"] + layout["board"][0][1:]] + layout["board"][1:]}, seed=1)
    with pytest.raises(SimulatorError, match="hands"):
        render_table(layout, seed=1, hands=9)


def test_camera_json_round_trips_and_reprojects_the_truth():
    layout = easy_slider_layout(7)
    r = render_table(layout, seed=12, size=SMALL)
    cam = CameraSpec.from_json(r.truth["camera"])
    again = render_table(layout, seed=12, size=SMALL, camera=cam)
    assert np.allclose(np.array(again.truth["cells"]), np.array(r.truth["cells"]), atol=0.05)
    with pytest.raises(SimulatorError, match="bad camera JSON"):
        CameraSpec.from_json({"width": 10})


def test_pawn_and_coin_points_land_on_pawns_and_coins():
    layout = easy_slider_layout(8)
    cond = dict(CLEAN, table="felt", table_colour=3)
    r = render_table(layout, seed=3, camera=_camera(0.0, tilt=10.0), conditions=cond)
    img = r.image.astype(int)
    inks = {"S": (0, 94, 213), "C": (115, 158, 0), "A": (178, 114, 0)}
    for suit, (x, y) in zip(layout["pawns"], r.truth["pawn_points"]):
        xi, yi = int(round(x)), int(round(y))
        px = np.median(img[yi - 3 : yi + 4, xi - 3 : xi + 4].reshape(-1, 3), axis=0)  # past the highlight
        if suit == "M":
            assert px.max() < 90, (suit, px)  # a black pawn
        else:
            # the pawn's own hue: its strongest channel is the ink's strongest channel
            assert int(np.argmax(px)) == int(np.argmax(inks[suit])), (suit, px)
    for x, y in r.truth["coin_points"]:
        ring = [img[int(round(y + dy)), int(round(x + dx))].mean() for dx, dy in ((9, 0), (-9, 0), (0, 9))]
        assert min(ring) > 150  # cream coin face around the printed value
