"""Reading Slide photos: one player's 4x4 grid of cards, in the player's frame.

    python benchmarks/bench_read_slide.py [--n 100] [--first 970000] [--jobs 1] [--held-out [--calibrated]] [--verbose]

Renders seeded grids (``benchmarks.slide_scenes``: some cards face down, one slot in two
empty and one in ten two) in the named card designs that are not held out
(``simulator.decks.DECKS``), or with ``--held-out`` in the held-out design(s), on the tables
of the looks not held out, the camera turned any way round the grid and tilted up to 35
degrees, two in three at 1280x720 and one in three at 1920x1080, and reads each as ``caller
read --game slide`` does. Prints per design and in all, within the range the bars are set for
(cards at least ``SPEC_CARD_PX`` wide) and beyond it: grids found, slots read wrong (a grid
not found counts all 16 wrong), grids fully right, slots uncertain, slots wrong but not
flagged uncertain, and the median milliseconds a read (grids found). A slot is wrong when it
differs from the truth in the player's frame (row 0 where the numerals' tops point): a grid
read the other way round is wrong in every slot that differs. ``--calibrated`` reads the
held-out design with a deck profile learnt first from one photo of its calibration layout
(``calibration.deck``: rendered with ``CALIBRATION_SEED`` on the standard look's table), as
a player would after ``caller calibrate --game slide``.

The cards model is learnt from TRAIN_SEEDS in procedural designs only
(``benchmarks/build_cards_model.py``); the reader was tuned on DEV_SEEDS from ``TUNE_FIRST``
on, and its figures are reported from BENCH_SEEDS ``BENCH_FIRST`` on, a range never read
while tuning.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# (seeded_runs first: it keeps each worker to one thread before numpy loads)
from benchmarks.seeded_runs import read_seeds, seed_arguments  # noqa: E402, I001
from benchmarks.scenes import BENCH_SEEDS, DEV_SEEDS, training_looks  # noqa: E402
from benchmarks.slide_scenes import MAX_TILT, SPEC_CARD_PX, card_width_px, render_slide, slide_spec, truth_grid  # noqa: E402
import numpy as np  # noqa: E402

TUNE_FIRST = DEV_SEEDS[90_000]
BENCH_FIRST = BENCH_SEEDS[70_000]

#: the render seed of the calibration photo of ``--calibrated``
CALIBRATION_SEED = 4242

_READER: dict = {}


def _reader(deck: str | None = None):
    """The reader ``caller read --game slide`` makes (with ``deck``, with that deck's profile
    learnt from its calibration photo), kept."""
    if deck not in _READER:
        import rules
        from vision.table_reader import table_reader

        _READER[deck] = table_reader(rules.record("slide").table, None if deck is None else calibrated(deck))
    return _READER[deck]


def calibrated(deck: str):
    """The profile ``caller calibrate --game slide`` learns from a photo of ``deck``'s layout."""
    from calibration.deck import DECK_LAYOUT, learn_deck
    from simulator.render import render_table
    from vision.cards import CARDS_MODEL
    from vision.profile import load_profile

    grid = [[{"down": 1} if lab == "down" else int(lab) for lab in row] for row in DECK_LAYOUT]
    photo = render_table({"game": "slide", "grid": grid, "deck": deck}, seed=CALIBRATION_SEED, game="slide",
                         look="standard").image
    return learn_deck(photo, load_profile(CARDS_MODEL, game="cards", kinds=("cards",)), deck).profile


def decks(held_out: bool) -> tuple[str, ...]:
    from simulator.decks import DECKS, HELD_OUT_DECKS

    return tuple(HELD_OUT_DECKS) if held_out else tuple(name for name in DECKS if name not in HELD_OUT_DECKS)


def one(seed: int, held_out: bool = False, calibrate: bool = False) -> dict:
    """Read one render; what was right and wrong, and how long the read took."""
    from vision.errors import VisionError

    spec = slide_spec(seed, decks(held_out), training_looks())
    r = render_slide(seed, spec)
    width = card_width_px(r.truth)
    base = {"seed": seed, "deck": spec["deck"], "look": spec["look"], "tilt": r.truth["camera"]["tilt_deg"],
            "card_px": width, "spec": width >= SPEC_CARD_PX}
    t0 = time.perf_counter()
    try:
        obs = _reader(spec["deck"] if calibrate else None).read(r.image)
    except VisionError as exc:
        return {**base, "found": False, "why": str(exc)}
    ms = (time.perf_counter() - t0) * 1000
    truth = truth_grid(r.truth)
    doubt = set(obs.uncertain)
    wrong = [(i, j) for i in range(4) for j in range(4) if obs.grid[i][j] != truth[i][j]]
    return {**base, "found": True, "ms": ms, "wrong": len(wrong), "doubt": len(doubt),
            "wrong_sure": sum(1 for c in wrong if c not in doubt), "cells": wrong,
            "read": [list(row) for row in obs.grid]}


def held_out(seed: int) -> dict:
    return one(seed, True)


def held_out_calibrated(seed: int) -> dict:
    return one(seed, True, True)


def table(results: list[dict]) -> str:
    rows = ["| design | cards | photos | grids found | slots wrong | grids fully right | slots uncertain "
            "| wrong and sure | ms a read (median) |",
            "|---|---|---|---|---|---|---|---|---|"]
    groups = [(deck, "in range") for deck in sorted({r["deck"] for r in results})]
    groups += [("all", "in range"), ("all", "smaller"), ("all", "every")]
    for deck, part in groups:
        rs = [r for r in results if deck in ("all", r["deck"])
              and (part == "every" or r["spec"] == (part == "in range"))]
        if not rs:
            continue
        ok = [r for r in rs if r["found"]]
        slots = 16 * len(rs)
        wrong = sum(r["wrong"] for r in ok) + 16 * (len(rs) - len(ok))
        doubt = sum(r["doubt"] for r in ok)
        sure = sum(r["wrong_sure"] for r in ok)
        full = sum(1 for r in ok if r["wrong"] == 0)
        ms = float(np.median([r["ms"] for r in ok])) if ok else float("nan")
        name = f"**{deck}**" if deck == "all" else deck
        cards = {"in range": f">= {SPEC_CARD_PX:.0f} px", "smaller": f"< {SPEC_CARD_PX:.0f} px", "every": "any"}[part]
        pct = 100 / len(rs)
        rows.append(f"| {name} | {cards} | {len(rs)} | {len(ok)} ({len(ok) * pct:.1f}%) | {wrong} of {slots} "
                    f"({100 * wrong / slots:.2f}%) | {full} ({full * pct:.1f}%) | {doubt} ({100 * doubt / slots:.2f}%) "
                    f"| {sure} | {ms:.0f} |")
    return "\n".join(rows)


def main(argv=None) -> int:
    def more(ap):
        ap.add_argument("--held-out", action="store_true", help="the held-out card design(s) instead of the named ones")
        ap.add_argument("--calibrated", action="store_true",
                        help="with --held-out: read with the deck learnt from one photo of its calibration layout")

    args, seeds, kind = seed_arguments(__doc__.splitlines()[0], TUNE_FIRST, BENCH_FIRST, argv, more)
    if args.calibrated and not args.held_out:
        print("bench_read_slide: --calibrated goes with --held-out", file=sys.stderr)
        return 2

    def wrong(res: dict) -> str | None:
        if not args.verbose or (res["found"] and not res["wrong"]):
            return None
        return (f"{res['seed']} {res['deck']} {res['look']} tilt {res['tilt']:.0f} cards {res['card_px']:.0f} px: "
                + (res["why"] if not res["found"] else f"slots {res['cells']}"))

    read = held_out_calibrated if args.calibrated else (held_out if args.held_out else one)
    results = read_seeds(read, seeds, args.jobs, wrong=wrong)
    print(f"Slide photos, seeds {seeds[0]}-{seeds[-1]} ({kind}), "
          f"{'the held-out card design' if args.held_out else 'the named card designs not held out'}"
          f"{' read with the deck calibrated from one photo' if args.calibrated else ''}, "
          f"tables of the looks not held out, camera any way round, tilt up to {MAX_TILT:.0f} degrees:\n")
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
