"""Live-Caller benchmark: rendered games with hands, played through the whole watch pipeline.

For each game (seeded, disjoint from development seeds) the simulator renders a video from
a start layout and a list of actions (legal slides, some games with illegal actions: a
tile lifted and swapped, two tiles pushed at once, and some games that end solved). The
video goes through the same code as ``caller watch`` (motion gate, reader, tracker, live
Caller), frame by frame, and the events are compared with the truth:

* slides registered in order (per game, the legal slides between illegal actions);
* false illegal-move announcements (an "illegal" event with no illegal action near it);
* latency of each illegal announcement after the board settles (truth ``t_clear``), bar 1 s;
* "Done!" latency after the final slide settles, bar 1 s, and never on a wrong board;
* slide latency: for each slide registered in order, its event's time after the truth's
  ``t_clear`` (the hand has left the board), as median, 95th percentile and worst; the worst
  is also given over the slides after which the board stays clear for at least a second
  (a hand that comes back at once for the next slide leaves no still board to read);
* throughput: frames per second of 1280x720 video on one core, end to end (decode included).

Videos are cached in benchmarks/.cache/live (delete it to re-render).

    python benchmarks/bench_live.py --games 20 --slides 15
    python benchmarks/bench_live.py --game scavenger-hunt --games 6 --turns 8

``--game scavenger-hunt`` plays four-player Scavenger Hunt games instead (benchmarks/live_hunt.py
says what it measures); ``--jobs N`` renders and plays N of them at once in separate processes,
each game's throughput measured in its own process (meaningless with more jobs than cores).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2  # noqa: E402

cv2.setNumThreads(1)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from caller.live import LiveCaller  # noqa: E402

from caller.referees.easy_slider_live import EasySliderLive  # noqa: E402
from caller.sources import open_source  # noqa: E402
from caller.watch import Watcher  # noqa: E402
from vision.reader import Reader  # noqa: E402

BENCH_SEED0 = 700_000
DOUBLE = "two tiles moved at once"  # the simulator's reason for two tiles pushed together


def make_game(i: int, slides: int, size, cache: Path):
    from simulator.layouts import easy_slider_layout
    from simulator.video import finishing_game, random_actions, render_game_video

    from benchmarks.scenes import cached_video

    seed = BENCH_SEED0 + i

    def render(path: Path) -> dict:
        if i % 4 == 3:
            start, actions = finishing_game(seed, slides)  # ends in "Done!"
        else:
            start = easy_slider_layout(seed, kind="setup" if i % 2 else "midgame")
            actions = random_actions(start, slides, seed=seed, illegal=1 if i % 4 == 1 else 0)
        return render_game_video(start, actions, seed=seed, fps=30, size=size, path=path)

    return cached_video(cache / f"game{seed}_{size[0]}x{size[1]}_{slides}.mp4", render)


def segments(truth_events):
    """Legal slides between illegal actions: after an illegal action the Caller waits, so
    the slides that follow are compared only up to it."""
    out, cur = [], []
    for e in truth_events:
        if e["type"] == "move":
            cur.append((e["tile"], e["from"], e["to"]))
        elif e["type"] == "illegal":
            out.append(cur)
            cur = []
            break
    out.append(cur)
    return out


#: a slide counts as "then left alone" when the next hand comes at least this long after it cleared
ALONE_S = 1.0


def slide_latencies(events, truth_events) -> list[tuple[float, bool]]:
    """(registered time - truth ``t_clear``, whether the board then stayed clear ALONE_S) for
    each truth slide before the first illegal action that was registered, matched in order."""
    moves = []
    for i, e in enumerate(truth_events):
        if e["type"] == "illegal":
            break
        if e["type"] == "move":
            nxt = next((n for n in truth_events[i + 1:] if n["type"] in ("move", "illegal")), None)
            alone = nxt is None or nxt.get("t_hand", nxt["t"]) - e["t_clear"] >= ALONE_S
            moves.append(((e["tile"], e["from"], e["to"]), e["t_clear"], alone))
    got = [((e.data["tile"], e.data["from"], e.data["to"]), e.t) for e in events if e.type == "move"]
    out = []
    for (want, t_clear, alone), (seen, t) in zip(moves, got):
        if want != seen:
            break
        out.append((t - t_clear, alone))
    return out


def run_game(reader, path: Path, truth: dict):
    live = LiveCaller(EasySliderLive())
    watcher = Watcher(reader, live)
    events = []
    t0 = time.perf_counter()
    frames = 0
    with open_source(str(path)) as src:
        for frame in src:
            frames += 1
            events += watcher.process(frame.image, frame.t)
    wall = time.perf_counter() - t0
    return events, frames, wall, watcher.stats.reads


def score(events, truth):
    tev = truth["events"]
    first_illegal = next((e for e in tev if e["type"] == "illegal"), None)
    want = segments(tev)[0]
    got = [(e.data["tile"], e.data["from"], e.data["to"]) for e in events if e.type == "move"]
    if first_illegal is not None:
        got_before = [(e.data["tile"], e.data["from"], e.data["to"]) for e in events
                      if e.type == "move" and e.t <= first_illegal.get("t_clear", first_illegal["t"]) + 2]
    else:
        got_before = got
    illegal_ev = [e for e in events if e.type == "illegal"]
    false_illegal = len(illegal_ev) if first_illegal is None else max(0, len(illegal_ev) - 1)
    illegal_latency = None
    if first_illegal is not None and illegal_ev:
        illegal_latency = illegal_ev[0].t - first_illegal.get("t_clear", first_illegal["t"])
    done_truth = next((e for e in tev if e["type"] == "done"), None)
    done_ev = [e for e in events if e.type == "done"]
    done_latency = None
    if done_truth is not None and done_ev:
        last_move = [e for e in tev if e["type"] == "move"][-1]
        done_latency = done_ev[0].t - last_move.get("t_clear", last_move["t"])
    false_done = len(done_ev) if done_truth is None else 0
    return {
        "slide_latency": slide_latencies(events, tev),
        "illegal_kind": None if first_illegal is None else first_illegal["reason"],
        "slides_expected": len(want),
        "slides_ok": got_before == want,
        "slides_registered": sum(1 for a, b in zip(got_before, want) if a == b),
        "false_illegal": false_illegal,
        "illegal_expected": first_illegal is not None,
        "illegal_latency": illegal_latency,
        "done_expected": done_truth is not None,
        "done_latency": done_latency,
        "false_done": false_done,
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--first", type=int, default=0,
                    help=f"first game number (seed {BENCH_SEED0} + N); games 0-39 have been looked at while tuning")
    ap.add_argument("--slides", type=int, default=15, help="legal slides per game")
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--cache", default=str(ROOT / "benchmarks" / ".cache" / "live"))
    ap.add_argument("--game", default="easy-slider", choices=("easy-slider", "scavenger-hunt"))
    ap.add_argument("--turns", type=int, default=8, help="Scavenger Hunt: turns per game (fewer when someone wins)")
    ap.add_argument("--to-win", action="store_true",
                    help="Scavenger Hunt: two players keen on coins, each game played until one wins (give --turns "
                         "30 or so): how soon the winner is called")
    ap.add_argument("--coin-turn", type=float, default=None,
                    help="Scavenger Hunt: the coins lie turned up to this many degrees either way at the start "
                         "(180: any turn, as players lay them; default: the simulator's 20)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="Scavenger Hunt: games rendered and played in this many processes at once (the table "
                         "is printed in game order, as a serial run prints it). Each game's frames/s is measured "
                         "inside its own process; with more jobs than free CPU cores the processes share cores "
                         "and the throughput figures are not meaningful")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        ap.error(f"--jobs {args.jobs}: expected 1 or more")
    if args.jobs > 1 and args.game != "scavenger-hunt":
        ap.error("--jobs is for --game scavenger-hunt")
    if args.to_win and args.game != "scavenger-hunt":
        ap.error("--to-win is for --game scavenger-hunt")
    if args.coin_turn is not None and (args.game != "scavenger-hunt" or not 0 <= args.coin_turn <= 180):
        ap.error("--coin-turn is for --game scavenger-hunt, 0 to 180 degrees")
    size = tuple(int(v) for v in args.size.split("x"))
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    if args.game == "scavenger-hunt":
        return hunt(args, size, cache)
    reader = Reader()
    rows = []
    header = (f"{'game':>4} {'slides':>7} {'in order':>8} {'false ill.':>10} {'ill. lat s':>10} "
              f"{'done lat s':>10} {'false done':>10} {'reads':>6} {'fps':>6}")
    print(header, flush=True)
    total_frames, total_wall = 0, 0.0
    for i in range(args.first, args.first + args.games):
        print(f"\rgame {i - args.first + 1}/{args.games}: rendering", end="", file=sys.stderr, flush=True)
        path, truth = make_game(i, args.slides, size, cache)
        print(f"\rgame {i - args.first + 1}/{args.games}: watching ", end="", file=sys.stderr, flush=True)
        events, frames, wall, reads = run_game(reader, path, truth)
        total_frames += frames
        total_wall += wall
        r = score(events, truth)
        r.update(game=i, frames=frames, reads=reads, fps=frames / wall)
        rows.append(r)
        print_row(r)
    print(file=sys.stderr)
    summary(rows, total_frames, total_wall, size)
    return 0


def hunt(args, size, cache: Path) -> int:
    """``--game scavenger-hunt``: its games through the loop, a row each, then the summary."""
    from functools import partial

    from benchmarks import live_hunt

    print(live_hunt.HEADER, flush=True)
    games = range(args.first, args.first + args.games)
    play = partial(live_hunt.play, turns=args.turns, size=size, cache=cache, to_win=args.to_win,
                   coin_turn=args.coin_turn)
    rows = []
    if args.jobs == 1:
        for k, i in enumerate(games):
            print(f"\rgame {k + 1}/{args.games}: rendering (if not cached) and watching", end="", file=sys.stderr,
                  flush=True)
            rows.append(play(i))
            live_hunt.print_row(rows[-1])
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        print(f"{args.games} games in {args.jobs} processes", file=sys.stderr, flush=True)
        # spawn: fresh workers, each with one thread for OpenCV and BLAS (set above, inherited)
        with ProcessPoolExecutor(args.jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
            for r in pool.map(play, games):  # in game order, whichever finishes first
                rows.append(r)
                live_hunt.print_row(r)
    print(file=sys.stderr)
    live_hunt.summary(rows, sum(r["frames"] for r in rows), sum(r["wall"] for r in rows), size)
    return 0


def print_row(r) -> None:
    il = "-" if r["illegal_latency"] is None else f"{r['illegal_latency']:.2f}"
    if r["illegal_expected"] and r["illegal_latency"] is None:
        il = "MISSED"
    dl = "-" if r["done_latency"] is None else f"{r['done_latency']:.2f}"
    if r["done_expected"] and r["done_latency"] is None:
        dl = "MISSED"
    print(f"{r['game']:>4} {r['slides_registered']:>3}/{r['slides_expected']:<3} {str(r['slides_ok']):>8} "
          f"{r['false_illegal']:>10} {il:>10} {dl:>10} {r['false_done']:>10} {r['reads']:>6} {r['fps']:>6.1f}"
          f"  {r['illegal_kind'] or ''}", flush=True)


def summary(rows, total_frames, total_wall, size) -> None:
    n_sl = sum(r["slides_expected"] for r in rows)
    n_ok = sum(r["slides_registered"] for r in rows)
    ill = [r for r in rows if r["illegal_expected"]]
    doubles = [r for r in ill if r["illegal_kind"] == DOUBLE]
    ill_lat = [r["illegal_latency"] for r in ill if r["illegal_latency"] is not None]
    dn = [r for r in rows if r["done_expected"]]
    dn_lat = [r["done_latency"] for r in dn if r["done_latency"] is not None]
    print()
    print(f"slides registered in order: {n_ok}/{n_sl} ({100 * n_ok / max(1, n_sl):.1f}%), "
          f"games fully right: {sum(r['slides_ok'] for r in rows)}/{len(rows)}")
    print(f"false illegal announcements: {sum(r['false_illegal'] for r in rows)}")
    print(f"illegal actions announced: {len(ill_lat)}/{len(ill)}, max latency after settling: "
          f"{max(ill_lat) if ill_lat else float('nan'):.2f} s")
    print(f"  of which two tiles pushed together: {sum(1 for r in doubles if r['illegal_latency'] is not None)}"
          f"/{len(doubles)}; swaps: {sum(1 for r in ill if r not in doubles and r['illegal_latency'] is not None)}"
          f"/{len(ill) - len(doubles)}")
    print(f"Done! called: {len(dn_lat)}/{len(dn)}, max latency: {max(dn_lat) if dn_lat else float('nan'):.2f} s, "
          f"false Done!: {sum(r['false_done'] for r in rows)}")
    lat = sorted(v for r in rows for v, _ in r["slide_latency"])
    alone = [v for r in rows for v, a in r["slide_latency"] if a]
    if lat:
        print(f"slide latency after the hand left: median {lat[len(lat) // 2]:.2f} s, "
              f"95th percentile {lat[min(len(lat) - 1, int(0.95 * len(lat)))]:.2f} s, worst {lat[-1]:.2f} s "
              f"({len(lat)} slides); worst when the board then stays clear {ALONE_S:g} s: "
              f"{max(alone) if alone else float('nan'):.2f} s ({len(alone)} slides)")
    print(f"throughput: {total_frames / total_wall:.1f} frames/s ({size[0]}x{size[1]}, one core, decode included)")


if __name__ == "__main__":
    raise SystemExit(main())
