"""Live Steppin' Stones benchmark: fresh simulated games played through ``caller watch``'s loop.

Each game (seeded, disjoint from the seeds looked at while developing) is rendered by
``simulator.steppin_stones_video``: a seeded random game from the rules engine
(``random_game``: the setup, random legal moves and flips, the turn ended by a roll), with
illegal actions mixed in (a coin moved a distance no die shows, a coin moved over a higher one,
a flip with no suit die, a pawn off its stones), each put back after the Caller's word. Even
games are played with the dice rolled on the table beside the board (``--dice table``), odd
games with the Caller rolling them (``--dice caller``, the recording's seed). Looks are drawn
from all the non-held-out looks (``benchmarks.scenes.training_looks``), cameras tilt up to 35
degrees from the player's side and stand close enough for squares of 28 px (as the game's page
asks of players), hands are of any skin tone. The recording goes through the
same code as ``caller watch`` (motion gate, reader, tracker, live Caller) and its events are
compared with the truth:

* actions registered in order: moves (``piece``, ``from``, ``to``) and flips (``at``); longest
  common subsequence;
* rolls registered in order (the turn and every die's face), phase changes said;
* illegal actions announced, and how long after the board settled (the truth's ``t_clear``;
  bar 1 s), and false illegal announcements (one that no illegal action explains);
* the end (won or lost) called;
* throughput: frames per second of video on one core, end to end (decode included).

Videos are cached in benchmarks/.cache/stones (delete it to re-render).

    python benchmarks/bench_stones_live.py --games 24 --first 100 --jobs 2
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

SEED0 = 780_000
#: the simulator's filming of these games; bumped when it changes, so that cached videos of an
#: older one are rendered again
VIDEO_VERSION = 2  # 2: squares of 28 px at 1280x720, not 18
ILLEGAL = 1  # illegal actions a game


def make_game(i: int, turns: int, size, cache: Path):
    """The video and truth of game ``i`` (rendered once, then cached)."""
    import random

    from benchmarks.scenes import cached_video, training_looks
    from simulator.steppin_stones_video import random_game, render_stones_video

    seed = SEED0 + i
    looks = training_looks()
    look = looks[random.Random(seed).randrange(len(looks))]
    dice = "table" if i % 2 == 0 else "caller"

    def render(path: Path) -> dict:
        start, actions = random_game(seed, turns, illegal=ILLEGAL, dice=dice)
        return render_stones_video(start, actions, seed=seed, size=size, path=path, look=look, dice=dice)

    return cached_video(cache / f"stones{seed}_{size[0]}x{size[1]}_{turns}_{dice}_v{VIDEO_VERSION}.mp4", render)


def _action(d: dict) -> tuple:
    if "at" in d:
        return ("flip", tuple(d["at"]))
    return ("move", d["piece"], tuple(d["from"]), tuple(d["to"]))


def _roll(d: dict) -> tuple:
    return (d["turn"], tuple((x["suit"], x["face"]) for x in d["dice"]))


def score(events, truth) -> dict:
    from benchmarks.live_hunt import matched, warnings

    tev = truth["events"]
    acts = [_action(e) for e in tev if e["type"] in ("move", "flip")]
    got = [_action(e.data) for e in events if e.type in ("move", "flip")]
    rolls = [_roll(e) for e in tev if e["type"] == "roll"]
    got_rolls = [_roll(e.data) for e in events if e.type == "roll"]
    phases = [e["suit"] for e in tev if e["type"] == "phase"]
    got_phases = [e.data["suit"] for e in events if e.type == "phase"]
    illegal = [e for e in tev if e["type"] == "illegal"]
    said = [e for e in events if e.type == "illegal"]
    latencies, explained = warnings(tev, said)
    end = next((e["type"] for e in tev if e["type"] in ("won", "lost")), None)
    got_end = next((e.type for e in events if e.type in ("won", "lost")), None)
    return {"actions": len(acts), "actions_ok": matched(acts, got), "actions_exact": got == acts,
            "rolls": len(rolls), "rolls_ok": matched(rolls, got_rolls), "phases": len(phases),
            "phases_ok": matched(phases, got_phases),
            "illegal": len(illegal), "illegal_said": len(latencies), "illegal_latency": latencies,
            "false_illegal": len(said) - len(explained), "end": end, "end_said": got_end}


def play(i: int, turns: int, size, cache: Path) -> dict:
    """Game ``i`` rendered (or read from the cache), watched and scored in this process: its row."""
    from benchmarks.live_hunt import watch_recording

    cv2.setNumThreads(1)  # one core per game, in a worker process too
    path, truth = make_game(i, turns, size, cache)
    options = {"dice": truth["dice"]}
    if truth["dice"] == "caller":
        options["seed"] = truth["start"]["seed"]
    events, frames, wall, reads = watch_recording(path, "steppin-stones", **options)
    r = score(events, truth)
    r.update(game=i, dice=truth["dice"], frames=frames, reads=reads, fps=frames / wall, wall=wall)
    return r


HEADER = (f"{'game':>4} {'dice':>6} {'actions':>8} {'exact':>6} {'rolls':>7} {'phase':>6} {'illegal':>8} "
          f"{'lat s':>6} {'false ill.':>10} {'end':>12} {'reads':>6} {'fps':>6}")


def print_row(r) -> None:
    lat = "-" if not r["illegal_latency"] else f"{max(r['illegal_latency']):.2f}"
    end = "-" if r["end"] is None else f"{r['end']}/{r['end_said'] or '?'}"
    print(f"{r['game']:>4} {r['dice']:>6} {r['actions_ok']:>3}/{r['actions']:<4} {str(r['actions_exact']):>6} "
          f"{r['rolls_ok']:>3}/{r['rolls']:<3} {r['phases_ok']:>2}/{r['phases']:<3} {r['illegal_said']:>3}/{r['illegal']:<4} "
          f"{lat:>6} {r['false_illegal']:>10} {end:>12} {r['reads']:>6} {r['fps']:>6.1f}", flush=True)


def summary(rows, size) -> None:
    def total(key):
        return sum(r[key] for r in rows)

    lat = [v for r in rows for v in r["illegal_latency"]]
    late = sum(1 for v in lat if v > 1.0)
    ends = [r for r in rows if r["end"] is not None]
    print()
    print(f"moves and flips registered in order: {total('actions_ok')}/{total('actions')}, games with every one "
          f"exact: {sum(r['actions_exact'] for r in rows)}/{len(rows)}")
    print(f"rolls registered in order: {total('rolls_ok')}/{total('rolls')}; phase changes said: "
          f"{total('phases_ok')}/{total('phases')}")
    print(f"illegal actions announced: {total('illegal_said')}/{total('illegal')}, within 1 s of the board settling: "
          f"{len(lat) - late}/{len(lat)} (worst {max(lat) if lat else float('nan'):.2f} s); "
          f"false illegal announcements: {total('false_illegal')}")
    print(f"ends called: {sum(1 for r in ends if r['end'] == r['end_said'])}/{len(ends)}")
    frames, wall = total("frames"), total("wall")
    print(f"throughput: {frames / wall:.1f} frames/s ({size[0]}x{size[1]}, one core a game, decode included)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--first", type=int, default=100,
                    help="the first game's index (seeds follow from it; games 0-99 are the tuning games)")
    ap.add_argument("--turns", type=int, default=5, help="rolls a game at most (1 to 40)")
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--jobs", type=int, default=1, help="games played at once, one process each")
    ap.add_argument("--cache", default=str(ROOT / "benchmarks" / ".cache" / "stones"))
    args = ap.parse_args(argv)
    if not 1 <= args.turns <= 40:
        ap.error(f"--turns {args.turns}: expected 1 to 40")
    w, h = (int(v) for v in args.size.split("x"))
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    print(HEADER, flush=True)
    from benchmarks.live_hunt import play_games

    games = range(args.first, args.first + args.games)
    rows = play_games(play, games, args.turns, (w, h), cache, jobs=args.jobs, print_row=print_row)
    summary(rows, (w, h))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
