"""Live Slider benchmark: fresh simulated games played through ``caller watch``'s loop.

Each game (seeded, disjoint from the seeds looked at while developing) is rendered by
``simulator.slider_video``: a seeded random game from the rules engine on a 4x4 or 6x6 board
(``random_game``), illegal moves mixed in (H left, V down, two squares, the other side's coin,
a coin set on the coin next to it),
each put back after the Caller's word; every other game is the Caller playing one side
(``ai_game``, level 2) against a scripted player, played with ``--ai``. Looks are drawn from all
the non-held-out looks (``benchmarks.scenes.training_looks``), cameras tilt up to 35 degrees
from the players' side, hands are of any skin tone. The recording goes through the same code
as ``caller watch`` (motion gate, reader, tracker, live Caller) and its events are compared
with the truth:

* moves registered in order (``side``, ``from``, ``to``; longest common subsequence);
* illegal moves announced, and how long after the board settled (the truth's ``t_clear``; bar
  1 s), and false illegal announcements (one that no illegal move explains);
* the Caller's own moves: its ``call`` events said as the truth's (the same moves, in order),
  and any ``different`` (none should be: the scripted player makes the moves called);
* the end (winner or tie) called;
* throughput: frames per second of video on one core, end to end (decode included).

Videos are cached in benchmarks/.cache/slider (delete it to re-render). Needs the camera reader
for Slider's table (``vision.table_reader.what_it_reads``); without it the script says so and
stops.

    python benchmarks/bench_slider_live.py --games 8 --moves 14
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2  # noqa: E402

cv2.setNumThreads(1)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SEED0 = 740_000
#: the simulator's filming of these games; bumped when it changes, so that cached videos of an
#: older one are rendered again
VIDEO_VERSION = 2
AI_LEVEL = 2


def make_game(i: int, moves: int, size, cache: Path):
    """The video and truth of game ``i`` (rendered once, then cached)."""
    import random

    from benchmarks.scenes import cached_video, training_looks
    from simulator.slider_video import ai_game, random_game, render_slider_video

    seed = SEED0 + i
    n = 4 if i % 3 else 6
    looks = training_looks()
    look = looks[random.Random(seed).randrange(len(looks))]

    ai = None if i % 2 == 0 else "V" if i % 4 == 1 else "H"  # the Caller plays a side every other game

    def render(path: Path) -> dict:
        if ai is not None:
            start, actions = ai_game(seed, moves, ai=ai, level=AI_LEVEL, n=n, illegal=1)
        else:
            start, actions = random_game(seed, moves, illegal=2, n=n)
        return render_slider_video(start, actions, seed=seed, fps=30, size=size, path=path, look=look, ai=ai,
                                   level=AI_LEVEL)

    return cached_video(cache / f"slider{seed}_{size[0]}x{size[1]}_{moves}_v{VIDEO_VERSION}.mp4", render)


def run_game(path: Path, truth: dict):
    """The Caller's events on the recording (with its board size, and the side and level the
    Caller plays in a game with the computer), frames, wall seconds and reads."""
    from benchmarks.live_hunt import watch_recording

    board = next(e for e in truth["events"] if e["type"] == "board")
    options = {"n": board["n"]}
    if truth.get("ai"):
        options.update(ai=truth["ai"], level=truth["level"])
    return watch_recording(path, "slider", **options)


def _key(d: dict) -> tuple:
    return (d.get("side"), tuple(d["from"]), None if d["to"] is None else tuple(d["to"]))


def score(events, truth) -> dict:
    from benchmarks.live_hunt import matched, warnings

    tev = truth["events"]
    moves = [_key(e) for e in tev if e["type"] == "move"]
    got = [_key(e.data) for e in events if e.type == "move"]
    calls = [_key(e) for e in tev if e["type"] == "call"]
    got_calls = [_key(e.data) for e in events if e.type == "call"]
    illegal = [e for e in tev if e["type"] == "illegal"]
    said = [e for e in events if e.type == "illegal"]
    latencies, explained = warnings(tev, said)
    end = next((e["type"] for e in tev if e["type"] in ("won", "tie")), None)
    got_end = next((e.type for e in events if e.type in ("won", "tie")), None)
    return {"moves": len(moves), "moves_ok": matched(moves, got), "moves_exact": got == moves,
            "illegal": len(illegal), "illegal_said": len(latencies), "illegal_latency": latencies,
            "false_illegal": len(said) - len(explained),
            "calls": len(calls), "calls_ok": matched(calls, got_calls),
            "different": sum(1 for e in events if e.type == "different"),
            "end": end, "end_said": got_end}


HEADER = (f"{'game':>4} {'moves':>7} {'exact':>6} {'illegal':>8} {'lat s':>6} {'false ill.':>10} {'calls':>7} "
          f"{'diff.':>5} {'end':>10} {'reads':>6} {'fps':>6}")


def print_row(r) -> None:
    lat = "-" if not r["illegal_latency"] else f"{max(r['illegal_latency']):.2f}"
    end = "-" if r["end"] is None else f"{r['end']}/{r['end_said'] or '?'}"
    print(f"{r['game']:>4} {r['moves_ok']:>3}/{r['moves']:<3} {str(r['moves_exact']):>6} "
          f"{r['illegal_said']:>3}/{r['illegal']:<4} {lat:>6} {r['false_illegal']:>10} {r['calls_ok']:>3}/{r['calls']:<3} "
          f"{r['different']:>5} {end:>10} {r['reads']:>6} {r['fps']:>6.1f}", flush=True)


def summary(rows, size) -> None:
    def total(key):
        return sum(r[key] for r in rows)

    lat = [v for r in rows for v in r["illegal_latency"]]
    late = sum(1 for v in lat if v > 1.0)
    print()
    print(f"moves registered in order: {total('moves_ok')}/{total('moves')}, games with every move exact: "
          f"{sum(r['moves_exact'] for r in rows)}/{len(rows)}")
    print(f"illegal moves announced: {total('illegal_said')}/{total('illegal')}, within 1 s of the board settling: "
          f"{len(lat) - late}/{len(lat)} (worst {max(lat) if lat else float('nan'):.2f} s); "
          f"false illegal announcements: {total('false_illegal')}")
    print(f"the Caller's own moves said as the recording's: {total('calls_ok')}/{total('calls')}; "
          f"'different' said: {total('different')}")
    print(f"ends called: {sum(1 for r in rows if r['end'] and r['end'] == r['end_said'])}/"
          f"{sum(1 for r in rows if r['end'])}")
    frames, wall = total("frames"), total("wall")
    print(f"throughput: {frames / wall:.1f} frames/s ({size[0]}x{size[1]}, one core, decode included)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--first", type=int, default=0, help="the first game's index (seeds follow from it)")
    ap.add_argument("--moves", type=int, default=14, help="legal moves per game (fewer when the game ends)")
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--cache", default=str(ROOT / "benchmarks" / ".cache" / "slider"))
    args = ap.parse_args(argv)
    from caller import games

    if not games.entry("slider").has("camera"):
        print("bench_slider_live: the camera does not read Slider's table yet (vision.table_reader.what_it_reads "
              "returns None): nothing to measure", file=sys.stderr)
        return 2
    w, h = (int(v) for v in args.size.split("x"))
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    print(HEADER, flush=True)
    rows = []
    for i in range(args.first, args.first + args.games):
        path, truth = make_game(i, args.moves, (w, h), cache)
        events, frames, wall, reads = run_game(path, truth)
        r = score(events, truth)
        r.update(game=i, frames=frames, reads=reads, fps=frames / wall, wall=wall)
        rows.append(r)
        print_row(r)
    summary(rows, (w, h))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
