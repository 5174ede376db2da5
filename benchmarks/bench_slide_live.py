"""Live Slide benchmark: fresh simulated rounds filmed at one player's grid, through ``caller watch``'s loop.

Each game (seeded, disjoint from the games looked at while developing) is rendered by
``simulator.slide_video``: a seeded game of two or three players from the rules engine
(``random_round_game``), ``--rounds`` rounds filmed at player 1's grid with two illegal actions
of that player mixed in (two cards revealed in a round, a middle card put straight into the
hole, a grid card slid diagonally into it), each put back after the Caller's word. Every other
game films the last rounds of a game, the earlier ones played off camera, so that the grid is
finished and counted on film. The card design is drawn from the named designs that are not
held out (``simulator.decks.DECKS``), the table from the looks not held out
(``benchmarks.scenes.training_looks``); the camera stands behind the player, turned up to 20
degrees and tilted up to 35. The recording goes through the same code as ``caller watch``
(motion gate, cards reader, tracker, live Caller) and its events are compared with the truth:

* reveals (the cell) and pushes (``card``, ``line``, ``index``, ``from_side``) registered in
  order (longest common subsequence), and games with every one exact;
* illegal actions announced, and how long after the grid settled (the truth's ``t_clear``; bar
  1 s), and false illegal announcements (one that no illegal action explains);
* the end: the finished grid's points said as the rules count them;
* throughput: frames per second of video on one core, end to end (decode included).

Videos are cached in benchmarks/.cache/slide (delete it to re-render).

    python benchmarks/bench_slide_live.py --games 24 --first 100 --jobs 2
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

SEED0 = 760_000
#: the simulator's filming of these games; bumped when it changes, so that cached videos of an
#: older one are rendered again
VIDEO_VERSION = 2  # 2: no card put straight into the hole where a push leaves the same grid
ILLEGAL = 2  # illegal actions a game


def make_game(i: int, rounds: int, size, cache: Path):
    """The video and truth of game ``i`` (rendered once, then cached)."""
    import random

    from benchmarks.scenes import cached_video, training_looks
    from simulator.decks import DECKS, HELD_OUT_DECKS
    from simulator.slide_video import ROUNDS, random_round_game, render_slide_video

    seed = SEED0 + i
    rng = random.Random(seed)
    looks = training_looks()
    look = looks[rng.randrange(len(looks))]
    deck = rng.choice(sorted(set(DECKS) - set(HELD_OUT_DECKS)))
    players = 2 + i % 2
    played = ROUNDS - rounds if i % 2 == 0 else 0  # every other game films the last rounds and the end

    def render(path: Path) -> dict:
        start, actions = random_round_game(seed, rounds, players=players, illegal=ILLEGAL, played=played)
        return render_slide_video(start, actions, seed=seed, size=size, path=path, deck=deck, look=look)

    return cached_video(cache / f"slide{seed}_{size[0]}x{size[1]}_{rounds}_v{VIDEO_VERSION}.mp4", render)


def _reveal(d: dict) -> tuple:
    return ("reveal", tuple(d["cell"]))


def _push(d: dict) -> tuple:
    return ("push", d["card"], d["line"], d["index"], d["from_side"])


def score(events, truth) -> dict:
    from benchmarks.live_hunt import matched, warnings

    tev = truth["events"]
    steps = [_reveal(e) if e["type"] == "reveal" else _push(e) for e in tev if e["type"] in ("reveal", "push")]
    got = [_reveal(e.data) if e.type == "reveal" else _push(e.data) for e in events if e.type in ("reveal", "push")]
    illegal = [e for e in tev if e["type"] == "illegal"]
    said = [e for e in events if e.type == "illegal"]
    latencies, explained = warnings(tev, said)
    end = next((e["scores"][0]["points"] for e in tev if e["type"] == "scores"), None)
    got_end = next((e.data["points"] for e in events if e.type == "score"), None)
    return {"steps": len(steps), "steps_ok": matched(steps, got), "steps_exact": got == steps,
            "illegal": len(illegal), "illegal_said": len(latencies), "illegal_latency": latencies,
            "false_illegal": len(said) - len(explained), "end": end, "end_said": got_end}


def play(i: int, rounds: int, size, cache: Path) -> dict:
    """Game ``i`` rendered (or read from the cache), watched and scored in this process: its row."""
    from benchmarks.live_hunt import watch_recording

    cv2.setNumThreads(1)  # one core per game, in a worker process too
    path, truth = make_game(i, rounds, size, cache)
    events, frames, wall, reads = watch_recording(path, "slide")
    r = score(events, truth)
    r.update(game=i, deck=truth["deck"], frames=frames, reads=reads, fps=frames / wall, wall=wall)
    return r


HEADER = (f"{'game':>4} {'deck':>9} {'steps':>7} {'exact':>6} {'illegal':>8} {'lat s':>6} {'false ill.':>10} "
          f"{'score':>9} {'reads':>6} {'fps':>6}")


def print_row(r) -> None:
    lat = "-" if not r["illegal_latency"] else f"{max(r['illegal_latency']):.2f}"
    end = "-" if r["end"] is None else f"{r['end']}/{'?' if r['end_said'] is None else r['end_said']}"
    print(f"{r['game']:>4} {r['deck']:>9} {r['steps_ok']:>3}/{r['steps']:<3} {str(r['steps_exact']):>6} "
          f"{r['illegal_said']:>3}/{r['illegal']:<4} {lat:>6} {r['false_illegal']:>10} {end:>9} {r['reads']:>6} "
          f"{r['fps']:>6.1f}", flush=True)


def summary(rows, size) -> None:
    def total(key):
        return sum(r[key] for r in rows)

    lat = [v for r in rows for v in r["illegal_latency"]]
    late = sum(1 for v in lat if v > 1.0)
    ends = [r for r in rows if r["end"] is not None]
    print()
    print(f"reveals and pushes registered in order: {total('steps_ok')}/{total('steps')}, games with every one "
          f"exact: {sum(r['steps_exact'] for r in rows)}/{len(rows)}")
    print(f"illegal actions announced: {total('illegal_said')}/{total('illegal')}, within 1 s of the grid settling: "
          f"{len(lat) - late}/{len(lat)} (worst {max(lat) if lat else float('nan'):.2f} s); "
          f"false illegal announcements: {total('false_illegal')}")
    print(f"finished grids counted right: {sum(1 for r in ends if r['end'] == r['end_said'])}/{len(ends)}")
    frames, wall = total("frames"), total("wall")
    print(f"throughput: {frames / wall:.1f} frames/s ({size[0]}x{size[1]}, one core a game, decode included)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--first", type=int, default=100,
                    help="the first game's index (seeds follow from it; games 0-99 are the tuning games)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds filmed a game (1 to 16)")
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--jobs", type=int, default=1, help="games played at once, one process each")
    ap.add_argument("--cache", default=str(ROOT / "benchmarks" / ".cache" / "slide"))
    args = ap.parse_args(argv)
    if not 1 <= args.rounds <= 16:
        ap.error(f"--rounds {args.rounds}: expected 1 to 16")
    w, h = (int(v) for v in args.size.split("x"))
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    print(HEADER, flush=True)
    from benchmarks.live_hunt import play_games

    games = range(args.first, args.first + args.games)
    rows = play_games(play, games, args.rounds, (w, h), cache, jobs=args.jobs, print_row=print_row)
    summary(rows, (w, h))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
