"""Slide card decks: named, held-out and procedural designs, and their sprites in renders."""

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from simulator import decks as D
from simulator import looks as L
from simulator.errors import SimulatorError
from simulator.render import render_table

ROOT = Path(__file__).resolve().parents[1]
FACES = [str(n) for n in range(1, 11)] + ["back"]
PROCEDURAL = ["deck-0", "deck-3", "deck-8", "deck-41", "deck-977"]
# sha256 of render_table(slide_a's game and grid, seed=7 / 123, game="slide") before decks existed
CLASSIC_HASHES = {
    7: "ffbd81e23d1bd0bdbecefe6ca6bfcb8faafcf682d1ab37eb0dca6188ea917271",
    123: "9ddf33312b27be551db4154d6c2d23a33e9d5ed12e47f13e59cdf88a27555161",
}


def _master(code: str) -> np.ndarray:
    spr, real = L.sprite(L.get_look("standard"), "card", code, L.MASTER_PX_PER_MM)
    assert real == L.MASTER_PX_PER_MM
    return spr


def _differing(a: np.ndarray, b: np.ndarray) -> float:
    """Fraction of pixels whose colour differs by more than 60 in some channel (paper noise never does)."""
    return float((np.abs(a[..., :3].astype(int) - b[..., :3].astype(int)).max(-1) > 60).mean())


def _slide_a() -> dict:
    layout = json.loads((ROOT / "sample_images" / "slide_a.json").read_text())
    return {"game": layout["game"], "grid": layout["grid"]}


@pytest.mark.parametrize("name", list(D.DECKS) + PROCEDURAL)
def test_every_deck_draws_eleven_distinct_card_sprites(name):
    sprites = [_master(f"{name}:{face}") for face in FACES]
    for spr in sprites:
        assert spr.shape == (504, 352, 4) and spr.dtype == np.uint8
        assert spr[252, 176, 3] == 255 and spr[0, 0, 3] == 0  # opaque card, rounded-off corner
    for i in range(len(sprites)):
        for j in range(i + 1, len(sprites)):
            assert _differing(sprites[i], sprites[j]) > 0.01, (name, FACES[i], FACES[j])


def test_named_decks_are_complete_and_the_held_out_one_is_named():
    assert "classic" in D.DECKS
    assert D.HELD_OUT_DECKS == ("unseen-slate",)
    assert set(D.HELD_OUT_DECKS) <= set(D.DECKS)
    assert len(D.DECKS) == 7
    for name, deck in D.DECKS.items():
        assert deck.name == name and D.get_deck(name) is deck
        assert len(deck.inks) == 10 and D.contrast(deck) >= D.MIN_CONTRAST
    assert D.luminance(D.DECKS["midnight"].face) < 60 < D.luminance(D.DECKS["midnight"].ink(1)) - 60


def test_bare_codes_are_the_classic_deck():
    for face in ("7", "back"):
        assert np.array_equal(_master(face), _master(f"classic:{face}"))


def test_procedural_decks_are_deterministic_plausible_and_readable():
    assert D.deck_for_seed(12) == D.deck_for_seed(12) == D.get_deck("deck-12")
    assert D.deck_for_seed(12).name == "deck-12"
    assert D.deck_for_seed(12) != D.deck_for_seed(13)
    seen, backs = set(), set()
    for seed in range(500):
        deck = D.deck_for_seed(seed)
        assert D.contrast(deck) >= D.MIN_CONTRAST, seed
        assert len(deck.inks) == 10
        assert 16.0 <= deck.numeral_mm <= 28.0 and 0.04 <= deck.weight <= 0.2
        assert deck.corners in D.CORNERS and deck.border in D.BORDERS and deck.border_ink in D.BORDER_INKS
        assert deck.mark_69 in D.MARKS_69 and deck.back_style in D.BACK_STYLES and deck.material in D.MATERIALS
        assert 2.5 <= deck.back_mm <= 7.0 and deck.back_angle in (45.0, -45.0, 30.0, 60.0, 0.0, 90.0)
        seen.add((deck.corners, deck.border, deck.back_style, D.luminance(deck.face) < 128))
        backs.add((deck.back_style, deck.back_angle))
    assert len(seen) > 40  # the fields vary independently, dark faces included
    assert len(backs) == len(D.BACK_STYLES) * 6  # every pattern at every direction


def test_a_procedural_back_s_stripes_follow_its_direction():
    # deck-10's stripes run at 0 degrees (each column of the back one shade), deck-1's at 90
    # (each row one shade)
    for seed, angle in ((10, 0.0), (1, 90.0)):
        deck = D.deck_for_seed(seed)
        assert (deck.back_style, deck.back_angle) == ("stripes", angle)
        img = _master(f"deck-{seed}:back")[..., :3].astype(float).mean(-1)
        h, w = img.shape
        mid = img[h // 3: 2 * h // 3, w // 3: 2 * w // 3]
        down_columns, along_rows = mid.std(0).mean(), mid.std(1).mean()
        assert (down_columns < 0.2 * along_rows) if angle == 0.0 else (along_rows < 0.2 * down_columns)


def test_bad_deck_names_raise_one_line():
    for bad in ("nope", "deck-", "deck-x", "", 7, None):
        with pytest.raises(SimulatorError) as err:
            D.get_deck(bad)
        assert "\n" not in str(err.value)
    with pytest.raises(SimulatorError):
        _master("classic:11")
    with pytest.raises(SimulatorError):
        _master("nope:3")
    with pytest.raises(SimulatorError, match="unknown deck 'nope'"):
        render_table({**_slide_a(), "deck": "nope"}, seed=7, game="slide")


@pytest.mark.parametrize("name", ["gigamic", "bold"])
def test_underlined_six_turned_over_is_not_a_nine(name):
    deck = D.DECKS[name]
    assert deck.corners == "tl-br" and deck.mark_69 == "underline"
    six, nine = _master(f"{name}:6"), _master(f"{name}:9")
    assert _differing(six[::-1, ::-1], nine) > 0.02


@pytest.mark.parametrize("seed", sorted(CLASSIC_HASHES))
def test_a_layout_without_a_deck_renders_as_before(seed):
    render = render_table(_slide_a(), seed=seed, game="slide")
    assert hashlib.sha256(render.image.tobytes()).hexdigest() == CLASSIC_HASHES[seed]
    assert render.truth["deck"] == "classic"


def test_a_layout_names_its_deck_and_the_truth_keeps_it():
    classic = render_table(_slide_a(), seed=7, game="slide")
    held_out = render_table({**_slide_a(), "deck": "unseen-slate"}, seed=7, game="slide")
    procedural = render_table({**_slide_a(), "deck": "deck-5"}, seed=7, game="slide")
    assert held_out.truth["deck"] == "unseen-slate" and procedural.truth["deck"] == "deck-5"
    assert held_out.truth["cells"] == classic.truth["cells"]  # same table, only the printing differs
    # the cards fill a small part of this photograph: a fraction of a percent of it changes
    assert _differing(held_out.image, classic.image) > 0.001
    assert _differing(procedural.image, classic.image) > 0.001
