"""Reading Slider photos: the NxN board of H and V coins and blocks, in the camera's frame.

    python benchmarks/bench_read_slider.py [--n 100] [--first 980000] [--jobs 1] [--n-given]

Renders seeded Slider tables (``benchmarks.slider_scenes``: N 4 to 8, H and V coins of any
two suits suit side up, dice on a few squares) in the looks that are not held out, the
camera on the players' near side, turned up to 35 degrees and tilted up to 35, two in three
at 1280x720 and one in three at 1920x1080, and reads each as ``caller read --game slider``
does: an even N from the tiles seen (no ``--n``), an odd N given (``--n``), the suits given
(``--h-suit``/``--v-suit``). Prints per N and in all: boards found (N right), squares read
wrong (of N x N a board; a board not found or of the wrong N counts every square wrong),
boards fully right, squares uncertain, squares wrong but not flagged uncertain, and the
median milliseconds a read (boards found). A square is wrong when it differs from the truth
in the camera's frame (row 0 the side farthest from the camera): no other turn is accepted.
A second table counts the photos within the range the reading bars for boards of squares
are set for (``benchmarks.scenes.square_in_spec``: squares at least 18 px wide on average;
the cameras reach out to 4 feet, where a small board's squares are 12-17 px); nothing is
skipped from the first.

The blocks model is learnt from TRAIN_SEEDS (``benchmarks/build_blocks_model.py``); this
reader was tuned on DEV_SEEDS from ``TUNE_FIRST`` on, and its figures are reported from
BENCH_SEEDS ``BENCH_FIRST`` on, a range never read while tuning.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# (seeded_runs first: it keeps each worker to one thread before numpy loads)
from benchmarks.seeded_runs import read_seeds, seed_arguments  # noqa: E402, I001
from benchmarks.scenes import BENCH_SEEDS, DEV_SEEDS, SPEC_SQUARE_PX, SPEC_TILT_DEG, square_in_spec, square_width_px, training_looks  # noqa: E402
from benchmarks.slider_scenes import MAX_TILT, render_slider, slider_spec  # noqa: E402
import numpy as np  # noqa: E402

TUNE_FIRST = DEV_SEEDS[80_000]
BENCH_FIRST = BENCH_SEEDS[90_000]

_READERS: dict = {}


def _reader(n: int | None):
    """The reader ``caller read --game slider`` makes for ``--n n`` (None: not given), kept."""
    if n not in _READERS:
        from rules.slider.observed import read_table
        from vision.table_reader import SquaresReader

        table, sizes = read_table(n)
        _READERS[n] = SquaresReader(table, sizes=sizes)
    return _READERS[n]


def given_n(seed: int) -> dict:
    """``one`` with the board's N given, odd or even."""
    return one(seed, True)


def one(seed: int, always: bool = False) -> dict:
    """Read one render; what was right and wrong, and how long the read took (``always``:
    N given, even N too)."""
    from rules.errors import MalformedPosition
    from rules.slider.observed import position_from_read
    from vision.errors import VisionError

    spec = slider_spec(seed, training_looks())
    r = render_slider(seed, spec)
    n = spec["n"]
    given = n if n % 2 or always else None
    base = {"seed": seed, "look": spec["look"], "n": n, "tilt": r.truth["camera"]["tilt_deg"],
            "px": square_width_px(r.truth), "in_spec": square_in_spec(r.truth)}
    t0 = time.perf_counter()
    try:
        obs = _reader(given).read(r.image)
        pos = position_from_read(obs.coins, given, spec["h_suit"], spec["v_suit"])
    except (VisionError, MalformedPosition) as exc:
        return {**base, "found": False, "why": str(exc)}
    ms = (time.perf_counter() - t0) * 1000
    if pos["n"] != n:
        return {**base, "found": False, "why": f"read N {pos['n']}"}
    doubt = {tuple(c) for c in obs.uncertain if c[0] < n and c[1] < n}
    wrong = [(i, j) for i in range(n) for j in range(n) if pos["board"][i][j] != r.truth["board"][i][j]]
    return {**base, "found": True, "ms": ms, "wrong": len(wrong), "doubt": len(doubt),
            "wrong_sure": sum(1 for c in wrong if c not in doubt), "cells": wrong}


def table(results: list[dict], key: str = "n") -> str:
    rows = ["| N | photos | boards found | squares wrong | boards fully right | squares uncertain | wrong and sure | ms a read (median) |",
            "|---|---|---|---|---|---|---|---|"]
    for group in sorted({r[key] for r in results}) + ["all"]:
        rs = [r for r in results if group in ("all", r[key])]
        ok = [r for r in rs if r["found"]]
        squares = sum(r["n"] ** 2 for r in rs)
        wrong = sum(r["wrong"] for r in ok) + sum(r["n"] ** 2 for r in rs if not r["found"])
        doubt = sum(r["doubt"] for r in ok)
        sure = sum(r["wrong_sure"] for r in ok)
        full = sum(1 for r in ok if r["wrong"] == 0)
        ms = float(np.median([r["ms"] for r in ok])) if ok else float("nan")
        name = f"**{group}**" if group == "all" else str(group)
        pct = 100 / max(len(rs), 1)
        rows.append(f"| {name} | {len(rs)} | {len(ok)} ({len(ok) * pct:.1f}%) | {wrong} of {squares} "
                    f"({100 * wrong / max(squares, 1):.2f}%) | {full} ({full * pct:.1f}%) | {doubt} "
                    f"({100 * doubt / max(squares, 1):.2f}%) | {sure} | {ms:.0f} |")
    return "\n".join(rows)


def main(argv=None) -> int:
    args, seeds, kind = seed_arguments(__doc__.splitlines()[0], TUNE_FIRST, BENCH_FIRST, argv, lambda ap: ap.add_argument(
        "--n-given", action="store_true", help="give every board's N (--n), even ones too: the read without its size"))

    def wrong(res: dict) -> str | None:
        if not args.verbose or (res["found"] and not res["wrong"]):
            return None
        return (f"{res['seed']} N {res['n']} {res['look']} tilt {res['tilt']:.0f} squares {res['px']:.0f} px: "
                + (res["why"] if not res["found"] else f"squares {res['cells']}"))

    results = read_seeds(given_n if args.n_given else one, seeds, args.jobs, wrong=wrong)
    print(f"Slider photos, seeds {seeds[0]}-{seeds[-1]} ({kind}), looks not held out, N 4-8 "
          f"({'every N' if args.n_given else 'odd N'} given), "
          f"camera on the near side, tilt up to {MAX_TILT:.0f} degrees:\n")
    print(table(results))
    inside = [r for r in results if r["in_spec"]]
    print(f"\nWithin the range the bars are set for (squares at least {SPEC_SQUARE_PX:.0f} px wide on average, "
          f"tilt at most {SPEC_TILT_DEG:.0f} degrees): {len(inside)} of {len(results)} photos\n")
    print(table(inside) if inside else "(none)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
