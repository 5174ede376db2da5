"""The Scavenger Hunt live benchmark's ``--jobs``: games rendered and played in parallel processes
print the same table, in game order, as a serial run (all but the throughput, which each game
measures in its own process)."""

import pytest

from benchmarks import bench_live, live_hunt
from caller.events import Event


def _table(out: str) -> list[str]:
    """The printed table and summary without what depends on the machine: each row's frames/s
    (its last column) and the summary's throughput line."""
    lines = [ln for ln in out.splitlines() if ln and not ln.startswith("throughput:")]
    return [ln.rsplit(None, 1)[0] if ln.split()[0].isdigit() else ln for ln in lines]


@pytest.mark.slow
def test_games_played_in_parallel_print_the_serial_table(tmp_path, capsys):
    argv = ["--game", "scavenger-hunt", "--games", "2", "--first", "0", "--turns", "1", "--size", "160x90"]
    assert bench_live.main(argv + ["--cache", str(tmp_path / "serial")]) == 0
    serial = capsys.readouterr().out
    assert bench_live.main(argv + ["--cache", str(tmp_path / "parallel"), "--jobs", "2"]) == 0
    parallel = capsys.readouterr().out
    assert _table(parallel) == _table(serial)
    rows = [ln.split() for ln in serial.splitlines()[1:3]]
    assert [r[0] for r in rows] == ["0", "1"] and all(float(r[-1]) > 0 for r in rows)
    assert "throughput:" in parallel


def test_jobs_are_for_scavenger_hunt_and_at_least_one(capsys):
    for argv, message in ((["--jobs", "2"], "--jobs is for --game scavenger-hunt"),
                          (["--game", "scavenger-hunt", "--jobs", "0"], "--jobs 0: expected 1 or more")):
        with pytest.raises(SystemExit) as exc:
            bench_live.main(argv)
        assert exc.value.code == 2 and message in capsys.readouterr().err


def test_a_collection_the_caller_withdrew_is_not_counted_as_said():
    empty = {"coins": [[None] * 12 for _ in range(8)], "players": ["S", "M"], "pawns": [[7, 0], [0, 11]]}
    truth = {"events": [{"t": 5.0, "type": "collect", "player": "M", "value": "2"}], "start": empty,
             "timeline": [], "actions": []}
    said = [Event(2.0, "collect", {"player": "S", "value": "3"}), Event(3.0, "put_back", {"player": "S", "value": "3"}),
            Event(5.5, "collect", {"player": "M", "value": "2"})]
    got = live_hunt.score(said, truth)
    assert (got["collects"], got["collects_said"]) == (1, 1)
