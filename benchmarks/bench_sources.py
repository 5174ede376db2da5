"""Lost and restored cameras: how soon the Caller notices, how soon it goes on.

Network cameras on 127.0.0.1 (``simulator.netcam``: MJPEG over HTTP, read by OpenCV's FFmpeg
backend as a real IP camera is) fail in three ways, each run ``--runs`` times with the
Caller's default settings (``caller.sources``: LOST_AFTER_S, READ_TIMEOUT_S,
RECONNECT_EVERY_S):

* drop: the camera goes off (the connection is closed, reconnections answered 503) for
  ``--off`` seconds, then comes back;
* stall: the connection stays open and goes silent; the next connection is served;
* game: the bundled recording (sample_images/easy-slider_game.mp4) played in real time
  from the Caller's "Go!", through the whole ``caller watch`` pipeline, with the camera off
  from 8.5 s to 12 s (the third slide is made while it is off): the slides registered in
  order against the truth, and whether it stayed one game.

Printed per scenario: the time from the fault to the "lost" report (the bar: 2 s), and from
the camera's return to the first picture handed over ("back").

    python benchmarks/bench_sources.py --runs 3
    python benchmarks/bench_sources.py --runs 2 --no-game
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from caller.sources import LiveSource, SourceNotice, open_source  # noqa: E402
from simulator.netcam import MjpegServer, NumberedFrames, Recording  # noqa: E402

GAME = ROOT / "sample_images" / "easy-slider_game.mp4"


def _watch_notices(server: MjpegServer, until_back_frames: int = 3, safety_s: float = 60.0) -> dict[str, float]:
    """Reads the server's stream until a few frames after "back"; the monotonic time of each notice."""
    seen: dict[str, float] = {}
    src = LiveSource(server.url, reconnect=True)
    after = 0
    deadline = time.monotonic() + safety_s
    try:
        for item in src.items():
            if isinstance(item, SourceNotice):
                seen.setdefault(item.kind, time.monotonic())
            elif "back" in seen:
                after += 1
            if after >= until_back_frames or time.monotonic() > deadline:
                break
    finally:
        src.close()
    return seen


def drop(off_s: float) -> tuple[float, float]:
    cam = NumberedFrames()
    server = MjpegServer(cam, down=lambda: cam.t0 is not None and 2.0 <= time.monotonic() - cam.t0 < 2.0 + off_s, fps=20)
    try:
        seen = _watch_notices(server)
    finally:
        server.close()
    return seen["lost"] - (cam.t0 + 2.0), seen["back"] - (cam.t0 + 2.0 + off_s)


def stall() -> tuple[float, float]:
    server = MjpegServer(NumberedFrames(), stall_first=40, fps=20)
    try:
        seen = _watch_notices(server)
    finally:
        server.close()
    stalled = next(t for t, what in server.log if what == "stalled")
    return seen["lost"] - stalled, seen["back"] - stalled


def game() -> tuple[float, float, str, bool]:
    from caller.live import LiveCaller
    from caller.referees.easy_slider_live import EasySliderLive
    from caller.session import run_session
    from rules import exact_search
    from vision import kernels
    from vision.reader import Reader

    exact_search.warm_up()
    kernels.warm_up()
    truth = json.loads(GAME.with_suffix(".json").read_text())
    moves = [(e["tile"], e["from"], e["to"]) for e in truth["events"] if e["type"] == "move"]
    rec = Recording(GAME, wait_for_go=True)
    server = MjpegServer(rec, down=lambda: rec.t0 is not None and 8.5 <= rec.clock() < 12.0)
    events, stamps = [], {}

    def on_event(ev):
        events.append(ev)
        if ev.type == "go":
            rec.go()
        if ev.type == "camera":
            stamps.setdefault(ev.data["state"], time.monotonic())

    class QuitWhenDone:
        deadline = time.monotonic() + 120

        def take(self):
            return ["quit"] if any(e.type == "done" for e in events) or time.monotonic() > self.deadline else []

    try:
        with open_source(server.url) as src:
            run_session(src, Reader(), LiveCaller(EasySliderLive()), on_event=on_event, stdin=QuitWhenDone())
    finally:
        server.close()
    seen = [(e.data["tile"], e.data["from"], e.data["to"]) for e in events if e.type == "move"]
    in_order = sum(1 for a, b in zip(seen, moves) if a == b) if seen[: len(moves)] == moves[: len(seen)] else 0
    one_game = sum(e.type == "go" for e in events) == 1 and any(e.type == "done" for e in events)
    off, on = (float("nan"), float("nan")) if rec.t0 is None else (rec.t0 + 8.5, rec.t0 + 12.0)
    return (stamps.get("lost", float("nan")) - off, stamps.get("back", float("nan")) - on,
            f"{in_order} of {len(moves)}", one_game)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--off", type=float, default=2.0, help="seconds the camera is off in the drop scenario")
    ap.add_argument("--no-game", action="store_true", help="skip the real-time game (22 s a run)")
    args = ap.parse_args()
    rows = []
    for name, fn in [("drop", lambda: drop(args.off)), ("stall", stall)] + ([] if args.no_game else [("game", game)]):
        lost, back, extra = [], [], []
        for _ in range(args.runs):
            out = fn()
            lost.append(out[0])
            back.append(out[1])
            extra.append(out[2:])
        rows.append((name, lost, back, extra))
    print("| scenario | runs | lost reported after the fault (max) | back: first picture after the return (max) | slides registered | one game |")
    print("|---|---|---|---|---|---|")
    for name, lost, back, extra in rows:
        slides = ", ".join(e[0] for e in extra) if extra and extra[0] else "-"
        one = ("yes" if all(e[1] for e in extra) else "NO") if extra and extra[0] else "-"
        ref = "stall" if name == "stall" else "return"
        print(f"| {name} | {len(lost)} | {max(lost):.2f} s | {max(back):.2f} s{' (from the stall)' if ref == 'stall' else ''} "
              f"| {slides} | {one} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
