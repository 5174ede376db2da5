"""Benchmark of ``caller read`` on held-out renders: accuracy and single-core speed.

    python benchmarks/bench_read.py [--n 300] [--first K] [--profile P] [--dev]

Renders ``--n`` scenes with seeds from benchmarks.scenes.BENCH_SEEDS (never used while
developing or training the default model; ``--dev`` reads DEV_SEEDS instead, for tuning): half in the standard look, half in the other
looks that are not held out for calibration, over the simulator's full range of random
cameras (0-40 degrees of tilt, any rotation, lens distortion) and lights (shadows, uneven
light, white balance, glare, blur, noise, JPEG). Two in three at 1280x720, one in three at
1920x1080. Reads each with one thread (OpenCV and BLAS pinned to one core) and prints a
table: per-cell error, pawn/coin error, boards fully right, orientation right, wrong answers
that were NOT flagged uncertain, and median/p90 milliseconds per frame with each stage.
Timings are wall-clock and CPU time of the reading process. ``--hands 1`` puts a hand over
every board and also counts how many hidden cells were flagged uncertain.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import Counter, defaultdict  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.scenes import BENCH_SEEDS, DEV_SEEDS, SPEC_TILE_PX, render_scene, scene_spec, tile_width_px, training_looks  # noqa: E402
from vision import kernels  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.reader import Reader  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=300, help="renders (default 300)")
    ap.add_argument("--profile", default=None, help="profile to read with (default: the bundled default)")
    ap.add_argument("--first", type=int, default=0, help="offset into the benchmark seeds")
    ap.add_argument("--dev", action="store_true",
                    help="read development seeds (DEV_SEEDS, 500000+) instead of the held-out ones: for tuning")
    ap.add_argument("--hands", type=int, default=0, help="hands over the board in every render (0-4, default 0)")
    ap.add_argument("--squares", type=int, default=0,
                    help="also read this many Scavenger Hunt renders (boards of squares) in the looks not held "
                         "out, and a quarter as many in the held-out look, each in its own column (default 0)")
    ap.add_argument("--only-squares", action="store_true", help="read the Scavenger Hunt renders only")
    ap.add_argument("--coin-turn", type=float, default=None,
                    help="Scavenger Hunt renders: each coin on the board lies turned up to this many degrees either "
                         "way (180: any turn, as at a real table; default: the simulator's 20)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="Scavenger Hunt renders: render and read in this many processes at once (default 1; "
                         "the accuracy figures do not change, the times then count a shared machine)")
    args = ap.parse_args(argv)
    if args.only_squares:
        return bench_squares(args)
    cv2.setNumThreads(1)
    reader = Reader(args.profile)
    kernels.warm_up()  # the compiled loops loaded before timing, as ``caller watch`` does
    others = tuple(l for l in training_looks() if l != "standard")
    groups = defaultdict(lambda: defaultdict(float))
    times = defaultdict(list)
    cpu = defaultdict(list)
    stage = defaultdict(lambda: defaultdict(list))
    failures = []
    t_start = time.time()
    for i in range(args.n):
        seed = (DEV_SEEDS if args.dev else BENCH_SEEDS)[0] + args.first + i
        looks = ("standard",) if i % 2 == 0 else others
        size = (1920, 1080) if i % 3 == 2 else (1280, 720)
        res = "1080p" if size[0] == 1920 else "720p"
        spec = scene_spec(seed, looks, size=size)
        spec["hands"] = args.hands
        r = render_scene(seed, spec)
        truth = r.truth
        in_spec = tile_width_px(truth) >= SPEC_TILE_PX
        stats = defaultdict(float)  # this render's counts
        w0, c0 = time.perf_counter(), time.process_time()
        try:
            obs = reader.read(r.image)
            err = None
        except VisionError as exc:
            obs, err = None, str(exc)
        times[res].append((time.perf_counter() - w0) * 1000)
        cpu[res].append((time.process_time() - c0) * 1000)
        stats["boards"] += 1
        stats["cells"] += 25
        stats["items"] += 9
        if obs is None:
            stats["cells_wrong"] += 25
            stats["items_wrong"] += 9
            failures.append((seed, spec["look"], err, in_spec))
        else:
            for name, ms in obs.timings:
                stage[res][name].append(ms)
            covered = {tuple(c) for c in truth.get("covered", [])}
            stats["covered"] += len(covered)
            stats["covered_flagged"] += len(covered & set(obs.uncertain))
            wrong = [(r_, c_) for r_ in range(5) for c_ in range(5) if obs.board[r_][c_] != truth["board"][r_][c_]]
            iw = sum(a != b for a, b in zip(obs.pawns, truth["pawns"])) + sum(a != b for a, b in zip(obs.coins, truth["coins"]))
            stats["cells_wrong"] += len(wrong)
            stats["items_wrong"] += iw
            stats["cells_wrong_confident"] += sum(1 for c in wrong if c not in set(obs.uncertain))
            unc_pawn_wrong = sum(1 for j, (a, b) in enumerate(zip(obs.pawns, truth["pawns"])) if a != b and j not in obs.uncertain_pawns)
            unc_coin_wrong = sum(1 for j, (a, b) in enumerate(zip(obs.coins, truth["coins"])) if a != b and j not in obs.uncertain_coins)
            stats["items_wrong_confident"] += unc_pawn_wrong + unc_coin_wrong
            stats["cells_uncertain"] += len(obs.uncertain)
            right = not wrong and iw == 0
            stats["boards_right"] += right
            stats["boards_right_confident"] += right and obs.confident
            tl = np.array(truth["board_corners"][0])
            pitch = np.linalg.norm(np.subtract(truth["board_corners"][1], truth["board_corners"][0])) / 5
            stats["orient_right"] += float(np.linalg.norm(np.array(obs.board_corners[0]) - tl) < 0.5 * pitch)
            if not right:
                failures.append((seed, spec["look"], f"{len(wrong)} cells {wrong[:3]}, {iw} pawns/coins wrong", in_spec))
        # every render counts in "all"; also within the range the bars are set for (tiles >= 40 px wide) or below it
        for group in ("all", "spec" if in_spec else "small"):
            for key, value in stats.items():
                groups[group][key] += value
        el = time.time() - t_start
        print(f"\r{i + 1}/{args.n} renders read ({el:.0f} s, boards right {groups['all']['boards_right']:.0f})", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    names = [("all", "all renders"), ("spec", f"tiles >= {SPEC_TILE_PX:.0f} px"), ("small", f"tiles < {SPEC_TILE_PX:.0f} px")]
    names = [(k, t) for k, t in names if groups[k]["boards"]]

    def row(label, fmt):
        return (label, [fmt(groups[k]) for k, _ in names])

    def pct(num, den):
        return lambda g: f"{100 * g[num] / max(g[den], 1):.{3 if num.startswith('cells') or num.startswith('items') else 2}f} %  ({g[num]:.0f}/{g[den]:.0f})"

    rows = [
        row("renders (development seeds)" if args.dev else "renders (held-out seeds)", lambda g: f"{g['boards']:.0f}"),
        row("per-cell error", pct("cells_wrong", "cells")),
        row("  wrong cells not flagged uncertain", lambda g: f"{g['cells_wrong_confident']:.0f}"),
        row("  cells flagged uncertain", lambda g: f"{g['cells_uncertain']:.0f}"),
        row("pawn+coin error", lambda g: f"{100 * g['items_wrong'] / g['items']:.3f} %  ({g['items_wrong']:.0f}; {g['items_wrong_confident']:.0f} unflagged)"),
        row("boards fully right", pct("boards_right", "boards")),
        row("boards fully right and confident", lambda g: f"{100 * g['boards_right_confident'] / g['boards']:.2f} %"),
        row("orientation right", pct("orient_right", "boards")),
    ]
    if args.hands:
        rows.append(row("cells under a hand flagged uncertain", lambda g: f"{g['covered_flagged']:.0f} of {g['covered']:.0f}"))
    w = max(len(a) for a, _ in rows)
    cw = max(26, max(len(v) for _, vals in rows for v in vals))
    print(f"{'measure':<{w}}  " + "  ".join(f"{t:<{cw}}" for _, t in names))
    print(f"{'-' * w}  " + "  ".join("-" * cw for _ in names))
    for a, vals in rows:
        print(f"{a:<{w}}  " + "  ".join(f"{v:<{cw}}" for v in vals))
    timing = []
    for res in ("720p", "1080p"):
        if times[res]:
            timing.append((f"{res} ms/frame wall median / p90", f"{np.median(times[res]):.1f} / {np.percentile(times[res], 90):.1f}  ({len(times[res])} frames)"))
            timing.append((f"{res} ms/frame CPU median / p90", f"{np.median(cpu[res]):.1f} / {np.percentile(cpu[res], 90):.1f}"))
            for name, v in stage[res].items():
                timing.append((f"  {res} stage {name} (median ms)", f"{np.median(v):.1f}"))
    print()
    for a, b in timing:
        print(f"{a:<{w}}  {b}")
    if failures:
        print(f"\nnot fully right ({len(failures)}):")
        for seed, look, why, in_spec in failures[:30]:
            print(f"  seed {seed} ({look}{'' if in_spec else ', tiles < %.0f px' % SPEC_TILE_PX}): {why}")
    if args.squares:
        print()
        return bench_squares(args)
    return 0


def _square_errors(obs, labels: list[list[str]]) -> tuple[int, int, bool]:
    """(squares wrong, of them not flagged uncertain, half turned) of a reading against the
    truth's labels, in whichever of the board's two half turns fits the truth better (a still
    cannot tell)."""
    pawns = {cell: "p" + suit for suit, cell in obs.pawns}
    rows, cols = len(labels), len(labels[0])
    read = [[pawns.get((r, c), obs.coins[r][c] or "") for c in range(cols)] for r in range(rows)]
    unc = set(obs.uncertain)
    best = None
    for turn in (False, True):
        wrong = [(r, c) for r in range(rows) for c in range(cols)
                 if (read[rows - 1 - r][cols - 1 - c] if turn else read[r][c]) != labels[r][c]]
        flagged = [(rows - 1 - r, cols - 1 - c) if turn else (r, c) for r, c in wrong]
        res = (len(wrong), sum(1 for cell in flagged if cell not in unc), turn)
        best = res if best is None or res < best else best
    return best


#: the corner (``vision.offboard.CORNER_NAMES`` order) each owner's collected coins lie by in
#: the simulator's Scavenger Hunt scenes: Moons top left, Crowns top right, Arms bottom right,
#: Suns bottom left
_OWNER_CORNER = {"M": 0, "C": 1, "A": 2, "S": 3}


def _collected_errors(obs, truth: dict, turned: bool) -> dict[str, int]:
    """Collected coins (suit side up by the corners) against the truth, corner by corner in the
    frame the squares fit: ``coins`` in the truth, ``missed``, ``extra`` and ``suit`` wrong."""
    out: dict = {"coins": 0, "missed": 0, "extra": 0, "suit": 0, "as": []}
    for owner, codes in truth["collected"].items():
        out["coins"] += len(codes)
    for corner in range(4):
        want = sorted(code[0] for s, codes in truth["collected"].items() if _OWNER_CORNER[s] == corner for code in codes)
        got = sorted(obs.collected[(corner + 2) % 4 if turned else corner]) if obs.collected is not None else []
        both = min(len(want), len(got))
        out["missed"] += max(0, len(want) - len(got))
        out["extra"] += max(0, len(got) - len(want))
        out["suit"] += both - sum(min(want.count(s), got.count(s)) for s in set(want))
        # which suit was read as which: the suits only the truth has, against those only the
        # read has, in suit order (one a corner in the simulator's scenes: exact)
        lost, new = sorted((Counter(want) - Counter(got)).elements()), sorted((Counter(got) - Counter(want)).elements())
        out["as"].extend(f"{a}>{b}" for a, b in zip(lost, new))
    return out


def _read_square_render(job: tuple[int, str, float | None]) -> dict:
    """Render and read one Scavenger Hunt scene (a worker of ``bench_squares``): what the
    table counts of it, with its square size, tilt and whether it lies in the bars' range."""
    from benchmarks.scenes import SQUARE_BOARD, render_square_scene, square_in_spec, square_scene_spec, square_truth_labels, square_width_px
    from simulator.looks import HELD_OUT_LOOKS

    seed, col, coin_turn = job
    cv2.setNumThreads(1)
    spec = square_scene_spec(seed, training_looks() if col == "trained" else tuple(HELD_OUT_LOOKS))
    if coin_turn is not None:
        spec["coin_turn"] = coin_turn
    r = render_square_scene(seed, spec)
    labels = square_truth_labels(r.truth)
    squares = SQUARE_BOARD[0] * SQUARE_BOARD[1] * 4
    out = {"seed": seed, "col": col, "look": spec["look"], "res": f"{spec['size'][1]}p", "squares": squares,
           "px": square_width_px(r.truth), "tilt": r.truth["camera"]["tilt_deg"], "in_spec": square_in_spec(r.truth)}
    w0 = time.perf_counter()
    try:
        obs, err = _squares_reader().read(r.image), None
    except VisionError as exc:
        obs, err = None, str(exc)
    out["ms"] = (time.perf_counter() - w0) * 1000
    if obs is None:
        out.update(found=False, wrong=squares, unflagged=0, uncertain=0, why=err, collected={})
    else:
        wrong, unflagged, turned = _square_errors(obs, labels)
        out.update(found=True, wrong=wrong, unflagged=unflagged, uncertain=len(obs.uncertain),
                   collected=_collected_errors(obs, r.truth, turned),
                   why=f"{wrong} squares wrong ({unflagged} not flagged)" if wrong else None)
    return out


_SQUARES_READER = None


def _squares_reader():
    """One squares reader per process (its model loads once)."""
    global _SQUARES_READER
    if _SQUARES_READER is None:
        from rules.scavenger_hunt.table import TABLE
        from vision.table_reader import SquaresReader

        kernels.warm_up()
        _SQUARES_READER = SquaresReader(TABLE)
    return _SQUARES_READER


def bench_squares(args) -> int:
    """Read ``--squares`` Scavenger Hunt renders (held-out seeds) and print their table: squares
    wrong (empty, a coin's rank or suit, a pawn), boards fully right, boards not found, speed;
    the looks trained on in two columns (all renders, and those within the range the bars are
    set for: squares >= SPEC_SQUARE_PX, tilt <= SPEC_TILT_DEG), the held-out look in a third."""
    from benchmarks.scenes import SPEC_SQUARE_PX, SPEC_TILT_DEG

    n = args.squares or args.n
    base = (DEV_SEEDS if args.dev else BENCH_SEEDS)[0] + 50_000 + args.first
    plan = ([(base + i, "trained", args.coin_turn) for i in range(n)]
            + [(base + n + i, "held out", args.coin_turn) for i in range(max(1, n // 4))])
    results = []
    if args.jobs > 1:
        import multiprocessing as mp

        with mp.get_context("spawn").Pool(args.jobs) as pool:
            for res in pool.imap(_read_square_render, plan):
                results.append(res)
                print(f"\r{len(results)}/{len(plan)} Scavenger Hunt renders read", end="", file=sys.stderr, flush=True)
    else:
        for job in plan:
            results.append(_read_square_render(job))
            print(f"\r{len(results)}/{len(plan)} Scavenger Hunt renders read", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    cols = {"trained: all": lambda x: x["col"] == "trained",
            f"trained: squares >= {SPEC_SQUARE_PX:.0f} px, tilt <= {SPEC_TILT_DEG:.0f}": lambda x: x["col"] == "trained" and x["in_spec"],
            "held out: all": lambda x: x["col"] == "held out"}
    g = {c: defaultdict(float) for c in cols}
    for res in results:
        for c, keep in cols.items():
            if not keep(res):
                continue
            gg = g[c]
            gg["boards"] += 1
            gg["squares"] += res["squares"]
            gg["wrong"] += res["wrong"]
            gg["not_found"] += not res["found"]
            gg["right"] += res["found"] and res["wrong"] == 0
            gg["unflagged"] += res["unflagged"]
            gg["uncertain"] += res["uncertain"]
            for key, v in res["collected"].items():
                if key == "as":
                    for pair in v:
                        gg["as " + pair] += 1
                else:
                    gg["collected_" + key] += v
    rows = [
        ("Scavenger Hunt renders (held-out seeds)", lambda x: f"{x['boards']:.0f}"),
        ("per-square error", lambda x: f"{100 * x['wrong'] / max(x['squares'], 1):.3f} %  ({x['wrong']:.0f}/{x['squares']:.0f})"),
        ("  wrong squares not flagged uncertain", lambda x: f"{x['unflagged']:.0f}"),
        ("  squares flagged uncertain", lambda x: f"{x['uncertain']:.0f}"),
        ("boards fully right", lambda x: f"{100 * x['right'] / max(x['boards'], 1):.2f} %  ({x['right']:.0f}/{x['boards']:.0f})"),
        ("boards not found", lambda x: f"{x['not_found']:.0f}"),
        ("collected coins by the corners (truth)", lambda x: f"{x['collected_coins']:.0f}"),
        ("  missed / extra / suit wrong", lambda x: f"{x['collected_missed']:.0f} / {x['collected_extra']:.0f} / "
                                                    f"{x['collected_suit']:.0f}"),
        ("  suits read as another (truth>read)", lambda x: ", ".join(
            f"{k[3:]} {v:.0f}" for k, v in sorted(x.items(), key=lambda kv: -kv[1]) if k.startswith("as ")) or "none"),
    ]
    w = max(len(a) for a, _ in rows)
    cw = max(28, *(len(c) for c in cols))
    print(f"{'measure':<{w}}  " + "  ".join(f"{c:<{cw}}" for c in cols))
    print(f"{'-' * w}  " + "  ".join("-" * cw for _ in cols))
    for a, f in rows:
        print(f"{a:<{w}}  " + "  ".join(f"{f(g[c]):<{cw}}" for c in cols))
    times: dict[str, list] = defaultdict(list)
    for res in results:
        times[res["res"]].append(res["ms"])
    for res, v in sorted(times.items()):
        print(f"{res + ' ms/frame wall median / p90':<{w}}  {np.median(v):.1f} / {np.percentile(v, 90):.1f}  ({len(v)} frames)")
    if args.jobs > 1:
        print(f"(read by {args.jobs} processes at once: the times are only comparable with runs of as many)")
    failures = [res for res in results if res["why"]]
    if failures:
        print(f"\nnot fully right ({len(failures)}):")
        for res in failures[:40]:
            where = "" if res["in_spec"] else ", out of range"
            print(f"  seed {res['seed']} ({res['look']}, {res['res']}, squares {res['px']:.1f} px, "
                  f"tilt {res['tilt']:.1f}{where}): {res['why']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
