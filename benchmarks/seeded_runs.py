"""What the read benchmarks share: their seed arguments and reading each seed in worker processes.

A read benchmark renders and reads one photo a seed (``one(seed) -> dict``); it is tuned on
one range of seeds and reports another, fresh one (``seed_arguments``: ``--n``, ``--first``,
``--jobs``, ``--verbose``), and ``read_seeds`` reads the range in order with progress on
stderr. Importing it first keeps each worker process to one thread (the times are one
core's), before numpy loads.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Callable

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")


def seed_arguments(description: str, tune_first: int, bench_first: int, argv=None,
                   more: Callable[[argparse.ArgumentParser], None] | None = None) -> tuple[argparse.Namespace, list[int], str]:
    """(arguments, seeds, "tuning" / "fresh" / "other"): a read benchmark's command line, its
    seeds ``--first`` on (default ``bench_first``, the fresh range) and which range they are;
    ``more`` adds the benchmark's own arguments."""
    ap = argparse.ArgumentParser(description=description)
    if more is not None:
        more(ap)
    ap.add_argument("--n", type=int, default=100, help="renders (default 100)")
    ap.add_argument("--first", type=int, default=bench_first,
                    help=f"first seed (default {bench_first}, fresh; the tuning range starts at {tune_first})")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1: the times are one core's)")
    ap.add_argument("--verbose", action="store_true", help="a line for each photo with something wrong")
    args = ap.parse_args(argv)
    kind = "tuning" if args.first == tune_first else ("fresh" if args.first == bench_first else "other")
    return args, list(range(args.first, args.first + args.n)), kind


def read_seeds(one: Callable[[int], dict], seeds: list[int], jobs: int, init: Callable[[], None] | None = None,
               wrong: Callable[[dict], str | None] | None = None) -> list[dict]:
    """``one(seed)`` of every seed in ``jobs`` processes (each started with ``init``), in seed
    order; ``wrong(result)``, where given, is the line to print on stderr for a photo with
    something wrong (None: nothing wrong). Progress every 25 photos on stderr."""
    t0 = time.time()
    results = []
    with ProcessPoolExecutor(max_workers=jobs, initializer=init) as pool:
        for k, res in enumerate(pool.map(one, seeds, chunksize=2), 1):
            results.append(res)
            line = None if wrong is None else wrong(res)
            if line is not None:
                print(f"  {line}", file=sys.stderr)
            if k % 25 == 0:
                print(f"  {k}/{len(seeds)} photos, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    return results
