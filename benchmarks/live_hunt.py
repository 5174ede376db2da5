"""The Scavenger Hunt half of the live benchmark (``bench_live.py --game scavenger-hunt``).

Each game (seeded, disjoint from the seeds looked at while developing) is a random four-player
game from the rules engine, some with illegal actions that are put back at once
(``simulator.scavenger_hunt_video.random_game``), rendered with the players' hands
(``render_scavenger_hunt_video``: shifts pushed and carried round, pawns moved, coins peeked
at and kept), then played through ``caller watch``'s loop with ``--players`` in the deal's
turn order, and its events compared with the truth:

* pawn moves registered in order (``pawn``, ``from``, ``to``), and shifts (``line``,
  ``index``, ``direction``; a shift that carries nothing visible is not said and not counted);
* illegal actions announced, and how long after the board settled (the truth's ``t_clear``;
  bar 1 s), and false illegal announcements (one that no illegal action explains);
* collections said (the Caller learns one when the pawn leaves the square, or from a claim),
  less those it withdrew (``put_back``: the coin seen laid by the corner and then put back);
* the winner (the Caller sees a win when the sixth coin is laid by the corner or seen gone, or
  from a claim: no claim is made here), and how long after the hand that laid the sixth coin
  had gone (``--to-win``: games of two players keen on coins, played until one wins);
* throughput: frames per second of video on one core, end to end (decode included), measured
  inside the process that plays the game (``play``); the summary's figure is all the frames over
  all the games' own seconds. With ``--jobs`` above the machine's cores the processes share
  cores and neither figure means anything.
"""

from __future__ import annotations

import difflib
import time
from pathlib import Path

SEED0 = 720_000
#: the simulator's filming of these games; bumped when it changes, so that cached videos of an
#: older one are rendered again (2: the illegal board left standing 1.5-2.2 s before it is put
#: back, cameras moved in to squares of 18 px at 720p)
VIDEO_VERSION = 3  # 3: the first action waits 2-3 s for the Caller to say who starts


def make_game(i: int, turns: int, size, cache: Path, to_win: bool = False, coin_turn: float | None = None):
    """The video and truth of game ``i`` (rendered once, then cached). ``to_win``: two players
    keen on coins (every collecting turn taken, every turn onto a coin when there is one, no
    illegal action), played until one of them wins (about 14 turns), up to ``turns``.
    ``coin_turn``: the coins laid turned up to that many degrees either way (None: the
    simulator's default)."""
    from simulator.scavenger_hunt_video import random_game, render_scavenger_hunt_video

    from benchmarks.scenes import cached_video

    seed = SEED0 + i

    def render(path: Path) -> dict:
        if to_win:
            start, actions = random_game(seed, turns, players=2, keen=1.0, greed=1.0)
        else:
            start, actions = random_game(seed, turns, players=4, illegal=1 if i % 2 else 0)
        return render_scavenger_hunt_video(start, actions, seed=seed, fps=30, size=size, path=path, coin_turn=coin_turn)

    kind = ("win_" if to_win else "") + ("" if coin_turn is None else f"turn{coin_turn:g}_")
    return cached_video(cache / f"hunt{seed}_{size[0]}x{size[1]}_{turns}_{kind}v{VIDEO_VERSION}.mp4", render)


def run_game(path: Path, truth: dict):
    """The Caller's events on the recording, frames, wall seconds and reads."""
    board = next(e for e in truth["events"] if e["type"] == "board")
    return watch_recording(path, "scavenger-hunt", players=",".join(board["players"]))


def live_watcher(game: str, **options):
    """``caller watch``'s loop for ``game`` (``caller.watch.Watcher`` with the tracking reader
    of its table and its live Caller made with ``options``), as ``caller watch --game`` builds it."""
    from caller import games
    from caller.commands.watch import watched_table
    from caller.watch import Watcher
    from vision.table_reader import table_reader

    entry = games.entry(game)
    table, sizes = watched_table(entry, options)
    return Watcher(table_reader(table, track=True, sizes=sizes), entry.live_caller(**options))


def watch_recording(path: Path, game: str, **options):
    """``caller watch``'s loop over the recording ``path`` of ``game``, its live Caller made with
    ``options``: the events, frames, wall seconds and reads."""
    from caller.sources import open_source

    watcher = live_watcher(game, **options)
    events, frames = [], 0
    t0 = time.perf_counter()
    with open_source(str(path)) as src:
        for frame in src:
            frames += 1
            events += watcher.process(frame.image, frame.t)
    return events, frames, time.perf_counter() - t0, watcher.stats.reads


def play(i: int, turns: int, size, cache: Path, to_win: bool = False, coin_turn: float | None = None) -> dict:
    """Game ``i`` rendered (or read from the cache), played and scored in this process: its row
    of the table, with ``fps`` (frames per second of the video through the loop) and ``wall``
    measured here, so that games played in parallel processes (``--jobs``) each report their
    own throughput."""
    import cv2

    cv2.setNumThreads(1)  # one core per game, in a worker process too
    path, truth = make_game(i, turns, size, cache, to_win, coin_turn)
    events, frames, wall, reads = run_game(path, truth)
    r = score(events, truth)
    r.update(game=i, frames=frames, reads=reads, fps=frames / wall, wall=wall)
    return r


def matched(want: list, got: list) -> int:
    """How many of ``want`` appear in ``got`` in the same order (longest common subsequence)."""
    return sum(b.size for b in difflib.SequenceMatcher(None, want, got, autojunk=False).get_matching_blocks())


def warnings(tev: list[dict], said: list) -> tuple[list[float], set[int]]:
    """The Caller's warnings (``said``, its ``illegal`` events) matched with the truth's illegal
    actions (``tev``: the truth's events): each action's warning is the first one said after
    its hand came in and before it was put back. (The latency of each warning after the board
    settled, the indices of ``said`` that some action explains.)"""
    illegal = [e for e in tev if e["type"] == "illegal"]
    restored = [e for e in tev if e["type"] == "restored"]
    latencies, explained = [], set()
    for k, e in enumerate(illegal):
        until = restored[k]["t_clear"] if k < len(restored) else float("inf")
        hits = [j for j, s in enumerate(said) if e.get("t_hand", e["t"]) <= s.t <= until + 0.5 and j not in explained]
        if hits:
            explained.add(hits[0])
            latencies.append(said[hits[0]].t - e["t_clear"])
    return latencies, explained


def _seen_shifts(truth: dict) -> set[float]:
    """The ``t_clear`` of the truth's shifts that change what a camera sees: a shift of a tile
    line that carries no coin and no pawn leaves the board looking as it did (the tiles lie grid
    side up, all alike), so no one can say it and it is not counted. Each action's board is the
    recording's ``timeline`` (one entry per action, at its ``t_clear``)."""
    def look(table: dict) -> tuple:
        coins = tuple(tuple(None if v is None else v[1:] for v in row) for row in table["coins"])
        return coins, tuple(sorted((s, tuple(p)) for s, p in table["pawns"].items()))

    start = truth["start"]
    table = {"coins": start["coins"], "pawns": dict(zip(start["players"], start["pawns"]))}
    seen = set()
    for step, action in zip(truth["timeline"], truth["actions"]):
        if action["type"] == "shift" and look(step["table"]) != look(table):
            seen.add(step["t"])
        table = step["table"]
    return seen


def score(events, truth) -> dict:
    tev = truth["events"]
    moves = [(e["pawn"], tuple(e["from"]), tuple(e["to"])) for e in tev if e["type"] == "move"]
    got_moves = [(e.data["pawn"], tuple(e.data["from"]), tuple(e.data["to"])) for e in events if e.type == "move"]
    seen = _seen_shifts(truth)
    shifts = [(e["player"], e["line"], e["index"], e["direction"]) for e in tev
              if e["type"] == "shift" and e.get("t_clear") in seen]
    got_shifts = [(e.data["player"], e.data["line"], e.data["index"], e.data["direction"])
                  for e in events if e.type == "shift"]
    illegal = [e for e in tev if e["type"] == "illegal"]
    said = [e for e in events if e.type == "illegal"]
    latencies, explained = warnings(tev, said)
    won = next((e for e in tev if e["type"] == "won"), None)
    got_won = next((e for e in events if e.type == "won"), None)
    return {
        "moves": len(moves), "moves_ok": matched(moves, got_moves), "moves_exact": got_moves == moves,
        "shifts": len(shifts), "shifts_ok": matched(shifts, got_shifts),
        "illegal": len(illegal), "illegal_said": len(latencies), "illegal_latency": latencies,
        "false_illegal": len(said) - len(explained),
        "collects": sum(1 for e in tev if e["type"] == "collect"),
        # a collection the Caller withdrew (the coin seen put back under the pawn) is none
        "collects_said": sum(1 for e in events if e.type == "collect") - sum(1 for e in events if e.type == "put_back"),
        "won": None if won is None else won["player"],
        "won_said": None if got_won is None else got_won.data.get("player"),
        # after the hand that laid the sixth coin by the corner had gone (the truth's ``t``)
        "won_latency": None if won is None or got_won is None else got_won.t - won["t"],
    }


HEADER = (f"{'game':>4} {'moves':>7} {'exact':>6} {'shifts':>7} {'illegal':>8} {'lat s':>6} {'false ill.':>10} "
          f"{'collects':>9} {'winner':>8} {'reads':>6} {'fps':>6}")


def print_row(r) -> None:
    lat = "-" if not r["illegal_latency"] else f"{max(r['illegal_latency']):.2f}"
    winner = "-" if r["won"] is None else f"{r['won']}/{r['won_said'] or '?'}"
    if r.get("won_latency") is not None:
        winner += f" {r['won_latency']:.2f}"
    print(f"{r['game']:>4} {r['moves_ok']:>3}/{r['moves']:<3} {str(r['moves_exact']):>6} {r['shifts_ok']:>3}/{r['shifts']:<3} "
          f"{r['illegal_said']:>3}/{r['illegal']:<4} {lat:>6} {r['false_illegal']:>10} "
          f"{r['collects_said']:>4}/{r['collects']:<4} {winner:>8} {r['reads']:>6} {r['fps']:>6.1f}", flush=True)


def summary(rows, total_frames, total_wall, size) -> None:
    def total(key):
        return sum(r[key] for r in rows)

    lat = [v for r in rows for v in r["illegal_latency"]]
    print()
    print(f"pawn moves registered in order: {total('moves_ok')}/{total('moves')}, games with every move exact: "
          f"{sum(r['moves_exact'] for r in rows)}/{len(rows)}")
    print(f"shifts said in order: {total('shifts_ok')}/{total('shifts')}")
    print(f"illegal actions announced: {total('illegal_said')}/{total('illegal')}, worst latency after settling: "
          f"{max(lat) if lat else float('nan'):.2f} s; false illegal announcements: {total('false_illegal')}")
    print(f"collections said: {total('collects_said')}/{total('collects')}; winners called: "
          f"{sum(1 for r in rows if r['won'] and r['won'] == r['won_said'])}/{sum(1 for r in rows if r['won'])}"
          + (f", latest {max(won):.2f} s after the sixth coin's hand had gone" if (won := [
              r["won_latency"] for r in rows if r.get("won_latency") is not None]) else ""))
    print(f"throughput: {total_frames / total_wall:.1f} frames/s ({size[0]}x{size[1]}, one core, decode included)")


def play_games(play, games, *args, jobs: int = 1, print_row=None) -> list[dict]:
    """Each game's row, in the games' order: ``play(i, *args)`` for each ``i`` of ``games``, in
    this process or in ``jobs`` worker processes, each row printed (``print_row``) as it
    comes."""
    rows: list[dict] = []
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(jobs) as pool:
            for future in [pool.submit(play, i, *args) for i in games]:
                rows.append(future.result())
                if print_row is not None:
                    print_row(rows[-1])
        return rows
    for i in games:
        rows.append(play(i, *args))
        if print_row is not None:
            print_row(rows[-1])
    return rows
