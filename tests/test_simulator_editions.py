"""Procedural editions: determinism per seed, families, parameter ranges, named looks untouched."""

import json
from dataclasses import fields

import cv2
import numpy as np
import pytest

from caller.cli import main
from simulator import SimulatorError
from simulator import editions as E
from simulator import glyphs, tables
from simulator.layouts import easy_slider_layout
from simulator.looks import LOOKS, Look, register_look, sprite
from simulator.render import ALL_TABLES, CLEAN, CONDITION_KEYS, TABLES, render_table, sample_conditions, table_texture

SEEDS = range(300)


@pytest.fixture(scope="module")
def eds():
    return [E.edition(s) for s in SEEDS]


def test_the_same_seed_gives_the_same_edition_and_picture_and_another_seed_differs():
    a, b, c = E.edition(7), E.edition(7), E.edition(8)
    assert a == b and a.look.name == "edition-7" and a.summary() == b.summary()
    assert a.look != c.look
    layout = easy_slider_layout(3)
    r1 = render_table(layout, seed=3, edition=7, size=(320, 180))
    r2 = render_table(layout, seed=3, edition=7, size=(320, 180))
    r3 = render_table(layout, seed=3, edition=8, size=(320, 180))
    assert r1.image.tobytes() == r2.image.tobytes() and r1.truth == r2.truth
    assert not np.array_equal(r1.image, r3.image)
    assert r1.truth["look"] == "edition-7" and r1.truth["edition"] == a.summary()
    assert r1.truth["conditions"]["table"] == a.table and r1.truth["board"] == layout["board"]


def test_families_follow_the_sampled_parameters(eds):
    for ed in eds:
        f, look = ed.families, ed.look
        assert set(f) == {"tiles", "material", "frame", "table", "light"}
        y = E.luma(look.face)
        assert f["tiles"] == ("light" if y >= 165 else "dark" if y < 95 else "mid")
        assert f["material"] == look.material in E.MATERIALS
        assert f["frame"] == ("unframed" if look.frame is None else "framed")
        assert f["table"] == ed.table in E.TABLE_KINDS and ed.table in ALL_TABLES
        assert f["light"] == ed.light in E.LIGHTS


def test_every_family_value_and_choice_occurs_in_300_editions(eds):
    for axis, values in (("tiles", E.TONES), ("material", E.MATERIALS), ("frame", ("framed", "unframed")),
                         ("table", E.TABLE_KINDS), ("light", E.LIGHTS)):
        assert {ed.families[axis] for ed in eds} == set(values), axis
    params = lambda key: {ed.params[key] for ed in eds}  # noqa: E731
    assert params("font") == set(E.FONTS) and params("ace") == set(E.ACES) and params("null") == set(E.NULLS)
    assert params("palette") == set(E.PALETTES) and params("frame") == set(E.FRAMES) and params("coins") == set(E.COIN_MATERIALS)
    for suit, styles in E.SYMBOL_STYLES.items():
        assert {ed.look.symbols[suit] for ed in eds} == set(styles)
    # dark sets exist in every material but paper is mostly light, and wood spans light to dark
    assert {ed.families["tiles"] for ed in eds if ed.look.material == "wood"} == set(E.TONES)


def test_parameters_stay_in_their_ranges(eds):
    thick = {"paper": (1.0, 2.0), "plastic": (2.0, 4.0), "acrylic": (2.5, 5.0), "wood": (3.0, 6.0)}
    for ed in eds:
        look = ed.look
        lo, hi = thick[look.material]
        assert lo <= look.tile_thickness_mm <= hi
        assert 17.0 <= look.digit_mm <= 26.0 and 8.0 <= look.corner_mm <= 12.0 and 0.5 <= look.corner_radius_mm <= 4.0
        assert 1.6 <= look.coin_thickness_mm <= 4.5
        for suit in E.SUITS:  # every suit's ink reads against the face
            assert abs(E.luma(look.ink(suit)) - E.luma(look.face)) >= 60.0
            assert all(0 <= v <= 255 for v in look.ink(suit))
        if look.frame is not None:
            style, ink, width, inset = look.frame
            assert style in ("line", "double", "band") and inset + width <= 3.4
        assert look.ace_mark in E.ACES and look.null_mark in E.NULLS and look.pawn_shape in E.PAWN_SHAPES
        assert 0.02 <= look.gloss <= 0.9 and 0.0 <= ed.table_colour < 1 << 16


def test_light_conditions_keep_to_the_editions_kind():
    by_light = {}
    for s in range(200):
        ed = E.edition(s)
        by_light.setdefault(ed.light, ed)
    assert set(by_light) == set(E.LIGHTS)
    for photo in range(5):
        for light, ed in by_light.items():
            c = E.edition_conditions(ed, photo)
            assert c["table"] == ed.table and c["table_colour"] == ed.table_colour
            if light == "warm":
                assert -1.0 <= c["white_balance"] <= -0.55
            elif light == "cool":
                assert 0.5 <= c["white_balance"] <= 1.0
            elif light == "dim":
                assert 0.45 <= c["exposure"] <= 0.65 and c["noise"] >= 4.0
            elif light == "spot":
                assert 0.5 <= c["spot"] <= 0.9
            elif light == "window":
                assert 0.5 <= c["window"] <= 1.0 and 20 <= c["light_elevation"] <= 40
            elif light == "hard":
                assert 0.15 <= c["shadow_soft"] <= 0.4
            else:
                assert set(c) == {"table", "table_colour"}
            assert c == E.edition_conditions(ed, photo)  # per photo seed, deterministic


def test_named_looks_are_untouched_by_editions():
    assert list(LOOKS) == ["standard", "wood-classic", "paper-print", "plastic-bold", "unseen-ivory"]
    defaults = {f.name: f.default for f in fields(Look) if f.name in ("frame", "grain", "coin_material", "digit_mm", "corner_mm")}
    assert defaults == {"frame": None, "grain": 0.035, "coin_material": None, "digit_mm": 23.0, "corner_mm": 11.0}
    for look in LOOKS.values():  # the drawing paths of the named looks are the ones they always had
        assert all(getattr(look, k) == v for k, v in defaults.items())
    # sample_conditions draws what it always drew: no edition key appears in a named look's truth
    assert set(sample_conditions(5)) == set(CONDITION_KEYS) and TABLES == ("wood", "felt", "cloth", "laminate")
    layout = easy_slider_layout(4)
    before = render_table(layout, seed=4, size=(320, 180)).image
    for s in range(3):
        render_table(layout, seed=s, edition=s, size=(320, 180))
    assert render_table(layout, seed=4, size=(320, 180)).image.tobytes() == before.tobytes()
    with pytest.raises(SimulatorError, match="taken by a named look"):
        register_look(LOOKS["standard"])
    with pytest.raises(SimulatorError, match="not both"):
        render_table(layout, seed=4, look="standard", edition=1)
    with pytest.raises(SimulatorError, match="edition seed"):
        E.edition(-1)


def test_edition_sprites_draw_their_marks():
    spiral = next(E.edition(s) for s in SEEDS if E.edition(s).look.ace_mark == "spiral")
    ace, px_per_mm = sprite(spiral.look, "tile", "Sa", 4.0)
    assert ace.shape[:2] == (203, 203) and px_per_mm == 4.0
    # the spiral winds out from the middle of the face (1.5 mm below the centre) in the suit's ink
    middle = ace[95:120, 90:115, :3].astype(float)
    assert np.abs(middle - np.array(spiral.look.face, float)).max(axis=2).max() > 40
    dot = next(E.edition(s) for s in SEEDS if E.edition(s).look.null_mark == "dot")
    blank = next(E.edition(s) for s in SEEDS if E.edition(s).look.null_mark == "blank")
    for look, inked in ((dot.look, True), (blank.look, False)):
        img, _ = sprite(look, "tile", "Mn", 4.0)
        centre = img[105:110, 100:105, :3].astype(float).mean((0, 1))
        assert (np.abs(centre - np.array(look.face, float) * 1.0).max() > 40) == inked


def test_fonts_symbols_and_frames_of_editions():
    filled = glyphs.text_mask((120, 120), "4", "serif", 60, 60, 90, 0.15)
    hollow = glyphs.text_mask((120, 120), "4", "engraved", 60, 60, 90, 0.15)
    assert hollow.sum() < 0.7 * filled.sum() and (hollow <= filled + 1e-6).all()
    a, b = glyphs.text_mask((120, 120), "3", "hand-5", 60, 60, 90, 0.1), glyphs.text_mask((120, 120), "3", "hand-6", 60, 60, 90, 0.1)
    assert not np.array_equal(a, b) and np.array_equal(a, glyphs.text_mask((120, 120), "3", "hand-5", 60, 60, 90, 0.1))
    with pytest.raises(SimulatorError, match="unknown font"):
        glyphs.text_mask((50, 50), "2", "gothic", 25, 25, 30, 0.1)
    with pytest.raises(SimulatorError, match="integer K"):
        glyphs.text_mask((50, 50), "2", "hand-x", 25, 25, 30, 0.1)
    for style in glyphs.SYMBOLS:
        m = glyphs.symbol_mask((100, 100), style, 50, 50, 80)
        assert 0.08 < m.mean() < 0.6 and m[0].max() == 0
    line = glyphs.frame_mask((100, 100), ("line", (0, 0, 0), 1.0, 2.0), 4.0)
    assert line[50, 8:12].max() > 0.9 and line[50, 50] == 0 and line[50, 2] == 0
    band = glyphs.frame_mask((100, 100), ("band", (0, 0, 0), 2.0, 0.0), 4.0)
    assert band[50, 1:7].min() > 0.9 and band[50, 12] == 0
    with pytest.raises(SimulatorError, match="frame style"):
        glyphs.frame_mask((100, 100), ("dotted", (0, 0, 0), 1.0, 1.0), 4.0)


def test_edition_tables_are_textures_of_their_kind():
    means = {}
    for kind in tables.EDITION_TABLES:
        tex = table_texture(kind, 11, np.random.default_rng(1), (120, 160), 1.0)
        assert tex.shape == (120, 160, 3) and tex.dtype == np.uint8
        means[kind] = float(tex.mean())
        assert np.array_equal(tex, table_texture(kind, 11, np.random.default_rng(1), (120, 160), 1.0))
    assert means["wood-dark"] < 90 < means["wood-light"] and means["slate"] < 90 and means["glass"] < 140
    gingham = table_texture("gingham", 3, np.random.default_rng(0), (200, 200), 2.0)
    assert np.ptp(gingham.mean(2)) > 60  # light and dyed checks
    with pytest.raises(SimulatorError, match="unknown table"):
        table_texture("marble", 1, np.random.default_rng(0), (10, 10), 1.0)


def test_spot_window_and_hard_light_change_the_picture():
    layout = easy_slider_layout(2)
    for size, extra in (((320, 180), {"spot": 0.8}), ((320, 180), {"window": 0.8}), ((1280, 720), {"shadow_soft": 0.2})):
        base = render_table(layout, seed=2, size=size, conditions=CLEAN).image.astype(int)
        img = render_table(layout, seed=2, size=size, conditions={**CLEAN, **extra}).image.astype(int)
        # light pools change the whole frame; sharper shadows only the pieces' edges
        assert np.abs(img - base).mean() > (0.05 if "shadow_soft" in extra else 3.0), extra
    with pytest.raises(SimulatorError, match="unknown condition"):
        sample_conditions(1, {"sun": 1.0})


def test_caller_render_draws_an_edition(tmp_path, capsys):
    out = tmp_path / "e.png"
    assert main(["render", "--seed", "3", "--edition", "41", "--size", "320x180", "-o", str(out)]) == 0
    truth = json.loads((tmp_path / "e.json").read_text())
    assert truth["look"] == "edition-41" and truth["edition"]["families"] == E.edition(41).families
    assert cv2.imread(str(out)).shape == (180, 320, 3)
    assert main(["render", "--seed", "3", "--edition", "41", "--look", "standard", "-o", str(out)]) == 2
    assert capsys.readouterr().err.startswith("caller: error: --edition")
