"""Leave-editions-out benchmark: how the reader does on piecepack editions it has never seen.

    python benchmarks/bench_editions.py [--n 120] [--per-edition 5] [--first K] [--tune]
                                        [--no-calibrate] [--hands 0] [--jobs 1] [--save JSON] [--sheet PNG]

Draws ``--n / --per-edition`` procedural editions (simulator.editions: a whole set, its table
and its kind of light from one seed) from the REPORT range of edition seeds, which is never
used while developing or tuning (``--tune`` draws from the TUNING range instead; tune only
on that). For each edition it renders ``--per-edition`` Easy Slider photos at 1280x720
(setup, midgame and solved layouts, the simulator's random cameras, light within the
edition's kind, no hands unless ``--hands``) and reads each:

- with the default model (``Reader(None)``), as a new user would before calibrating;
- after a one-photo calibration (``calibration.learn.learn_profile`` on one further photo of
  a setup of the same edition, as ``caller calibrate`` does), unless ``--no-calibrate``.
  When calibration fails (no board found, or a truth it refuses) that edition's photos count
  as not read: the user has no profile.

It prints one table per model with a row per family value (tiles light / mid / dark,
material, framed / unframed, table kind, light kind, wood tiles on a wooden table, and the
editions whose calibration succeeded, to compare both models on the same photos):

- found: the reader returned a board whose lattice lies within 0.4 pitch of the truth's, at
  any quarter turn (a photo without a board read, or with one read in the wrong place, is
  not found);
- cell err: wrong tile cells (hole included) over all 25 cells of every photo; a photo
  whose board is not found counts all 25 wrong;
- item err: the same over the 34 items (25 cells, 4 pawns, 5 coins);
- sure wrong: how many items of the boards found were wrong and NOT flagged uncertain
  (what the Caller would act on; ``--hands`` puts hands over the boards to test this);
- read: the share of the cells of the boards found that are not flagged uncertain (what the
  Caller can use; a hand hides some);
- right: photos whose cells, pawns and coins are all right;
- orient: photos found with the right quarter turn (the player's side);
- ms, cpu ms: median wall-clock and CPU milliseconds per 720p frame of ``examine`` +
  ``observe`` (what ``caller read`` does after decoding), one thread, over the photos where
  it returned; on a shared, loaded machine the wall clock includes waiting for a core.

Seeds: editions TUNE_EDITIONS (0-99,999) and REPORT_EDITIONS (1,000,000-1,999,999); photo j of
edition e has seed PHOTO_SEED0 + 8 e + j (j = 7 is the calibration photo), far from the
default model's training seeds and the read benchmark's (benchmarks/scenes.py).
``--sheet PNG`` only writes a contact sheet of the chosen editions, to look at the sets.
See docs/editions.md.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from concurrent.futures import ProcessPoolExecutor  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TUNE_EDITIONS = range(0, 100_000)
REPORT_EDITIONS = range(1_000_000, 2_000_000)
PHOTO_SEED0 = 20_000_000
CALIB_PHOTO = 7
KINDS = ("setup", "midgame", "solved")
AXES = ("tiles", "material", "frame", "table", "light")
_STATE: dict = {}
#: a photo without a board read: every item counts wrong
_MISSED = {"found": False, "cells": 25, "items": 34, "sure": 0, "read": 0, "right": False, "orient": False, "ms": None, "cpu": None}


def photo_seed(edition: int, j: int) -> int:
    return PHOTO_SEED0 + 8 * edition + j


def _init() -> None:
    import cv2

    from vision import kernels
    from vision.reader import Reader

    cv2.setNumThreads(1)
    kernels.warm_up()
    _STATE["default"] = Reader(None)


def _read(reader, image, truth) -> dict:
    """One photo's figures for one reader (see the module docstring)."""
    from benchmarks.scenes import truth_quarter_turn
    from vision.errors import VisionError

    try:
        t0, c0 = time.perf_counter(), time.process_time()
        a = reader.examine(image)
        obs = reader.observe(a)
        ms, cpu = (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000
    except VisionError:
        return dict(_MISSED)
    except Exception as exc:  # noqa: BLE001 - a reader bug on an unfamiliar set: counted and named, not fatal
        return dict(_MISSED, crash=f"{type(exc).__name__}: {exc}"[:160])
    k, err = truth_quarter_turn(truth, a.lattice)
    found = err < 0.4
    if not found:
        return dict(_MISSED, ms=ms, cpu=cpu)
    wrong_cells = [(r, c) for r in range(5) for c in range(5) if obs.board[r][c] != truth["board"][r][c]]
    wrong_pawns = [i for i, (x, y) in enumerate(zip(obs.pawns, truth["pawns"])) if x != y]
    wrong_coins = [i for i, (x, y) in enumerate(zip(obs.coins, truth["coins"])) if x != y]
    items = len(wrong_cells) + len(wrong_pawns) + len(wrong_coins)
    # wrong and not flagged uncertain: what the Caller would act on
    sure = (sum(cell not in obs.uncertain for cell in wrong_cells) + sum(i not in obs.uncertain_pawns for i in wrong_pawns)
            + sum(i not in obs.uncertain_coins for i in wrong_coins))
    # what was read wrong, as "what: truth -> read (flagged)", for --save
    wrong = ([f"cell {r},{c}: {truth['board'][r][c]} -> {obs.board[r][c]}{' ?' if (r, c) in obs.uncertain else ''}"
              for r, c in wrong_cells]
             + [f"pawn {i}: {truth['pawns'][i]} -> {obs.pawns[i]}{' ?' if i in obs.uncertain_pawns else ''}" for i in wrong_pawns]
             + [f"coin {i}: {truth['coins'][i]} -> {obs.coins[i]}{' ?' if i in obs.uncertain_coins else ''}" for i in wrong_coins])
    return {"found": True, "cells": len(wrong_cells), "items": items, "sure": sure, "read": 25 - len(obs.uncertain),
            "right": items == 0, "orient": k == a.k,
            "ms": ms, "cpu": cpu, "wrong": wrong}


def _edition_job(job: tuple[int, int, bool]) -> dict:
    """Render, calibrate on and read one edition: its families and per-photo results per model."""
    from calibration.errors import CalibrationError
    from calibration.learn import learn_profile
    from calibration.truth import truth_from_json
    from simulator.editions import edition
    from simulator.layouts import easy_slider_layout
    from simulator.render import render_table
    from vision.errors import VisionError
    from vision.reader import Reader

    ed_seed, per, calibrate, hands = job
    ed = edition(ed_seed)

    def render(j: int, kind: str, hands: int = 0):
        s = photo_seed(ed_seed, j)
        return render_table(easy_slider_layout(s, kind=kind), seed=s, edition=ed_seed, hands=hands)

    out = {"edition": ed_seed, "families": dict(ed.families), "params": dict(ed.params), "photos": []}
    calibrated, why = None, None
    if calibrate:
        cal = render(CALIB_PHOTO, "setup")
        t0 = time.perf_counter()
        try:
            result = learn_profile([("calibration photo", cal.image)], [truth_from_json(cal.truth)], name=ed.look.name)
            calibrated = Reader(result.profile)
        except (CalibrationError, VisionError) as exc:
            why = str(exc).splitlines()[0][:120]
        except Exception as exc:  # noqa: BLE001 - a calibration bug on an unfamiliar set: named, not fatal
            why = f"crashed: {type(exc).__name__}: {exc}".splitlines()[0][:120]
        out["calibration_s"] = time.perf_counter() - t0
    out["calibration_error"] = why
    for j in range(per):
        r = render(j, KINDS[j % 3], hands)
        row = {"seed": photo_seed(ed_seed, j), "default": _read(_STATE["default"], r.image, r.truth)}
        if calibrate:
            row["calibrated"] = _read(calibrated, r.image, r.truth) if calibrated else dict(_MISSED)
        out["photos"].append(row)
    return out


def family_rows(results: list[dict]) -> list[tuple[str, list[dict]]]:
    """(label, editions) for "all", each value of each axis present, and wood tiles on wood."""
    rows = [("all", results)]
    for axis in AXES:
        for value in sorted({r["families"][axis] for r in results}):
            rows.append((f"{axis}: {value}", [r for r in results if r["families"][axis] == value]))
    wow = [r for r in results if r["families"]["material"] == "wood" and r["families"]["table"].startswith("wood")]
    if wow:
        rows.append(("wood tiles on wood", wow))
    calibrated = [r for r in results if "calibration_s" in r and not r["calibration_error"]]
    if calibrated:  # both models on the same photos: what the profile adds where one could be learnt
        rows.append(("calibration succeeded", calibrated))
    return rows


def read_share(got: list[dict]) -> str:
    """The share of the cells of the boards found that are read (not flagged uncertain), or "-"."""
    found = [g for g in got if g["found"]]
    return f"{100 * sum(g.get('read', 0) for g in found) / (25 * len(found)):.1f}%" if found else "-"


def table(results: list[dict], model: str) -> str:
    head = f"{'family':<22} {'eds':>4} {'photos':>6} {'found':>7} {'cell err':>9} {'item err':>9} {'sure wrong':>10} {'read':>6} {'right':>7} {'orient':>7} {'ms':>6} {'cpu ms':>6}"
    lines = [head, "-" * len(head)]
    for label, eds in family_rows(results):
        got = [p[model] for e in eds for p in e["photos"]]
        n = len(got)
        if not n:
            continue
        ms = [g["ms"] for g in got if g["ms"] is not None]
        cpu = [g["cpu"] for g in got if g["cpu"] is not None]
        med = f"{np.median(ms):6.1f} {np.median(cpu):6.1f}" if ms else f"{'-':>6} {'-':>6}"
        lines.append(
            f"{label:<22} {len(eds):>4} {n:>6} {100 * sum(g['found'] for g in got) / n:>6.1f}% "
            f"{100 * sum(g['cells'] for g in got) / (25 * n):>8.2f}% {100 * sum(g['items'] for g in got) / (34 * n):>8.2f}% "
            f"{sum(g['sure'] for g in got):>10d} {read_share(got):>6} "
            f"{100 * sum(g['right'] for g in got) / n:>6.1f}% {100 * sum(g['orient'] for g in got) / n:>6.1f}% {med}")
    return "\n".join(lines)


def contact_sheet(seeds: list[int], path: str, size=(640, 360), across: int = 4) -> None:
    """A PNG of each edition's first photo, labelled with its seed and families: to look at the sets."""
    import cv2

    from simulator.layouts import easy_slider_layout
    from simulator.render import render_table

    tiles = []
    for e in seeds:
        s = photo_seed(e, 0)
        r = render_table(easy_slider_layout(s, kind="midgame"), seed=s, edition=e, size=size)
        img, f, p = r.image.copy(), r.truth["edition"]["families"], r.truth["edition"]["params"]
        for k, text in enumerate((f"{e}: {p['face']}, {f['frame']}, {p['font']}, {p['palette']}",
                                  f"{f['table']} table, {f['light']} light, ace {p['ace']}, null {p['null']}")):
            cv2.putText(img, text, (5, 16 + 16 * k), cv2.FONT_HERSHEY_SIMPLEX, 0.42, (0, 0, 0), 3, cv2.LINE_AA)
            cv2.putText(img, text, (5, 16 + 16 * k), cv2.FONT_HERSHEY_SIMPLEX, 0.42, (255, 255, 255), 1, cv2.LINE_AA)
        tiles.append(img)
    tiles += [np.zeros_like(tiles[0])] * (-len(tiles) % across)
    cv2.imwrite(path, np.vstack([np.hstack(tiles[i : i + across]) for i in range(0, len(tiles), across)]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=120, help="photos to read (default 120)")
    ap.add_argument("--per-edition", type=int, default=5, help="photos per edition (default 5, at most 7)")
    ap.add_argument("--first", type=int, default=0, help="offset into the edition seeds: editions not read before")
    ap.add_argument("--tune", action="store_true", help="draw from TUNE_EDITIONS (for tuning) instead of REPORT_EDITIONS")
    ap.add_argument("--no-calibrate", action="store_true", help="read with the default model only")
    ap.add_argument("--hands", type=int, default=0, choices=range(5), metavar="0-4",
                    help="hands reaching over every photo read (not the calibration photo; default 0)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes, one edition at a time each (default 1)")
    ap.add_argument("--save", metavar="JSON", default=None, help="also write every photo's results to this file")
    ap.add_argument("--sheet", metavar="PNG", default=None,
                    help="only write a contact sheet of the chosen editions' first photos (4 across, labelled) and stop")
    args = ap.parse_args(argv)
    if not (1 <= args.per_edition <= 7 and args.n >= args.per_edition and args.first >= 0 and args.jobs >= 1):
        ap.error("expected 1 <= --per-edition <= 7, --n >= --per-edition, --first >= 0, --jobs >= 1")
    span = TUNE_EDITIONS if args.tune else REPORT_EDITIONS
    n_ed = args.n // args.per_edition
    seeds = [span[args.first + i] for i in range(n_ed)]
    if args.sheet:
        contact_sheet(seeds, args.sheet)
        print(f"wrote {args.sheet}: editions {seeds[0]}..{seeds[-1]}")
        return 0
    calibrate = not args.no_calibrate
    jobs = [(s, args.per_edition, calibrate, args.hands) for s in seeds]
    results = []
    t0 = time.time()
    with ProcessPoolExecutor(args.jobs, initializer=_init) as ex:
        for i, res in enumerate(ex.map(_edition_job, jobs)):
            results.append(res)
            print(f"\r{i + 1}/{len(jobs)} editions ({time.time() - t0:.0f} s)", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    if args.save:
        Path(args.save).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    which = "TUNING" if args.tune else "REPORT"
    print(f"\n{len(results)} editions from the {which} range (seeds {seeds[0]}..{seeds[-1]}), "
          f"{args.per_edition} photos each at 1280x720, {f'{args.hands} hand(s) over each' if args.hands else 'no hands'}; "
          f"{time.time() - t0:.0f} s wall "
          f"with {args.jobs} job(s)\n")
    print("default model (no calibration):")
    print(table(results, "default"))
    if calibrate:
        failed = [r for r in results if r["calibration_error"]]
        secs = [r["calibration_s"] for r in results if not r["calibration_error"]]
        took = f"median {np.median(secs):.1f} s wall each that succeeded" if secs else "none succeeded"
        print(f"\nafter a one-photo calibration per edition ({len(failed)} of {len(results)} calibrations failed; {took}):")
        print(table(results, "calibrated"))
        for r in failed:
            print(f"  calibration failed, edition {r['edition']} ({r['params']['face']}, table {r['families']['table']}): "
                  f"{r['calibration_error']}")
    crashes = [(r["edition"], p["seed"], m, p[m]["crash"]) for r in results for p in r["photos"] for m in ("default", "calibrated")
               if m in p and "crash" in p[m]]
    for ed_seed, seed, model, why in crashes:
        print(f"  reader crashed ({model}), edition {ed_seed}, photo {seed}: {why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
