import pytest

from rules.errors import MalformedPosition
from rules.grid import Direction, Grid, in_bounds, manhattan, neighbours, ray, step


def g(rows):
    return Grid.of(rows)


def test_basic_access_and_set():
    grid = g([[1, 2, 3], [4, None, 6]])
    assert grid.shape == (2, 3)
    assert grid[(1, 2)] == 6
    assert grid.find(None) == [(1, 1)]
    assert grid.set((0, 0), 9).rows == ((9, 2, 3), (4, None, 6))
    assert grid.rows == ((1, 2, 3), (4, None, 6))  # unchanged
    assert grid.swap((0, 0), (1, 2)).rows == ((6, 2, 3), (4, None, 1))


def test_diff():
    a = g([[1, 2], [3, 4]])
    assert a.diff(a.set((1, 0), 7)) == [(1, 0)]
    with pytest.raises(MalformedPosition):
        a.diff(g([[1, 2, 3]]))


def test_rotate_line_wraps():
    grid = g([[1, 2, 3], [4, 5, 6]])
    assert grid.rotate_line("row", 0, 1).rows == ((3, 1, 2), (4, 5, 6))
    assert grid.rotate_line("row", 1, -1).rows == ((1, 2, 3), (5, 6, 4))
    assert grid.rotate_line("col", 2, 1).rows == ((1, 2, 6), (4, 5, 3))


def test_slide_into_gap():
    grid = g([[1, 2, 3, None]])
    assert grid.slide_into_gap((0, 3), (0, 0)).rows == ((None, 1, 2, 3),)
    col = g([[None], [1], [2]])
    assert col.slide_into_gap((0, 0), (2, 0)).rows == ((1,), (2,), (None,))
    with pytest.raises(MalformedPosition):
        grid.slide_into_gap((0, 3), (0, 3))


def test_directions_and_rays():
    assert Direction.between((2, 2), (1, 2)) is Direction.UP
    assert Direction.between((2, 2), (1, 1)) is None
    assert Direction.LEFT.opposite is Direction.RIGHT
    assert step((0, 0), Direction.DOWN, 3) == (3, 0)
    assert list(ray((1, 1), Direction.RIGHT, (3, 4))) == [(1, 2), (1, 3)]
    assert sorted(c for _, c in neighbours((0, 0), (2, 2))) == [(0, 1), (1, 0)]
    assert manhattan((0, 0), (2, 3)) == 5
    assert not in_bounds((2, 0), (2, 2))
    assert Direction.parse(" Up ") is Direction.UP
    with pytest.raises(MalformedPosition, match="'north'"):
        Direction.parse("north")


def test_parse_checks_shape_and_cells():
    parse = int
    assert Grid.parse([[1, None], [3, 4]], parse, shape=(2, 2)).rows == ((1, None), (3, 4))
    with pytest.raises(MalformedPosition, match="2 rows of 2"):
        Grid.parse([[1, 2, 3], [3, 4]], parse, shape=(2, 2))
    with pytest.raises(MalformedPosition, match=r"cell \[0,1\]"):
        Grid.parse([[1, "x"]], parse)
    with pytest.raises(MalformedPosition, match="list of rows"):
        Grid.parse("nope", parse)
    with pytest.raises(MalformedPosition, match="ragged"):
        Grid.of([[1], [1, 2]])


def test_render():
    assert g([[1, None], [10, 2]]).render() == " 1  .\n10  2"


def test_bottom_left_xy_conversion():
    from rules.slider.state import cell_to_xy, xy_to_cell

    # on a 4-row grid, (x=0, y=0) is the bottom-left cell, row 3 col 0
    assert xy_to_cell((0, 0), 4) == (3, 0)
    assert xy_to_cell((2, 3), 4) == (0, 2)
    assert cell_to_xy((0, 2), 4) == (2, 3)
    assert all(cell_to_xy(xy_to_cell((x, y), 5), 5) == (x, y) for x in range(5) for y in range(5))


def test_edge_cell_reaches_the_border_or_stays():
    from rules.slide.state import edge_cell

    assert edge_cell((1, 2), Direction.LEFT, (4, 4)) == (1, 0)
    assert edge_cell((1, 2), Direction.RIGHT, (4, 4)) == (1, 3)
    assert edge_cell((1, 2), Direction.UP, (4, 4)) == (0, 2)
    assert edge_cell((1, 2), Direction.DOWN, (4, 5)) == (3, 2)
    assert edge_cell((0, 3), Direction.UP, (4, 4)) == (0, 3)


def test_push_in_shifts_the_run_towards_the_gap():
    from rules.slide.state import push_in

    grid = g([[1, 2, None, 4], [5, 6, 7, 8]])
    assert push_in(grid, (0, 2), Direction.LEFT, 9).rows == ((9, 1, 2, 4), (5, 6, 7, 8))
    assert push_in(grid, (0, 2), Direction.RIGHT, 9).rows == ((1, 2, 4, 9), (5, 6, 7, 8))
    assert push_in(grid, (0, 2), Direction.DOWN, 9).rows == ((1, 2, 7, 4), (5, 6, 9, 8))
    with pytest.raises(MalformedPosition, match="up edge"):
        push_in(grid, (0, 2), Direction.UP, 9)


def test_cells_with_equal_neighbour_counts_all_at_once():
    from rules.slide.state import cells_with_equal_neighbour

    grid = g([[3, 3, 3], [1, None, 1], [2, 1, 2]])
    assert cells_with_equal_neighbour(grid) == [(0, 0), (0, 1), (0, 2)]
    assert cells_with_equal_neighbour(grid, key=lambda v: v % 2) == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2)]


def test_rotate_band_shifts_adjacent_lines_with_wrap():
    from rules.scavenger_hunt.state import rotate_band

    grid = g([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])
    assert rotate_band(grid, "row", 0, 2, 2).rows == ((3, 4, 1, 2), (7, 8, 5, 6), (9, 10, 11, 12))
    assert rotate_band(grid, "row", 1, 2, -1).rows == ((1, 2, 3, 4), (6, 7, 8, 5), (10, 11, 12, 9))
    assert rotate_band(grid, "col", 2, 2, 1).rows == ((1, 2, 11, 12), (5, 6, 3, 4), (9, 10, 7, 8))
    with pytest.raises(MalformedPosition, match="'diag'"):
        rotate_band(grid, "diag", 0, 1, 1)


def test_rotate_band_cell_follows_its_value():
    from rules.scavenger_hunt.state import rotate_band, rotate_band_cell

    grid = g([[(r, c) for c in range(5)] for r in range(4)])
    for axis, first, count, step_ in (("row", 2, 2, 2), ("row", 0, 1, -3), ("col", 1, 2, -2), ("col", 4, 1, 1)):
        moved = rotate_band(grid, axis, first, count, step_)
        for cell in grid.cells():
            assert moved[rotate_band_cell(cell, axis, first, count, step_, grid.shape)] == grid[cell]


def test_cells_between_is_the_rook_path():
    from rules.scavenger_hunt.state import cells_between

    assert cells_between((2, 1), (2, 4)) == [(2, 2), (2, 3)]
    assert cells_between((5, 3), (2, 3)) == [(4, 3), (3, 3)]
    assert cells_between((1, 1), (1, 2)) == []
    with pytest.raises(MalformedPosition, match=r"\(0, 0\) and \(1, 1\)"):
        cells_between((0, 0), (1, 1))


def test_on_edge_and_block_of():
    from rules.scavenger_hunt.state import block_of, on_edge

    assert [on_edge(c, (8, 12)) for c in ((0, 5), (7, 5), (3, 0), (3, 11), (1, 1), (6, 10))] == [
        True, True, True, True, False, False,
    ]
    assert block_of((5, 7), (2, 2)) == (2, 3)
    assert block_of((0, 11), (2, 3)) == (0, 3)


def test_reachable_gives_fewest_steps_and_respects_pass_and_end():
    from rules.steppin_stones.state import reachable

    # 3x3 with a wall in the middle (neither passed nor ended on) and a low coin at (0,1)
    # that may be passed over but not ended on.
    walls = {(1, 1)}
    low = {(0, 1)}

    def can_pass(c):
        return c not in walls

    def can_end(c):
        return c not in walls and c not in low

    got = reachable((0, 0), 2, (3, 3), can_pass, can_end)
    assert got == {(1, 0): 1, (0, 2): 2, (2, 0): 2}
    got4 = reachable((0, 0), 4, (3, 3), can_pass, can_end)
    assert got4 == {(1, 0): 1, (0, 2): 2, (2, 0): 2, (1, 2): 3, (2, 1): 3, (2, 2): 4}
    assert reachable((0, 0), 0, (3, 3), can_pass, can_end) == {}


def test_path_ends_exact_length_simple_paths_that_turn():
    from rules.steppin_stones.state import path_ends

    def free(c):
        return True

    # exactly 2 steps from a corner of a 3x3: straight or turning, never back to the start
    assert path_ends((0, 0), 2, (3, 3), free, free) == {(0, 2), (1, 1), (2, 0)}
    # exactly 3 steps: (0,1) only by the detour (1,0)->(1,1)->(0,1)
    assert path_ends((0, 0), 3, (3, 3), free, free) == {(0, 1), (1, 0), (1, 2), (2, 1)}
    # a blocked middle: only the edges remain
    assert path_ends((0, 0), 2, (3, 3), lambda c: c != (0, 1), free) == {(1, 1), (2, 0)}
    assert path_ends((0, 0), 0, (3, 3), free, free) == set()
