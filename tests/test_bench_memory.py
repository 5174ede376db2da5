"""The memory benchmark's own parts: the resident memory it reports, and its options."""

import pytest

from benchmarks import bench_memory


def test_the_resident_memory_is_read_and_grows_with_what_is_kept():
    before = bench_memory.resident_mb()
    kept = bytearray(64 * 2**20)
    kept[::4096] = b"x" * len(kept[::4096])  # touched, so that it is resident
    assert before > 10 and bench_memory.resident_mb() - before >= 60
    del kept


@pytest.mark.parametrize("argv, message", [
    (["--size", "big"], "--size 'big': expected WIDTHxHEIGHT"),
    (["--every", "0"], "--every, --fps and --turns must be positive, --players 2 to 4"),
    (["--players", "5"], "--every, --fps and --turns must be positive, --players 2 to 4"),
])
def test_bad_options_are_refused_in_one_line(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        bench_memory.main(argv)
    assert exc.value.code == 2 and message in capsys.readouterr().err
