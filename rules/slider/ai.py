"""Computer players for Slider: alpha-beta search, plus the random and greedy baselines of the benchmark.

The search works on bitboards (Python ints): square (i, j) -- column i, row j from the
bottom -- is bit ``j * N + i``. A move inside the search is a pair of bits
``(from_bit, to_bit)`` with ``to_bit == 0`` when the piece leaves the board. Scores are
in "centi-squares" from the point of view of the player to move; a win is worth
``WIN`` minus the number of plies to reach it.

The search is negamax alpha-beta with iterative deepening, a transposition table, the
table's best move first, then moves off the board, forward moves, killer moves and the
history heuristic. It stops on a wall-clock budget per move (``time_s``) and/or on a
node or depth limit; with ``time_s=None`` it is fully deterministic (what tests use).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Protocol

from rules.grid import Direction
from rules.slider.state import PASS, Move, Pass, Side, SliderState

WIN = 1_000_000
_WIN_THRESHOLD = WIN - 10_000

# Evaluation weights (centi-squares). Tuned by hand with benchmarks/bench_slider_ai.py.
W_DIST = 100  # one square of a piece's shortest way off the board (blocks taken into account)
W_BLOCK = 40  # a piece standing right in front of an opponent's piece
W_MOBILITY = 15  # one legal move
W_TEMPO = 50  # having the move is worth about half a square in a race

_EXACT, _LOWER, _UPPER = 0, 1, 2
_MAX_TT = 2_000_000


class _Stop(Exception):
    """Raised inside the search when the time or node budget is spent."""


def _bits(x: int):
    while x:
        b = x & -x
        yield b
        x ^= b


class BitBoard:
    """Precomputed masks and distance tables for one board size and set of blocked squares."""

    def __init__(self, n: int, blocked: frozenset) -> None:
        self.n = n
        self.full = (1 << (n * n)) - 1
        self.blocked = sum(1 << (j * n + i) for i, j in blocked)
        self.col_first = sum(1 << (j * n) for j in range(n))
        self.col_last = self.col_first << (n - 1)
        self.row_bottom = (1 << n) - 1
        self.row_top = self.row_bottom << (n * (n - 1))
        dist_h = self._exit_distances(Side.H)
        dist_v = self._exit_distances(Side.V)
        # Per-row lookup tables: the summed distance of a row's pattern of pieces, so the
        # evaluation costs N table look-ups per side rather than a loop over pieces.
        row_mask = self.row_bottom
        self.row_mask = row_mask
        self.h_table = [[sum(dist_h[j * n + i] for i in range(n) if p >> i & 1) for p in range(1 << n)] for j in range(n)]
        self.v_table = [[sum(dist_v[j * n + i] for i in range(n) if p >> i & 1) for p in range(1 << n)] for j in range(n)]
        self.dist_h = dist_h
        self.dist_v = dist_v
        # by bit, for the search's incremental race term; bit 0 = off the board = distance 0
        self.dh = {1 << k: d for k, d in enumerate(dist_h)}
        self.dv = {1 << k: d for k, d in enumerate(dist_v)}
        self.dh[0] = self.dv[0] = 0

    def _exit_distances(self, side: Side) -> list[int]:
        """Moves a lone piece of ``side`` needs to leave the board from each square, going round the blocks.

        Squares it cannot leave from (walled in by blocks) get 3N, so the evaluation
        still prefers the squares nearer to some way out.
        """
        n = self.n
        unreachable = 3 * n
        dist = [unreachable] * (n * n)
        steps = {Side.H: ((1, 0), (0, 1), (0, -1)), Side.V: ((0, 1), (-1, 0), (1, 0))}[side]
        changed = True
        while changed:
            changed = False
            for j in range(n):
                for i in range(n):
                    k = j * n + i
                    if self.blocked >> k & 1:
                        continue
                    best = dist[k]
                    for di, dj in steps:
                        ti, tj = i + di, j + dj
                        if not (0 <= ti < n and 0 <= tj < n):
                            # only the forward edge is a way off
                            if (side is Side.H and ti == n) or (side is Side.V and tj == n):
                                best = min(best, 1)
                            continue
                        tk = tj * n + ti
                        if not self.blocked >> tk & 1:
                            best = min(best, dist[tk] + 1)
                    if best < dist[k]:
                        dist[k] = best
                        changed = True
        return dist

    def distance(self, pieces: int, table: list[list[int]]) -> int:
        n, m, total = self.n, self.row_mask, 0
        for j in range(n):
            row = (pieces >> (j * n)) & m
            if row:
                total += table[j][row]
        return total

    def h_moves(self, h: int, v: int) -> list[tuple[int, int]]:
        """H's moves as (from_bit, to_bit), off-board first, then right, then up and down."""
        n = self.n
        empty = ~(h | v | self.blocked) & self.full
        out = [(b, 0) for b in _bits(h & self.col_last)]
        out += [(t >> 1, t) for t in _bits(((h & ~self.col_last) << 1) & empty)]
        out += [(t >> n, t) for t in _bits(((h & ~self.row_top) << n) & empty)]
        out += [(t << n, t) for t in _bits((h >> n) & empty)]
        return out

    def v_moves(self, h: int, v: int) -> list[tuple[int, int]]:
        """V's moves as (from_bit, to_bit), off-board first, then up, then left and right."""
        n = self.n
        empty = ~(h | v | self.blocked) & self.full
        out = [(b, 0) for b in _bits(v & self.row_top)]
        out += [(t >> n, t) for t in _bits(((v & ~self.row_top) << n) & empty)]
        out += [(t << 1, t) for t in _bits(((v & ~self.col_first) >> 1) & empty)]
        out += [(t >> 1, t) for t in _bits(((v & ~self.col_last) << 1) & empty)]
        return out

    def mobility(self, h: int, v: int) -> tuple[int, int]:
        n = self.n
        empty = ~(h | v | self.blocked) & self.full
        mh = (
            (h & self.col_last).bit_count()
            + (((h & ~self.col_last) << 1) & empty).bit_count()
            + (((h & ~self.row_top) << n) & empty).bit_count()
            + ((h >> n) & empty).bit_count()
        )
        mv = (
            (v & self.row_top).bit_count()
            + (((v & ~self.row_top) << n) & empty).bit_count()
            + (((v & ~self.col_first) >> 1) & empty).bit_count()
            + (((v & ~self.col_last) << 1) & empty).bit_count()
        )
        return mh, mv

    def race(self, h: int, v: int) -> int:
        """V's summed distance off the board minus H's (squares; positive when H is ahead)."""
        return self.distance(v, self.v_table) - self.distance(h, self.h_table)

    def evaluate_h(self, h: int, v: int, race: int | None = None) -> int:
        """Static score for H (centi-squares): race distance, pieces blocking each other, mobility.

        ``race`` is ``self.race(h, v)`` when the caller keeps it up to date move by move.
        """
        n = self.n
        dist = self.race(h, v) if race is None else race
        h_blocks_v = (v & (h >> n)).bit_count()
        v_blocks_h = (h & ~self.col_last & (v >> 1)).bit_count()
        mh, mv = self.mobility(h, v)
        return W_DIST * dist + W_BLOCK * (h_blocks_v - v_blocks_h) + W_MOBILITY * (mh - mv)

    def to_bits(self, squares) -> int:
        return sum(1 << (j * self.n + i) for i, j in squares)

    def to_move(self, side: Side, frm: int, to: int) -> Move:
        n = self.n
        k = frm.bit_length() - 1
        i, j = k % n, k // n
        if to == 0:
            d = side.forward
        elif to == frm << 1:
            d = Direction.RIGHT
        elif to == frm >> 1:
            d = Direction.LEFT
        elif to == frm << n:
            d = Direction.UP
        else:
            d = Direction.DOWN
        return Move(i, j, d)


@dataclass(frozen=True)
class SearchResult:
    """What a search found: the move, its score for the player to move (centi-squares; ~WIN = forced win),
    the deepest completed depth (plies) and the nodes visited."""

    move: Move | Pass
    score: int
    depth: int
    nodes: int


class Player(Protocol):
    def choose(self, state: SliderState) -> Move | Pass: ...


class AlphaBetaPlayer:
    """The computer opponent. ``time_s``: wall-clock budget per move in seconds (None: no clock);
    ``max_depth``: deepest iteration in plies; ``max_nodes``: node budget per move.

    With ``time_s=None`` and a depth or node limit, every choice is deterministic.
    """

    def __init__(self, time_s: float | None = 1.0, max_depth: int | None = None, max_nodes: int | None = None) -> None:
        if time_s is None and max_depth is None and max_nodes is None:
            raise ValueError("give the search at least one limit: time_s, max_depth or max_nodes")
        if time_s is not None and time_s <= 0:
            raise ValueError(f"time_s must be positive, got {time_s}")
        self.time_s = time_s
        self.max_depth = max_depth if max_depth is not None else 200
        self.max_nodes = max_nodes
        self._boards: dict[tuple[int, frozenset], BitBoard] = {}
        self._tt: dict = {}
        self._history: dict = {}
        self._seen: set = set()  # positions of this game so far (search keys)
        self._path: set = set()
        self.bb: BitBoard | None = None  # the board being searched
        self._nodes = 0
        self._deadline: float | None = None

    def choose(self, state: SliderState) -> Move | Pass:
        return self.search(state).move

    def _board(self, state: SliderState) -> BitBoard:
        key = (state.n, state.blocked)
        bb = self._boards.get(key)
        if bb is None:
            bb = self._boards[key] = BitBoard(state.n, state.blocked)
            self._tt.clear()
            self._history.clear()
            self._seen.clear()
        return bb

    def new_game(self) -> None:
        """Forget the positions of the previous game (they count as repetitions otherwise)."""
        self._seen.clear()
        self._tt.clear()
        self._history.clear()

    def search(self, state: SliderState) -> SearchResult:
        """Search ``state`` for the player to move; raises ValueError if the game is over."""
        if state.is_over:
            raise ValueError("the game is over: there is no move to search for")
        bb = self._board(state)
        self.bb = bb
        side = state.to_move
        h, v = bb.to_bits(state.h), bb.to_bits(state.v)
        root_moves = bb.h_moves(h, v) if side is Side.H else bb.v_moves(h, v)
        if not root_moves:
            return SearchResult(PASS, 0, 0, 0)
        if len(self._tt) > _MAX_TT:
            self._tt.clear()
        self._nodes = 0
        self._deadline = None if self.time_s is None else time.perf_counter() + self.time_s
        self._killers: list[list] = [[None, None] for _ in range(self.max_depth + 2)]
        best_move, best_score, done_depth = root_moves[0], 0, 0
        is_h = side is Side.H
        root_key = (h, v, is_h, state.passes)
        self._seen.discard(root_key)
        self._path = {root_key}
        for depth in range(1, self.max_depth + 1):
            try:
                score, move = self._root(h, v, bb.race(h, v), is_h, state.passes, depth, root_moves, best_move)
            except _Stop:
                break
            best_move, best_score, done_depth = move, score, depth
            if abs(score) >= _WIN_THRESHOLD:
                break  # a forced result: deeper search changes nothing
        self._seen.add(root_key)
        frm, to = best_move
        self._seen.add((h ^ frm | to, v, False, 0) if is_h else (h, v ^ frm | to, True, 0))
        return SearchResult(bb.to_move(side, *best_move), best_score, done_depth, self._nodes)

    def _root(self, h, v, race, is_h, passes, depth, moves, first):
        ordered = [first] + [m for m in moves if m != first]
        dh, dv = self.bb.dh, self.bb.dv
        alpha, beta = -WIN - 1, WIN + 1
        best = ordered[0]
        for frm, to in ordered:
            if is_h:
                score = -self._negamax(h ^ frm | to, v, race + dh[frm] - dh[to], False, 0, depth - 1, 1, -beta, -alpha)
            else:
                score = -self._negamax(h, v ^ frm | to, race + dv[to] - dv[frm], True, 0, depth - 1, 1, -beta, -alpha)
            if score > alpha:
                alpha, best = score, (frm, to)
        self._store((h, v, is_h, passes), depth, alpha, _EXACT, best)
        return alpha, best

    def _store(self, key, depth, score, flag, move):
        self._tt[key] = (depth, score, flag, move)

    def _negamax(self, h, v, race, is_h, passes, depth, ply, alpha, beta):
        self._nodes += 1
        if self._nodes & 255 == 0:
            if self._deadline is not None and time.perf_counter() > self._deadline:
                raise _Stop
        if self.max_nodes is not None and self._nodes > self.max_nodes:
            raise _Stop
        # the previous mover may just have taken their last piece off
        if not h:
            return WIN - ply if is_h else -(WIN - ply)
        if not v:
            return -(WIN - ply) if is_h else WIN - ply
        if passes >= 2:
            return 0
        bb = self.bb
        if depth <= 0:
            s = bb.evaluate_h(h, v, race)
            return (s if is_h else -s) + W_TEMPO
        key = (h, v, is_h, passes)
        if key in self._path or key in self._seen:
            # a position already met (on this line or earlier in the game) leads nowhere new:
            # scoring it as a draw stops endless shuffling when ahead, and seeks it when behind
            return 0
        entry = self._tt.get(key)
        tt_move = None
        if entry is not None:
            e_depth, e_score, e_flag, tt_move = entry
            if e_depth >= depth:
                if e_score >= _WIN_THRESHOLD:
                    e_score -= ply
                elif e_score <= -_WIN_THRESHOLD:
                    e_score += ply
                if e_flag == _EXACT:
                    return e_score
                if e_flag == _LOWER and e_score >= beta:
                    return e_score
                if e_flag == _UPPER and e_score <= alpha:
                    return e_score
        self._path.add(key)
        try:
            return self._expand(h, v, race, is_h, passes, depth, ply, alpha, beta, key, tt_move)
        finally:
            self._path.discard(key)

    def _expand(self, h, v, race, is_h, passes, depth, ply, alpha, beta, key, tt_move):
        bb = self.bb
        moves = bb.h_moves(h, v) if is_h else bb.v_moves(h, v)
        if not moves:
            return -self._negamax(h, v, race, not is_h, passes + 1, depth - 1, ply + 1, -beta, -alpha)
        # order: table move, then killers, then history (stable, so off/forward moves stay ahead)
        history = self._history
        killers = self._killers[ply] if ply < len(self._killers) else [None, None]
        if len(moves) > 1:
            moves.sort(key=lambda m: -history.get(m, 0))
            front = [m for m in (tt_move, killers[0], killers[1]) if m is not None and m in moves]
            if front:
                seen = set()
                front = [m for m in front if not (m in seen or seen.add(m))]
                moves = front + [m for m in moves if m not in seen]
        alpha0 = alpha
        dh, dv = bb.dh, bb.dv
        best_score, best_move = -WIN - 1, moves[0]
        for m in moves:
            frm, to = m
            if is_h:
                score = -self._negamax(h ^ frm | to, v, race + dh[frm] - dh[to], False, 0, depth - 1, ply + 1, -beta, -alpha)
            else:
                score = -self._negamax(h, v ^ frm | to, race + dv[to] - dv[frm], True, 0, depth - 1, ply + 1, -beta, -alpha)
            if score > best_score:
                best_score, best_move = score, m
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if killers[0] != m:
                            killers[1], killers[0] = killers[0], m
                        history[m] = history.get(m, 0) + depth * depth
                        break
        flag = _UPPER if best_score <= alpha0 else (_LOWER if best_score >= beta else _EXACT)
        stored = best_score
        if stored >= _WIN_THRESHOLD:
            stored += ply
        elif stored <= -_WIN_THRESHOLD:
            stored -= ply
        self._store(key, depth, stored, flag, best_move)
        return best_score


class RandomPlayer:
    """Picks uniformly among the legal moves (seeded)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: SliderState) -> Move | Pass:
        return self.rng.choice(state.legal_moves())


class GreedyPlayer:
    """One-ply greedy: takes a piece off if it can, else moves a piece forward, else sideways
    (the move that most shortens its own plain distance to the far edge), ties broken at random."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: SliderState) -> Move | Pass:
        moves = state.legal_moves()
        side = state.to_move
        rank = {}
        for m in moves:
            if isinstance(m, Pass):
                rank[m] = 0
            elif not state.on_board(m.target()):
                rank[m] = 2
            else:
                rank[m] = 1 if m.direction is side.forward else 0
        top = max(rank.values())
        return self.rng.choice([m for m in moves if rank[m] == top])


__all__ = ["AlphaBetaPlayer", "BitBoard", "GreedyPlayer", "Player", "RandomPlayer", "SearchResult", "WIN"]


#: the search limits (plies, nodes) of each level of the Caller's own play (``caller watch
#: --ai H|V --level N``): no wall clock, so one position always gets one move
LEVELS = {1: (1, 2_000), 2: (2, 8_000), 3: (4, 30_000), 4: (6, 100_000), 5: (8, 300_000)}
DEFAULT_LEVEL = 3


def move_at_level(state: SliderState, level: int = DEFAULT_LEVEL) -> Move | Pass:
    """The move the computer plays in ``state`` at ``level`` (``LEVELS``), searched afresh (no
    memory of earlier positions), so that it depends on the position alone: a recorded game
    and the live Caller watching it choose the same."""
    depth, nodes = LEVELS[level]
    return AlphaBetaPlayer(time_s=None, max_depth=depth, max_nodes=nodes).choose(state)
