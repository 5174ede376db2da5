"""The live Caller calling Scavenger Hunt: ``LiveCaller`` with ``ScavengerHuntLive``, driven by
exact reader observations made from rules states (``observe``), in either half turn the reader
may report, and through the frame loop (``Watcher``) with a reader that plays them back."""

from dataclasses import replace

import numpy as np
import pytest

import rules
from caller.cli import main
from caller.live import LiveCaller
from caller.referees.scavenger_hunt_live import Hunt, ScavengerHuntLive
from caller.watch import Watcher
from rules.grid import Direction
from rules.scavenger_hunt.state import SHIFTS, Shift, State, Turn, apply, coin_rank, forget_suits, legal_moves
from vision.config import VisionConfig
from vision.observation import SquaresObservation
from voice.phrasebook import scavenger_hunt as phrases

GAME = rules.get("scavenger-hunt")
#: the board's corners in the picture in the players' frame: far-left, far-right, near-right,
#: near-left (the near edge lower in the picture: the camera sits on the players' side)
CORNERS = ((100.0, 50.0), (700.0, 60.0), (690.0, 450.0), (110.0, 440.0))


def observe(state: State, *, turned=False, shift=None, coins=None, pawns=None, uncertain=()) -> SquaresObservation:
    """What the reader reports of ``state`` (its ``shift`` made, if given): coin values, no coin
    under a pawn, the pawns; ``coins``/``pawns``: {square: what} read instead; ``turned``: the
    reader reports the board half turned (squares and corners turned with it)."""
    board, squares = (state.coins, state.pawns) if shift is None else state.shifted(shift)
    grid = [[None if v is None else coin_rank(v).code for v in row] for row in board.rows]
    seen = {s.code: p for s, p in zip(state.players, squares)}
    for (r, c), v in (coins or {}).items():
        grid[r][c] = v
    seen.update(pawns or {})
    for r, c in seen.values():
        grid[r][c] = None
    ps = sorted(seen.items(), key=lambda p: "SMCA".index(p[0]))
    corners, doubt = CORNERS, list(uncertain)
    if turned:
        grid = [row[::-1] for row in grid[::-1]]
        ps = [(s, (7 - r, 11 - c)) for s, (r, c) in ps]
        doubt = [(7 - r, 11 - c) for r, c in doubt]
        corners = corners[2:] + corners[:2]
    conf = tuple(tuple(0.5 if (r, c) in doubt else 1.0 for c in range(12)) for r in range(8))
    return SquaresObservation(coins=tuple(map(tuple, grid)), pawns=tuple(ps), square_confidence=conf,
                              uncertain=tuple(doubt), board_corners=corners)


def types(events):
    return [e.type for e in events]


def said(events):
    return [(e.type, e.say) for e in events]


def started(seed=3, players=2, turned=False, **options):
    """A Caller that accepted the deal of ``seed``, its referee and that deal (referee mode)."""
    ref = ScavengerHuntLive(**options)
    live = LiveCaller(ref)
    state = GAME.setup(seed=seed, players=players)
    live.on_position(0.0, ref.reading(observe(state, turned=turned)))
    return live, ref, state


def turn_of(state, *, collect=None, onto_coin=None, shift=None, moving=True):
    """The first legal turn of ``state`` with the given outcome (deterministic)."""
    for t in legal_moves(state):
        board, pawns = state.shifted(t.shift)
        me = state.to_move
        if (collect is not None and t.collect != collect) or (shift is not None and t.shift != shift):
            continue
        if moving and t.to == pawns[me]:
            continue
        if onto_coin is not None and (board[t.to] is not None) != onto_coin:
            continue
        return t
    raise AssertionError("no such turn")


def test_the_start_then_a_shift_and_a_move():
    live = LiveCaller(ScavengerHuntLive())
    state = GAME.setup(seed=3, players=2)
    ev = live.on_position(0.0, live.referee.reading(observe(state)))
    assert types(ev) == ["board", "turn"]
    assert ev[0].data == {"players": ["S", "M"], "pawns": {"S": [7, 0], "M": [0, 11]},
                          "coins": GAME.to_json(forget_suits(state))["coins"]}
    assert ev[1].to_json() == {"t": 0.0, "type": "turn", "player": "S", "first": True, "say": "Red starts."}
    turn = Turn(Shift("row", 0, Direction.LEFT), (1, 0))
    after = apply(state, turn)
    ev = live.on_position(2.0, live.referee.reading(observe(after)))
    assert [e.to_json() for e in ev] == [
        {"t": 2.0, "type": "shift", "player": "S", "line": "row", "index": 0, "direction": "left",
         "say": "Red shifts tile row 1 left."},
        {"t": 2.0, "type": "move", "pawn": "S", "from": [7, 0], "to": [1, 0], "coin": None,
         "say": "Red moves to row 2, column 1."},
        {"t": 2.0, "type": "turn", "player": "M", "say": "Black to play."}]
    assert live.current.game == forget_suits(after) and live.slides == 1
    assert live.call_done(3.0)[0].say == "Not a win yet: collected so far, Red 0 and Black 0."


def test_the_shift_alone_is_the_turn_half_made_and_may_be_taken_back():
    live, ref, state = started()
    shift = Shift("col", 1, Direction.DOWN)
    assert said(live.on_position(1.0, ref.reading(observe(state, shift=shift)))) == [
        ("shift", "Red shifts tile column 2 down.")]
    assert live.on_position(1.5, ref.reading(observe(state))) == []  # shifted back: nothing said
    assert live.current.shift is None
    live.on_position(2.0, ref.reading(observe(state, shift=shift)))
    after = apply(state, Turn(shift, (7, 1)))
    assert said(live.on_position(3.0, ref.reading(observe(after)))) == [
        ("move", "Red moves to row 8, column 2."), ("turn", "Black to play.")]


@pytest.mark.parametrize("start_turned", [False, True])
def test_a_reading_turned_half_round_is_mapped_into_the_players_frame(start_turned):
    plain, _, state = started()
    live, ref, _ = started(turned=start_turned)
    assert live.current == plain.current  # the frame is the camera's side either way
    after = apply(state, Turn(Shift("row", 0, Direction.LEFT), (1, 0)))
    ev = live.on_position(1.0, ref.reading(observe(after, turned=True)))
    assert said(ev) == said(plain.on_position(1.0, ref.reading(observe(after))))
    assert types(ev) == ["shift", "move", "turn"] and live.current.game == forget_suits(after)
    for turned in (False, True):  # whichever half turn the reader reports, the same reading
        assert ref.reading(observe(after, turned=turned)).key == ref.reading_of(live.current).key


def test_named_players_set_the_order_and_the_frame():
    state = GAME.setup(seed=3, players=2)
    ref = ScavengerHuntLive(players="M,S")
    live = LiveCaller(ref)
    # Black's pawn stands on a far corner as the reader reports it: the players sit the other side
    ev = live.on_position(0.0, ref.reading(observe(state)))
    assert ev[0].data["players"] == ["M", "S"] and ev[0].data["pawns"] == {"M": [7, 0], "S": [0, 11]}
    assert ev[1].say == "Black starts."
    assert ref.reading(observe(state)).pawns == (("S", (0, 11)), ("M", (7, 0)))


def test_a_collection_is_said_when_the_pawn_leaves_the_square():
    live, ref, state = started(seed=1)
    red = turn_of(state, collect=True)
    s1 = apply(state, red)
    ev = live.on_position(1.0, ref.reading(observe(s1)))
    rank = coin_rank(state.shifted(red.shift)[0][red.to])
    assert said(ev)[1] == ("move", f"Red moves to {'row %d, column %d' % (red.to[0] + 1, red.to[1] + 1)}, onto "
                           f"{'an' if rank.code == 'a' else 'a'} {rank.spoken}.")
    assert live.current.open == (True, False) and live.current.game.collected == ((), ())
    s2 = apply(s1, turn_of(s1))
    assert types(live.on_position(2.0, ref.reading(observe(s2)))) == ["shift", "move", "turn"]
    again = turn_of(s2)
    s3 = apply(s2, again)
    ev = live.on_position(3.0, ref.reading(observe(s3)))
    assert types(ev) == ["collect", "shift", "move", "turn"]
    assert ev[0].to_json() == {"t": 3.0, "type": "collect", "player": "S", "value": rank.code,
                               "square": list(s2.pawns[0]), "count": 1,
                               "say": f"Red collected {'an' if rank.code == 'a' else 'a'} {rank.spoken}: 1 of 6."}
    assert live.current.game.collected == ((rank,), ()) and live.current.open == (False, False)


def test_a_coin_left_under_the_pawn_is_seen_again_and_nothing_is_said():
    live, ref, state = started(seed=1)
    s1 = apply(state, turn_of(state, collect=False, onto_coin=True))
    live.on_position(1.0, ref.reading(observe(s1)))
    s2 = apply(s1, turn_of(s1))
    live.on_position(2.0, ref.reading(observe(s2)))
    ev = live.on_position(3.0, ref.reading(observe(apply(s2, turn_of(s2)))))
    assert types(ev) == ["shift", "move", "turn"] and live.current.game.collected == ((), ())


# the docs' example: every coin collected but the Red Null on 8,5 and the Black Null on 3,10
ENDGAME = {"game": "scavenger-hunt", "mode": "referee", "players": ["S", "M"], "to_move": 0, "turn": 7,
           "pawns": [[7, 0], [0, 11]],
           "coins": [[None] * 12, [None] * 12, [None] * 9 + ["Mn", None, None], *([[None] * 12] * 4),
                     [None] * 4 + ["Sn"] + [None] * 7],
           "collected": [["a", "2", "3", "4", "5"], ["a", "2", "3", "4", "5"]],
           "last_shifts": [None, {"line": "row", "index": 3, "direction": "right"}]}


def midgame(state, opened=None):
    """A Caller following ``state`` (a referee-mode position) as if it had watched it so far;
    ``opened``: the players whose pawn stands on a coin peeked at unseen (none by default)."""
    ref = ScavengerHuntLive(players=[s.code for s in state.players])
    live = LiveCaller(ref)
    live.on_position(0.0, ref.reading(observe(GAME.setup(seed=1, players=len(state.players)))))
    live.current = Hunt(forget_suits(state), None, tuple(i in (opened or ()) for i in range(len(state.players))))
    return live, ref


def test_a_win_claimed_on_the_sixth_coin_and_one_refused():
    state = GAME.from_json(ENDGAME)
    live, ref = midgame(state)
    assert said(live.call_done(0.5)) == [("fumble", "Not a win yet: collected so far, Red 5 and Black 5.")]
    red = turn_of(state, collect=True)
    s1 = apply(state, red)
    assert s1.winner is not None  # the rules know; the camera sees only a pawn on a Null
    ev = live.on_position(1.0, ref.reading(observe(s1)))
    assert types(ev) == ["shift", "move", "turn"] and ev[1].data["coin"] == "n"
    ev = live.call_done(1.5)  # Red: "Caller, done!"
    assert [e.to_json() for e in ev] == [
        {"t": 1.5, "type": "collect", "player": "S", "value": "n", "square": list(red.to), "count": 6,
         "say": "Red collected a Null: 6 of 6."},
        {"t": 1.5, "type": "won", "player": "S", "collected": 6, "say": "Red has collected all six coins: Red wins."}]
    # the game is over: the next shift is not judged
    assert live.on_position(2.0, ref.reading(observe(s1, shift=Shift("row", 1, Direction.LEFT)))) == []
    assert live.call_done(2.5) == []


def test_a_win_is_seen_when_the_sixth_coin_is_seen_gone():
    state = GAME.from_json(ENDGAME)
    live, ref = midgame(state)
    s1 = apply(state, turn_of(state, collect=True))
    live.on_position(1.0, ref.reading(observe(s1)))
    # play on as if nobody noticed: Black shifts and moves, then Red's pawn leaves the square
    board = replace(s1, collected=((), s1.collected[1]))  # the rules would refuse any turn after a win
    s2 = apply(board, turn_of(board))
    rest = apply(s2, turn_of(s2))
    ev = live.on_position(2.0, ref.reading(observe(s2)))
    assert types(ev) == ["shift", "move", "turn"]
    ev = live.on_position(3.0, ref.reading(observe(rest)))
    assert said(ev) == [("collect", "Red collected a Null: 6 of 6."),
                        ("won", "Red has collected all six coins: Red wins.")]


def play_illegal(live, ref, obs, t=5.0):
    """An illegal board read twice (the second read confirms it) and a third time."""
    reading = ref.reading(obs)
    assert live.on_position(t, reading) == [] and live.needs_confirmation
    ev = live.on_position(t + 0.4, reading)
    assert types(ev) == ["illegal"] and live.blocked
    assert live.on_position(t + 1.0, reading) == []  # said once
    return ev[0]


def test_a_pawn_passing_a_coin_is_announced_once_then_restored():
    live, ref, state = started(seed=1)
    shift = Shift("row", 3, Direction.RIGHT)
    board, pawns = state.shifted(shift)
    stop = next(c for c in ((r, pawns[0][1]) for r in range(pawns[0][0] - 1, -1, -1)) if board[c] is not None)
    beyond = (stop[0] - 1, stop[1])
    ev = play_illegal(live, ref, observe(state, shift=shift, pawns={"S": beyond}))
    value = coin_rank(board[stop])
    assert ev.to_json() == {
        "t": 5.4, "type": "illegal", "reason": f"the pawn stops on the first coin it passes: the coin on "
                                                f"{stop[0] + 1},{stop[1] + 1}", "squares": [list(stop)],
        "say": f"Illegal move. The pawn stops on the first coin it passes: the {value.spoken} on row {stop[0] + 1}, "
               f"column {stop[1] + 1}."}
    assert said(live.on_position(7.0, ref.reading(observe(state, shift=shift, pawns={"S": stop})))) == [
        ("restored", "Thank you."), ("shift", "Red shifts tile row 4 right."), ("move", f"Red moves to row {stop[0] + 1}, column {stop[1] + 1}, onto "
                                             f"{'an' if value.code == 'a' else 'a'} {value.spoken}."),
        ("turn", "Black to play.")]


def test_a_reversed_shift_is_announced_and_put_back():
    live, ref, state = started()
    first = Shift("row", 0, Direction.LEFT)
    s1 = apply(state, Turn(first, (1, 0)))
    live.on_position(1.0, ref.reading(observe(s1)))
    ev = play_illegal(live, ref, observe(s1, shift=first.reverse))
    assert ev.data == {"reason": "shift R1> reverses Red's shift R1<; not allowed until Red has completed another turn",
                       "squares": []}
    assert ev.say == "Illegal move. Tile row 1 right undoes Red's shift; not allowed until Red has played again."
    assert said(live.on_position(7.0, ref.reading(observe(s1)))) == [("restored", "Thank you.")]
    assert not live.blocked and live.current.game == forget_suits(s1)


def test_another_player_s_pawn_moving_is_announced():
    live, ref, state = started()
    # (Black one square left would be two quick turns: Red shifts the empty first tile column up
    # and moves back through the wrap, Black shifts it up again; this is no turn of Black's)
    ev = play_illegal(live, ref, observe(state, pawns={"M": (1, 10)}))
    assert ev.data == {"reason": "it is Red's turn, but the Black pawn moved from 1,12 to 2,11",
                       "squares": [[0, 11], [1, 10]]}
    assert ev.say == "Illegal move. It is Red's turn, but the Black pawn moved to row 2, column 11."


def test_two_coins_taken_off_and_a_coin_turned_over_are_announced():
    live, ref, state = started(seed=2)
    cell, other = [c for c, v in state.coins.items() if v is not None][:2]
    ev = play_illegal(live, ref, observe(state, coins={cell: None, other: None}))
    assert ev.data["squares"] == sorted([list(cell), list(other)])
    first, second = sorted([cell, other])
    assert ev.say == ("Illegal move. No shift of one tile row or column explains the board: look at "
                      f"row {first[0] + 1}, column {first[1] + 1} and row {second[0] + 1}, column {second[1] + 1}.")
    live.on_position(6.0, ref.reading(observe(state)))  # put back
    ev = play_illegal(live, ref, observe(state, coins={cell: state.coins[cell].suit.code}), t=8.0)
    assert ev.data["squares"] == [list(cell)]
    assert ev.say == f"The coin on row {cell[0] + 1}, column {cell[1] + 1} shows its suit: turn it value side up."
    assert live.accept(9.0) == []  # a coin whose value is hidden cannot be accepted


def test_a_pawn_that_could_move_must_move_before_the_next_shift():
    live, ref, state = started()
    first = Shift("row", 0, Direction.LEFT)
    live.on_position(1.0, ref.reading(observe(state, shift=first)))
    half = replace(state, coins=state.shifted(first)[0], pawns=state.shifted(first)[1])
    ev = play_illegal(live, ref, observe(half, shift=Shift("col", 2, Direction.UP)))
    assert ev.say == "Illegal move. The Red pawn can move, for example to row 7, column 1, so it must move."


def test_a_misread_frame_is_not_announced_and_an_accepted_board_stands():
    live, ref, state = started(seed=2)
    cell = next(c for c, v in state.coins.items() if v is not None)
    other = "5" if coin_rank(state.coins[cell]).code != "5" else "4"
    assert live.on_position(1.0, ref.reading(observe(state, coins={cell: other}))) == []
    assert live.on_position(1.3, ref.reading(observe(state))) == []  # the re-read shows the real board
    assert not live.blocked and not live.suspecting
    # a board the players say is right after a warning: the mover's pawn moved, the turn passes
    moved = observe(state, pawns={"S": (3, 0)})
    play_illegal(live, ref, moved, t=2.0)
    ev = live.accept(4.0)
    assert types(ev) == ["accepted"] and ev[0].data["pawns"] == {"S": [3, 0], "M": [0, 11]}
    assert live.current.game.mover.code == "M" and not live.blocked


def test_the_start_check_names_each_problem_by_square():
    state = GAME.setup(seed=3, players=2)
    placed = [c for c, v in state.coins.items() if v is not None]
    ref = ScavengerHuntLive()
    live = LiveCaller(ref)
    bad = observe(state, coins={placed[0]: None, (0, 4): coin_rank(state.coins[placed[0]]).code},
                  pawns={"M": (3, 11)})
    ev = play_illegal(live, ref, bad, t=0.0)
    assert ev.to_json()["squares"] == [[0, 4], [3, 11]]
    assert ev.say == ("This is not a start position yet. The Black pawn on row 4, column 12 starts in a corner. "
                      "Row 1, column 5 is an edge square: move that coin inward.")
    ev = live.on_position(2.0, ref.reading(observe(state)))
    assert types(ev) == ["restored", "board", "turn"]  # the warning answered: "Thank you."


def test_values_that_do_not_lie_once_per_player_are_counted():
    state = GAME.setup(seed=3, players=2)
    ref = ScavengerHuntLive()
    live = LiveCaller(ref)
    nulls = [c for c, v in state.coins.items() if v is not None and coin_rank(v).code == "n"]
    ev = play_illegal(live, ref, observe(state, coins={nulls[0]: "5"}), t=0.0)
    assert ev.say == ("This is not a start position yet. There is one Null on the board; two players need two. "
                      "There are three 5s on the board; two players need two.")


# -- through the frame loop ------------------------------------------------------------------------


class PlayBack:
    """A reader that plays observations back: the frame's first pixel says which."""

    def __init__(self, observations):
        self.observations = observations

    def read(self, image):
        return self.observations[int(image[0, 0, 0])]


def frames(held):
    """(index of the observation, frames held) -> frames whose brightness changes with it."""
    out = []
    for i, n in held:
        img = np.full((36, 64, 3), 30 + 25 * i, np.uint8)
        img[0, 0, 0] = i
        out += [img] * n
    return out


def test_the_loop_calls_a_turn_and_never_a_single_misread_frame():
    state = GAME.setup(seed=3, players=2)
    after = apply(state, Turn(Shift("row", 0, Direction.LEFT), (1, 0)))
    cell = next(c for c, v in state.coins.items() if v is not None)
    misread = observe(state, coins={cell: "5" if coin_rank(state.coins[cell]).code != "5" else "4"}, turned=True)
    hand = observe(state, uncertain=[(3, 3), (3, 4), (4, 3)])
    obs = [observe(state, turned=True), misread, observe(state), hand, observe(after, turned=True), observe(after)]
    watcher = Watcher(PlayBack(obs), LiveCaller(ScavengerHuntLive()))
    held = [(0, 12), (1, 1), (2, 10), (3, 8), (4, 8), (5, 10)]
    events = [e for k, img in enumerate(frames(held)) for e in watcher.process(img, k / 10)]
    assert said(events) == [("board", None), ("turn", "Red starts."), ("shift", "Red shifts tile row 1 left."),
                            ("move", "Red moves to row 2, column 1."), ("turn", "Black to play.")]



@pytest.mark.parametrize("confidence, warned", [(0.97, False), (1.0, True)])
def test_a_coin_read_suit_side_up_is_an_accusation_only_when_read_all_but_certain(confidence, warned):
    # a 4 uncovered by a pawn's move read as an Arms coin at 0.96-0.97, read after read: the
    # Caller said it lay suit side up, and the move was never taken
    state = GAME.setup(seed=3, players=2)
    after = apply(state, Turn(Shift("row", 0, Direction.LEFT), (1, 0)))
    cell = next(c for c, v in after.coins.items() if v is not None and c[0] >= 4)
    seen = observe(after, coins={cell: "A"})
    conf = tuple(tuple(confidence if (r, c) == cell else 1.0 for c in range(12)) for r in range(8))
    seen = replace(seen, square_confidence=conf)
    assert (cell in ScavengerHuntLive().reading(seen).uncertain) is not warned
    watcher = Watcher(PlayBack([observe(state), seen]), LiveCaller(ScavengerHuntLive()))
    events = [e for k, img in enumerate(frames([(0, 12), (1, 30)])) for e in watcher.process(img, k / 10)]
    if warned:
        assert said(events)[2:] == [("illegal", "The coin on row %d, column %d shows its suit: turn it value side up."
                                     % (cell[0] + 1, cell[1] + 1))]
    else:
        assert said(events) == [("board", None), ("turn", "Red starts."), ("shift", "Red shifts tile row 1 left."),
                                ("move", "Red moves to row 2, column 1."), ("turn", "Black to play.")]


# -- the command line --------------------------------------------------------------------------------


@pytest.mark.parametrize("argv, message", [
    (["--game", "scavenger-hunt", "--players", "S,X"], "--players 'S,X': expected 2 to 4 suit letters"),
    (["--game", "scavenger-hunt", "--players", "S,S"], "--players 'S,S': expected 2 to 4 different suit letters"),
    (["--game", "easy-slider", "--players", "S,M"], "--players: the live Caller of Easy Slider takes no players"),
    (["--game", "scavenger-hunt", "--setup-seed", "3"], "--setup-seed: the live Caller checks an announced setup"),
])
def test_caller_watch_refuses_bad_options_in_one_line(argv, message, capsys, tmp_path):
    status = main(["watch", str(tmp_path / "none.mp4"), *argv, "--no-voice"])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("caller: error: " + message)


def test_every_sighting_is_written_and_said():
    from rules.pieces import Rank, Suit
    from rules.reasons import Reason
    from rules.scavenger_hunt import sightings
    from voice.phrasebook import scavenger_hunt as phrases

    cases = {
        sightings.NOT_CORNER: (Reason(sightings.NOT_CORNER, ((4, 2),), (Suit.SUNS,)),
                               "the Red pawn on 5,3 is not in a corner: pawns start in the corner squares",
                               "The Red pawn on row 5, column 3 starts in a corner."),
        sightings.PAWN_MISSING: (Reason(sightings.PAWN_MISSING, (), (Suit.MOONS,)),
                                 "the Black pawn is not on the board", "The Black pawn is not on the board."),
        sightings.STRAY_PAWN: (Reason(sightings.STRAY_PAWN, ((0, 0),), (Suit.ARMS,)),
                               "the Blue pawn on 1,1 is not in this game",
                               "The Blue pawn on row 1, column 1 is not in this game: take it off the board."),
        sightings.PLAYER_COUNT: (Reason(sightings.PLAYER_COUNT, number=1),
                                 "1 pawn(s) on the board: Scavenger Hunt is for 2 to 4 players",
                                 "Scavenger Hunt needs two to four pawns in the corners."),
        sightings.SUIT_UP: (Reason(sightings.SUIT_UP, ((2, 7),), (Suit.CROWNS,)),
                            "the coin on 3,8 lies suit side up: coins lie value side up",
                            "The coin on row 3, column 8 shows its suit: turn it value side up."),
        sightings.VALUE_COUNT: (Reason(sightings.VALUE_COUNT, (), (Rank.ACE, 3), number=2),
                                "2 coin(s) of value a on the board: expected 3, one per player",
                                "There are two Aces on the board; three players need three."),
        sightings.FOREIGN_COIN: (Reason(sightings.FOREIGN_COIN, ((6, 9),), (Suit.MOONS, Suit.SUNS)),
                                 "a Red coin lies among Black's collected coins (from under its pawn on 7,10): "
                                 "Black collects only Black coins",
                                 "Black has laid a Red coin with their collected coins: Black collects only Black "
                                 "coins. Put it back under the Black pawn on row 7, column 10, value side up."),
    }
    assert set(cases) == set(sightings.CODES)
    live = {  # mid-game: a pawn long off the board is asked for; a coin kept against the rules is a move
        sightings.PAWN_MISSING: "The Black pawn is not on the board: please put it on its square.",
        sightings.FOREIGN_COIN: "Illegal move. " + cases[sightings.FOREIGN_COIN][2],
    }
    for code, (why, text, words) in cases.items():
        assert (sightings.text(why), phrases.problem(why)) == (text, words)
        assert phrases.live_illegal(why) == live.get(code, words)  # no "Illegal move." for what is no move
    assert sightings.text(Reason(sightings.FOREIGN_COIN, (), (Suit.MOONS, Suit.SUNS))) == (
        "a Red coin lies among Black's collected coins: Black collects only Black coins")
    assert phrases.problem(Reason(sightings.FOREIGN_COIN, (), (Suit.MOONS, Suit.SUNS))).endswith(
        "Put it back on the board, value side up.")
    with pytest.raises(ValueError, match="not-a-code"):
        sightings.text(Reason("not-a-code"))


def test_the_mover_may_correct_the_pawn_move_until_the_next_shift():
    live, ref, state = started()
    shift = Shift("row", 0, Direction.LEFT)
    live.on_position(1.0, ref.reading(observe(apply(state, Turn(shift, (1, 0))))))
    corrected = apply(state, Turn(shift, (2, 0)))
    assert said(live.on_position(2.0, ref.reading(observe(corrected)))) == [
        ("move", "Red moves to row 3, column 1."), ("turn", "Black to play.")]
    assert live.current.game == forget_suits(corrected) and not live.blocked
    black = Shift("col", 5, Direction.DOWN)
    live.on_position(3.0, ref.reading(observe(corrected, shift=black)))  # Black has begun
    ev = play_illegal(live, ref, observe(corrected, shift=black, pawns={"S": (3, 0)}))
    assert ev.say == "Illegal move. It is Black's turn, but the Red pawn moved to row 4, column 1."


def test_two_turns_between_two_still_boards_are_both_followed():
    live, ref, state = started()
    s1 = apply(state, Turn(Shift("row", 0, Direction.LEFT), (1, 0)))
    s2 = apply(s1, Turn(Shift("col", 4, Direction.DOWN), (2, 8)))  # Black: from 1,10 to 3,10, then left
    ev = live.on_position(1.0, ref.reading(observe(s2)))
    assert said(ev) == [("shift", "Red shifts tile row 1 left."), ("move", "Red moves to row 2, column 1."),
                        ("turn", "Black to play."), ("shift", "Black shifts tile column 5 down."),
                        ("move", "Black moves to row 3, column 9."), ("turn", "Red to play.")]
    assert live.current.game == forget_suits(s2)


def test_the_mover_s_shift_is_expected_and_taken_sooner_but_not_the_pawn_s_move():
    live, ref, state = started()
    shift = Shift("row", 0, Direction.LEFT)
    after = apply(state, Turn(shift, (1, 0)))
    assert live.expects(ref.reading(observe(state, shift=shift)))  # the shift alone
    assert not live.expects(ref.reading(observe(after, turned=True)))  # the pawn's move: seen standing first
    assert not live.expects(ref.reading(observe(state, pawns={"M": (1, 10)})))  # no turn of Red's
    cell = next(c for c, v in state.coins.items() if v is not None)
    assert not live.expects(ref.reading(observe(state, coins={cell: "S"})))  # a coin turned over
    # through the loop (frames 0.1 s apart, the shift made at 1.0 s, the pawn moved at 2.0 s): the
    # start is taken after the still wait and the full acceptance (0.5 s), the shift 0.2 s sooner
    # than that, the move after the full acceptance
    watcher = Watcher(PlayBack([observe(state), observe(state, shift=shift), observe(after)]),
                      LiveCaller(ScavengerHuntLive()))
    events = [(round(k / 10, 2), e.type) for k, img in enumerate(frames([(0, 10), (1, 10), (2, 10)]))
              for e in watcher.process(img, k / 10)]
    assert events == [(0.5, "board"), (0.5, "turn"), (1.3, "shift"), (2.5, "move"), (2.5, "turn")]


def test_a_pawn_read_on_a_square_it_passes_is_no_move():
    # Black's pawn carried low from 3,10 to 5,10 is read on 4,10 for two reads a tenth of a second
    # apart and more (no hand seen), then lifted out of sight, then set down: one move, the one made
    state = GAME.setup(seed=3, players=2)
    shift = Shift("row", 0, Direction.LEFT)
    s1 = apply(state, Turn(shift, (1, 0)))
    black = Shift("col", 4, Direction.DOWN)
    s2 = apply(s1, Turn(black, (4, 9)))
    passing = observe(s1, shift=black, pawns={"M": (3, 9)})
    events = _watch([observe(state), observe(s1), observe(s1, shift=black), passing, _lifted(passing, "M"),
                     observe(s2)], [(0, 10), (1, 10), (2, 10), (3, 4), (4, 1), (5, 10)])
    assert [(e.t, e.type, e.data.get("to")) for e in events if e.type == "move"] == [
        (1.5, "move", [1, 0]), (4.0, "move", [4, 9])]
    assert not [e for e in events if e.type == "illegal"]


# -- doubtful squares ----------------------------------------------------------------------------------


def test_doubtful_squares_are_deduced_from_the_one_step_the_sure_squares_allow():
    state = GAME.setup(seed=3, players=2)
    shift = Shift("row", 0, Direction.LEFT)
    after = apply(state, Turn(shift, (1, 0)))
    coin = next(c for c, v in after.coins.items() if v is not None and c not in after.pawns)
    wrong = "5" if coin_rank(after.coins[coin]).code != "5" else "4"
    # the turn read with one coin misread and doubtful, and the square under the moved pawn doubtful
    blurred = observe(after, coins={coin: wrong}, uncertain=[coin, (1, 0)])
    watcher = Watcher(PlayBack([observe(state), blurred]), LiveCaller(ScavengerHuntLive()))
    events = [e for k, img in enumerate(frames([(0, 10), (1, 12)])) for e in watcher.process(img, k / 10)]
    assert said(events)[2:] == [("shift", "Red shifts tile row 1 left."), ("move", "Red moves to row 2, column 1."),
                                ("turn", "Black to play.")]
    # the deduction itself: the whole turn's board, sure
    live, ref, _ = started()
    deduced = ref.deduced(live.current, ref.reading(blurred))
    assert deduced.uncertain == frozenset() and deduced.key == ref.reading(observe(after)).key


def test_nothing_is_deduced_while_a_hand_is_over_the_board():
    # Red's pawn carried past a coin, the hand over the squares it is carried over: the coin it
    # passes is read in doubt, and the move that stops there agrees with every square read sure
    state = GAME.setup(seed=3, players=2)
    turn = turn_of(state, onto_coin=True)
    board, pawns = state.shifted(turn.shift)
    beyond = next(c for c in ((turn.to[0], 11 - turn.to[1]), (7 - turn.to[0], turn.to[1]))
                  if c not in (turn.to, pawns[0]) and board[c] is None)
    tile = tuple((2 * (beyond[0] // 2) + a, 2 * (beyond[1] // 2) + b) for a in (0, 1) for b in (0, 1))
    seen = observe(state, shift=turn.shift, pawns={"S": beyond}, uncertain=[turn.to, *tile])
    heard = {}
    for hand in ((), tile):
        watcher = Watcher(PlayBack([observe(state), replace(seen, covered=hand)]), LiveCaller(ScavengerHuntLive()))
        heard[hand] = types([e for k, img in enumerate(frames([(0, 10), (1, 12)])) for e in watcher.process(img, k / 10)])
    # no hand seen: the pawn read in doubt is the reader's guess, and the move is deduced; a
    # hand over the board: the table is read again until it has gone
    assert heard[()] == ["board", "turn", "shift", "move", "turn"] and heard[tile] == ["board", "turn"]


def test_doubt_that_two_boards_share_is_not_deduced():
    live, ref, state = started()
    # every square of the first tile row doubtful: a shift of it either way, or none, fits the
    # sure squares; the table is read again rather than one of them guessed
    doubtful = [(r, c) for r in (0, 1) for c in range(12)]
    reading = ref.reading(observe(state, uncertain=doubtful))
    assert len(ref.fits(live.current, reading)) > 1 and ref.deduced(live.current, reading) is None


def test_an_arms_pawn_on_an_ace_is_told_from_the_ace_alone():
    # Blue (Arms) moves onto an Ace while a square the pawn could have gone to instead is read
    # in doubt: the board with Blue on that square and the Ace left in view must not agree
    # with what is read sure (a pawn's mark and a coin's value once shared the letter "a")
    live, ref, state = started(seed=1, players=4)
    for k in range(3):
        state = apply(state, turn_of(state, onto_coin=False))
        live.on_position(1.0 + k, ref.reading(observe(state)))
    assert live.current.game.to_move == 3 and state.players[3].code == "A"
    turn = Turn(Shift("col", 1, Direction.UP), (7, 3))
    other = (6, 11)  # where the same shift lets Blue's pawn go instead, an empty square
    board, _ = state.shifted(turn.shift)
    assert coin_rank(board[turn.to]).code == "a" and board[other] is None
    assert any(t.shift == turn.shift and t.to == other for t in legal_moves(state))
    after = apply(state, turn)
    reading = ref.reading(observe(after, uncertain=[other]))
    assert len(ref.fits(live.current, reading)) == 1
    assert ref.deduced(live.current, reading).key == ref.reading(observe(after)).key


def test_a_steady_doubtful_change_is_judged_but_never_under_a_hand():
    state = GAME.setup(seed=3, players=2)
    cells = [c for c, v in state.coins.items() if v is not None][:2]
    gone = observe(state, coins={c: None for c in cells}, uncertain=[(6, 6)])  # two coins taken off, a square doubtful
    watcher = Watcher(PlayBack([observe(state), gone]), LiveCaller(ScavengerHuntLive()))
    events = [e for k, img in enumerate(frames([(0, 10), (1, 20)])) for e in watcher.process(img, k / 10)]
    assert types(events)[2:] == ["illegal"]
    hand = replace(gone, covered=((6, 6),))  # the same, with the doubt a hand's
    watcher = Watcher(PlayBack([observe(state), hand]), LiveCaller(ScavengerHuntLive()))
    events = [e for k, img in enumerate(frames([(0, 10), (1, 20)])) for e in watcher.process(img, k / 10)]
    assert types(events)[2:] == []


def test_a_pawn_read_as_a_coin_of_its_suit_is_the_pawn_and_a_coin_turned_beside_it_is_said():
    # a pawn seen from above under a lamp's spot is a disc of its suit's colour, which the
    # reader can take for that suit's coin turned over: with the pawn read nowhere else, it
    # is the pawn, and the turn is followed
    live, ref, state = started()
    turn = turn_of(state, onto_coin=False)
    after = apply(state, turn)
    me = state.players[0].code
    square = after.pawns[0]
    seen = observe(after)
    seen = replace(seen, pawns=tuple(p for p in seen.pawns if p[0] != me),
                   coins=tuple(tuple(me if (r, c) == square else v for c, v in enumerate(row))
                               for r, row in enumerate(seen.coins)))
    reading = ref.reading(seen)
    assert reading == ref.reading(observe(after))
    exact, ref2, _ = started()
    expected = types(exact.on_position(1.0, ref2.reading(observe(after))))
    assert "move" in expected and "illegal" not in expected
    assert types(live.on_position(1.0, reading)) == expected
    # a coin turned suit side up while its suit's pawn stands on the board is a coin
    coin = next((r, c) for r, row in enumerate(after.coins.rows) for c, v in enumerate(row) if v is not None)
    turned = ref.reading(observe(after, coins={coin: me}))
    assert turned.board[coin[0]][coin[1]] == me and (me, square) in turned.pawns


def test_a_doubtful_change_is_steady_only_from_the_read_the_hand_left():
    # a hand held over the board leaves the same guesses read after read (a line being
    # shifted, the tile carried round in it); the steady half second starts once it has gone
    state = GAME.setup(seed=3, players=2)
    cells = [c for c, v in state.coins.items() if v is not None][:2]
    gone = observe(state, coins={c: None for c in cells}, uncertain=[(6, 6)])
    hand = replace(gone, covered=((6, 6),))
    watcher = Watcher(PlayBack([observe(state), hand, gone]), LiveCaller(ScavengerHuntLive()))
    events = [e for k, img in enumerate(frames([(0, 10), (1, 10), (2, 20)])) for e in watcher.process(img, k / 10)]
    said = [e for e in events if e.type == "illegal"]
    assert len(said) == 1 and said[0].t >= 2.0 + VisionConfig().tracker.tile_steady_s - 1e-9


def test_a_still_frame_with_only_settling_tiles_covered_is_read_again_sooner():
    # a tile covered while its pieces read the same (a pawn just set on its cross) is told from
    # a hand after a few reads: those come every ``reread_s``, a hand's every ``retry_s``
    state = GAME.setup(seed=3, players=2)
    tile = ((6, 6), (6, 7), (7, 6), (7, 7))
    covered = replace(observe(state, uncertain=tile), covered=tile)
    cfg = VisionConfig().tracker
    for obs, every in ((replace(covered, settling=tile), cfg.reread_s), (covered, cfg.retry_s)):
        watcher = Watcher(PlayBack([obs]), LiveCaller(ScavengerHuntLive()))
        read_at = []
        for k, img in enumerate(frames([(0, 60)])):
            reads = watcher.stats.reads
            watcher.process(img, k / 30)
            if watcher.stats.reads > reads:
                read_at.append(k)
        assert np.diff(read_at).tolist() == [round(every * 30)] * (len(read_at) - 1) and len(read_at) > 4


def test_a_square_a_pawn_left_read_in_doubt_is_taken_as_its_steady_guess_shows():
    # Red's pawn ends on a coin, its peek unseen; at Red's next turn the pawn steps off it and
    # the square is read in doubt on every read: the two boards the turn allows (the coin left,
    # the coin collected) differ there alone, and the one the guess shows, read the same for
    # half a second, is taken: a coin guessed with another value or suit side up there still
    # shows that a coin lies there (the coin left, not collected)
    state = GAME.setup(seed=1, players=2)
    s1 = apply(state, turn_of(state, collect=False, onto_coin=True))
    s2 = apply(s1, turn_of(s1))
    turn = turn_of(s2)
    s3 = apply(s2, turn)
    left = s2.shifted(turn.shift)[1][0]  # where Red's pawn stood once the line was shifted
    assert s3.coins[left] is not None
    value = coin_rank(s3.coins[left]).code
    kept = ["shift", "move", "turn"]
    for guess, heard in ((value, kept), ("5" if value != "5" else "4", kept), ("S", kept), ("C", kept),
                         (None, ["collect", "shift", "move", "turn"])):
        seen = observe(s3, coins={left: guess}, uncertain=[left])
        watcher = Watcher(PlayBack([observe(state), observe(s1), observe(s2), seen]), LiveCaller(ScavengerHuntLive()))
        events = [e for k, img in enumerate(frames([(0, 10), (1, 10), (2, 10), (3, 10)]))
                  for e in watcher.process(img, k / 10)]
        assert types(events)[-len(heard):] == heard and types(events).count("turn") == 4
        assert types(events)[-len(heard) - 1] != "collect"
        assert [e.t for e in events if e.type == "move"][-1] == 3.8


def test_a_guess_flickering_on_a_square_doubtful_throughout_does_not_put_an_illegal_change_off():
    # two coins taken off (read sure) while a square far from them is doubtful, its guess
    # changing read by read: no legal step explains the sure squares, so the warning comes
    # as soon as they have held still, whatever the doubtful square is guessed to hold
    state = GAME.setup(seed=3, players=2)
    cells = [c for c, v in state.coins.items() if v is not None][:2]
    gone = {c: None for c in cells}
    reads = [observe(state), observe(state, coins={**gone, (6, 6): "3"}, uncertain=[(6, 6)]),
             observe(state, coins={**gone, (6, 6): "4"}, uncertain=[(6, 6)])]
    still, flicker = frames([(0, 10)]), frames([(1, 20)])
    for k, img in enumerate(flicker):
        img = flicker[k] = img.copy()
        img[0, 0, 0] = 1 + k % 2  # the same picture, read one way or the other
    watcher = Watcher(PlayBack(reads), LiveCaller(ScavengerHuntLive()))
    events = [e for k, img in enumerate(still + flicker) for e in watcher.process(img, k / 10)]
    said = [e for e in events if e.type == "illegal"]
    # as soon as with the guess held, and the doubtful square, taken as it was, is not named
    steady = Watcher(PlayBack(reads), LiveCaller(ScavengerHuntLive()))
    held = [e for k, img in enumerate(still + frames([(1, 20)])) for e in steady.process(img, k / 10) if e.type == "illegal"]
    assert [(e.t, e.data) for e in said] == [(e.t, e.data) for e in held] == [(2.0, {
        "reason": "no shift of one row or column of tiles by one tile explains where the coins and pawns went",
        "squares": [[1, 5], [1, 10]]})]


def test_a_doubt_that_comes_and_goes_does_not_put_an_illegal_change_off():
    # two coins taken off (read sure) while a coin far from them is read now sure, now in doubt
    # (guessed right, then wrong): the warning comes as soon as the sure squares have held
    # still, and the square once doubtful, taken as it was, is not named
    state = GAME.setup(seed=3, players=2)
    cells = [c for c, v in state.coins.items() if v is not None][:2]
    far = next(c for c, v in state.coins.items() if v is not None and c not in cells and c[0] > 4)
    gone = {c: None for c in cells}
    reads = [observe(state), observe(state, coins=gone), observe(state, coins={**gone, far: "a"}, uncertain=[far])]
    still, flicker = frames([(0, 10)]), frames([(1, 20)])
    for k, img in enumerate(flicker):
        img = flicker[k] = img.copy()
        img[0, 0, 0] = 1 + (k // 2) % 2  # the same picture, read sure twice, then in doubt twice
    watcher = Watcher(PlayBack(reads), LiveCaller(ScavengerHuntLive()))
    said = [e for k, img in enumerate(still + flicker) for e in watcher.process(img, k / 10) if e.type == "illegal"]
    assert [(e.t, e.data) for e in said] == [(2.0, {
        "reason": "no shift of one row or column of tiles by one tile explains where the coins and pawns went",
        "squares": [[1, 5], [1, 10]]})]



def test_a_doubtful_square_guessed_suit_side_up_does_not_hold_a_steady_change_back():
    # after a legal turn a coin far from it is read with another value (sure: no single step
    # fits, the slip is judged on steadiness) while another is guessed, in doubt, as a coin
    # turned suit side up: the turn is followed once the board has held still, the guess never
    # named (its coin taken as it was)
    state = GAME.setup(seed=3, players=2)
    after = apply(state, Turn(Shift("row", 0, Direction.LEFT), (1, 0)))
    far = [c for c, v in after.coins.items() if v is not None and c not in after.pawns and c[0] >= 4][:2]
    value = {far[0]: "5" if coin_rank(after.coins[far[0]]).code != "5" else "4"}
    reads = [observe(state), observe(after, coins={**value, far[1]: "S"}, uncertain=[far[1]])]
    watcher = Watcher(PlayBack(reads), LiveCaller(ScavengerHuntLive()))
    events = [e for k, img in enumerate(frames([(0, 10), (1, 20)])) for e in watcher.process(img, k / 10)]
    assert said(events)[2:] == [("shift", "Red shifts tile row 1 left."), ("move", "Red moves to row 2, column 1."),
                                ("turn", "Black to play.")]
    assert watcher.caller.current.game == forget_suits(after)

# -- coins laid by the corners ---------------------------------------------------------------------


def _laid(obs, corner, coins, others=()):
    """``obs`` with ``coins`` (suit letters) read by ``corner`` and nothing by the others."""
    laid = [()] * 4
    laid[corner] = tuple(coins)
    return replace(obs, collected=tuple(laid))


def _loop(live):
    """A stand-in for ``caller.watch``'s loop as ``settle`` sees it: the live Caller, a tracker's
    settings and the events to say with the next read."""
    from types import SimpleNamespace

    from caller.tracker import PositionTracker

    return SimpleNamespace(caller=live, tracker=PositionTracker(), pending_events=[])


def _collected_once():
    """(state, live Caller, referee, the state after Red's turn that collects, a live loop
    stand-in): Red's collecting turn seen on the board, the coin not yet laid down."""


    state = GAME.from_json(ENDGAME)
    live, ref = midgame(state)
    s1 = apply(state, turn_of(state, collect=True))
    live.on_position(1.0, ref.reading(observe(s1)))
    return state, live, ref, s1, _loop(live)


def test_the_sixth_coin_laid_by_the_corner_wins_at_once():
    state, live, ref, s1, loop = _collected_once()
    red = ref.corners_of[state.players[0]]
    five = _laid(observe(s1), red, "SSSSS")
    six = _laid(observe(s1), red, "SSSSSS")
    for k, obs in enumerate([five, six, six]):  # two reads of six coins are not yet enough
        ref.settle(2.0 + k / 10, obs, loop)
    assert loop.pending_events == []
    ref.settle(2.3, six, loop)
    assert said(loop.pending_events) == [("collect", "Red collected a Null: 6 of 6."),
                                         ("won", "Red has collected all six coins: Red wins.")]
    assert live.over


def test_a_coin_laid_by_the_corner_and_then_put_back_under_the_pawn_is_no_collection():
    # Red peeks at the coin under the pawn holding it suit side up by Red's corner, long enough
    # to be read as laid there, then puts it back under the pawn: the collection said is
    # withdrawn, and the coin under the pawn is again one whose peek is unseen


    live, ref, state = started()
    s1 = apply(state, turn_of(state, onto_coin=True, collect=False))
    live.on_position(1.0, ref.reading(observe(s1)))
    moved = live.current
    assert moved.open == (True, False)
    loop = _loop(live)
    red = ref.corners_of[state.players[0]]
    value = coin_rank(s1.coins[s1.pawns[0]])
    for k in range(3):
        ref.settle(2.0 + k / 10, _laid(observe(s1), red, "S"), loop)
    assert said(loop.pending_events) == [("collect", f"Red collected {phrases.value_words(value)}: 1 of 6.")]
    loop.pending_events.clear()
    back = _laid(observe(s1), red, "")
    held = [ref.settle(2.3 + k / 10, back, loop)[0].coins for k in range(5)]
    # read again soon until the pile has been seen without the coin on enough reads
    assert [c == (None,) for c in held] == [True, True, True, True, False]
    assert [e.to_json() for e in loop.pending_events] == [
        {"t": 2.7, "type": "put_back", "player": "S", "value": value.code, "square": list(s1.pawns[0]),
         "count": 0, "say": f"Red put the {value.spoken} back: 0 of 6."}]
    assert live.current == moved
    # Black's turn, then Red's pawn leaving the coin where it lay: nothing collected, nothing wrong
    s2 = apply(s1, turn_of(s1))
    s3 = apply(s2, turn_of(s2, collect=False))
    heard = live.on_position(3.0, ref.reading(observe(s2))) + live.on_position(4.0, ref.reading(observe(s3)))
    assert "collect" not in types(heard) and "illegal" not in types(heard)
    assert live.current.game.collected == ((), ())


def test_a_collection_stands_once_play_has_gone_on():
    # the collector's pile read one coin short for a moment, or once the next player has moved:
    # the collection is not withdrawn


    live, ref, state = started()
    s1 = apply(state, turn_of(state, onto_coin=True, collect=False))
    live.on_position(1.0, ref.reading(observe(s1)))
    loop = _loop(live)
    red = ref.corners_of[state.players[0]]
    for k in range(3):
        ref.settle(2.0 + k / 10, _laid(observe(s1), red, "S"), loop)
    for k in range(4):
        ref.settle(2.3 + k / 10, _laid(observe(s1), red, ""), loop)
    ref.settle(2.7, _laid(observe(s1), red, "S"), loop)
    assert types(loop.pending_events) == ["collect"]
    s2 = apply(s1, turn_of(s1))
    assert types(live.on_position(3.0, ref.reading(_laid(observe(s2), red, "S"))))[-1] == "turn"
    for k in range(6):
        ref.settle(4.0 + k / 10, _laid(observe(s2), red, ""), loop)
    assert types(loop.pending_events) == ["collect"] and live.current.game.collected[0] != ()


def test_a_pile_seen_while_a_hand_is_over_the_board_is_no_collection_until_it_has_gone():
    # a tile carried round the board's end in a shift passes the corner, its coins read for a
    # moment as the pile grown: reads with a hand over the board do not count
    state, live, ref, s1, loop = _collected_once()
    red = ref.corners_of[state.players[0]]
    six = _laid(observe(s1), red, "SSSSSS")
    hand = replace(six, covered=((7, 5), (7, 6)))
    for k in range(4):
        ref.settle(2.0 + k / 10, hand, loop)
    assert loop.pending_events == [] and not live.over
    for k in range(3):
        ref.settle(2.4 + k / 10, six, loop)
    assert [e.type for e in loop.pending_events] == ["collect", "won"]


def test_a_coin_of_another_suit_by_the_corner_is_no_collection_and_is_warned_about():
    state, live, ref, s1, loop = _collected_once()
    red = ref.corners_of[state.players[0]]
    wrong = _laid(observe(s1), red, "SSSSSM")
    held = [ref.settle(2.0 + k / 10, wrong, loop)[0].confident for k in range(5)]
    assert held == [False, False, True, True, True]  # read again until three reads agree
    square = s1.pawns[0]  # the Red pawn stands on the coin it peeked at: the Black coin came from there
    r, c = square[0] + 1, square[1] + 1
    assert [e.to_json() for e in loop.pending_events] == [{
        "t": 2.2, "type": "illegal", "squares": [list(square)],
        "reason": f"a Black coin lies among Red's collected coins (from under its pawn on {r},{c}): "
                  "Red collects only Red coins",
        "say": "Illegal move. Red has laid a Black coin with their collected coins: Red collects only Red coins. "
               f"Put it back under the Red pawn on row {r}, column {c}, value side up."}]
    assert loop.pending_events[0].warning and not live.over and not live.blocked  # said once; no collection
    loop.pending_events.clear()
    back = _laid(observe(s1), red, "SSSSS")
    for k in range(4):
        ref.settle(3.0 + k / 10, back, loop)
    assert said(loop.pending_events) == [("restored", "Thank you.")]
    assert live.current.game.collected[0] == state.collected[0] and not live.over


def test_a_wrong_first_coin_is_warned_about_once_the_hand_has_left_the_board():
    # a player who holds no coin yet lays, from under their pawn, a coin of another suit: the
    # first coin laid is warned about too, but not while a hand is over the board (a tile
    # carried round the board's end passes the corner with its coins)


    live, ref, state = started()
    after = apply(state, turn_of(state, onto_coin=True, collect=False))
    live.on_position(1.0, ref.reading(observe(after)))
    assert live.current.open[0] and not live.current.game.collected[0]
    loop = _loop(live)
    red = ref.corners_of[state.players[0]]
    laid = _laid(observe(after), red, "M")
    for k in range(4):
        ref.settle(2.0 + k / 10, replace(laid, covered=((3, 3),)), loop)
    assert loop.pending_events == []
    for k in range(3):
        ref.settle(2.4 + k / 10, laid, loop)
    square = after.pawns[0]
    assert [(e.type, e.data["reason"]) for e in loop.pending_events] == [
        ("illegal", f"a Black coin lies among Red's collected coins (from under its pawn on "
                    f"{square[0] + 1},{square[1] + 1}): Red collects only Red coins")]


def test_a_black_coin_laid_and_read_as_red_by_black_s_corner_is_black_s_collection():
    # the squares reader reads every Moons coin laid by a corner as Suns: a pile by Black's
    # corner grown by a coin read as Suns, while Black's pawn stands on a coin whose peek is
    # unseen, is Black's collection (never seen before: Black's win went uncalled)


    live, ref, state = started()
    s1 = apply(state, turn_of(state, onto_coin=False))
    s2 = apply(s1, turn_of(s1, onto_coin=True, collect=False))
    live.on_position(1.0, ref.reading(observe(s1)))
    live.on_position(2.0, ref.reading(observe(s2)))
    assert live.current.open == (False, True)
    loop = _loop(live)
    black = ref.corners_of[state.players[1]]
    value = coin_rank(s2.coins[s2.pawns[1]])
    for k in range(3):
        ref.settle(3.0 + k / 10, _laid(observe(s2), black, "S"), loop)
    assert said(loop.pending_events) == [("collect", f"Black collected {phrases.value_words(value)}: 1 of 6.")]
    assert live.current.game.collected == ((), (value,))


def test_a_pile_with_no_coin_read_as_the_player_s_suit_is_no_accusation():
    # the squares reader can read a coin laid turned round as another suit (fresh game 0: every
    # Moons coin by Black's corner, laid half turned, read "S"): a pile that shows none of the
    # player's own suit says nothing of what it holds, and is neither a collection nor a warning
    state, live, ref, s1, loop = _collected_once()
    black = ref.corners_of[state.players[1]]
    for k in range(5):
        ref.settle(2.0 + k / 10, _laid(observe(s1), black, "SSSSSS"), loop)
    assert loop.pending_events == [] and not live.over


def test_a_doubtful_corner_is_never_an_accusation():
    state, live, ref, s1, loop = _collected_once()
    red = ref.corners_of[state.players[0]]
    doubtful = replace(_laid(observe(s1), red, "SSSSSM"), uncertain_collected=(red,))
    flicker = [_laid(observe(s1), red, "SSSSSM"), _laid(observe(s1), red, "SSSSS")] * 3
    for k, obs in enumerate([doubtful] * 5 + flicker):
        ref.settle(2.0 + k / 10, obs, loop)
    assert loop.pending_events == []


def test_a_coin_value_read_otherwise_with_confidence_is_no_accusation():
    live, ref, state = started()
    shift = Shift("row", 0, Direction.LEFT)
    after = apply(state, Turn(shift, (1, 0)))
    # coins the shift of the first tile row did not move (rows 2-7)
    coins = [c for c, v in after.coins.items() if v is not None and c not in after.pawns and c[0] >= 2]
    slip = {c: "5" if coin_rank(after.coins[c]).code != "5" else "4" for c in coins[:2]}
    ev = live.on_position(1.0, ref.reading(observe(after, coins=slip)))  # two values misread, sure
    assert types(ev) == ["shift", "move", "turn"] and not live.needs_confirmation
    # a value misread in the shifted line is not taken as a slip: it tells the shift apart
    live, ref, state = started()
    moved = next(c for c, v in after.coins.items() if v is not None and c not in after.pawns and c[0] < 2)
    wrong = {moved: "5" if coin_rank(after.coins[moved]).code != "5" else "4"}
    assert live.on_position(1.0, ref.reading(observe(after, coins=wrong))) == [] and live.needs_confirmation
    # three values read otherwise are no longer the reader's slip
    live, ref, state = started()
    worse = {c: "5" if coin_rank(after.coins[c]).code != "5" else "4" for c in coins[:3]}
    ev = live.on_position(1.0, ref.reading(observe(after, coins=worse)))
    assert ev == [] and live.needs_confirmation


def test_a_value_read_otherwise_in_the_line_of_a_shift_seen_already_is_a_slip():
    # the shift is seen and said; the pawn's move comes with a coin of the shifted line read
    # with another value, sure (a 3 read as a 5 on small squares): the move is followed and the
    # state keeps the value it knows
    live, ref, state = started()

    def carried(shift):
        board, pawns = state.shifted(shift)
        return [c for c, v in board.items() if v is not None and c not in pawns and shift.carries(c)]

    shift = next(s for s in SHIFTS if len(carried(s)) >= 3 and state.shifted(s)[1] == state.pawns)
    after = apply(state, turn_of(state, shift=shift, onto_coin=False))
    line = [c for c in carried(shift) if c not in after.pawns]
    assert len(line) >= 3
    wrong = {line[0]: "5" if coin_rank(after.coins[line[0]]).code != "5" else "4"}
    assert types(live.on_position(1.0, ref.reading(observe(state, shift=shift)))) == ["shift"]
    ev = live.on_position(2.0, ref.reading(observe(after, coins=wrong)))
    assert types(ev) == ["move", "turn"] and not live.needs_confirmation
    assert live.current.board()[0][line[0]] == coin_rank(after.coins[line[0]])
    # ... but not when fewer than two of the line's other coins are read where the shift took them
    live, ref, state = started()
    live.on_position(1.0, ref.reading(observe(state, shift=shift)))
    worse = {**wrong, line[1]: None, line[2]: None}
    assert live.on_position(2.0, ref.reading(observe(after, coins=worse))) == [] and live.needs_confirmation


# -- a pawn off the board ------------------------------------------------------------------------


def _lifted(obs, suit):
    """``obs`` with the pawn of ``suit`` off the board (in a hand, say)."""
    return replace(obs, pawns=tuple(p for p in obs.pawns if p[0] != suit))


def _watch(observations, held):
    watcher = Watcher(PlayBack(observations), LiveCaller(ScavengerHuntLive()))
    return [e for k, img in enumerate(frames(held)) for e in watcher.process(img, k / 10)]


def test_a_pawn_held_in_the_air_is_a_move_not_finished():
    # Red shifts, lifts the pawn and holds it still over the board for 2.5 s (the hand not seen
    # as covering anything), then sets it down: the Caller waits, then calls the move
    state = GAME.setup(seed=3, players=2)
    shift = Shift("row", 0, Direction.LEFT)
    after = apply(state, Turn(shift, (1, 0)))
    obs = [observe(state), observe(state, shift=shift), _lifted(observe(state, shift=shift), "S"), observe(after)]
    events = _watch(obs, [(0, 10), (1, 10), (2, 25), (3, 10)])
    assert said(events) == [("board", None), ("turn", "Red starts."), ("shift", "Red shifts tile row 1 left."),
                            ("move", "Red moves to row 2, column 1."), ("turn", "Black to play.")]
    # lifted before the shift too: the board of the shift with the pawn in the air waits as well
    events = _watch(obs[:1] + [_lifted(observe(state, shift=shift), "S"), observe(after)], [(0, 10), (1, 30), (2, 10)])
    assert types(events) == ["board", "turn", "shift", "move", "turn"]


def test_a_pawn_long_off_the_board_with_no_hand_is_asked_for():
    state = GAME.setup(seed=3, players=2)
    shift = Shift("row", 0, Direction.LEFT)
    after = apply(state, Turn(shift, (1, 0)))
    away = _lifted(observe(state, shift=shift), "S")
    hand = replace(away, uncertain=((4, 4),), covered=((4, 4),))  # a hand over the board for a moment
    obs = [observe(state), observe(state, shift=shift), away, hand, away, observe(after)]
    events = _watch(obs, [(0, 10), (1, 10), (2, 30), (3, 5), (4, 60), (5, 10)])
    # read still from 2.2 s, a hand seen at 5.2 s, read still again from 5.7 s: held back until
    # 4 s after that (9.9 s), then accepted (0.3 s) and confirmed by the re-read every warning waits for
    assert [(e.t, e.type, e.say) for e in events[3:]] == [
        (10.4, "illegal", "The Red pawn is not on the board: please put it on its square."),
        (12.0, "restored", "Thank you."), (12.0, "move", "Red moves to row 2, column 1."),
        (12.0, "turn", "Black to play.")]
    assert events[3].data == {"reason": "the Red pawn is not on the board", "squares": []}


def test_an_illegal_shift_made_with_the_pawn_in_the_hand_is_said_at_once():
    # Black reverses Red's shift while holding the Black pawn: the shift is what is wrong, and
    # it is said within 1 s of the board coming to rest, pawn or no pawn
    state = GAME.setup(seed=3, players=2)
    first = Shift("row", 0, Direction.LEFT)
    s1 = apply(state, Turn(first, (1, 0)))
    reversed_ = _lifted(observe(s1, shift=first.reverse), "M")
    events = _watch([observe(state), observe(s1), reversed_], [(0, 10), (1, 10), (2, 20)])
    ill = [e for e in events if e.type == "illegal"]
    assert [(e.t, e.say) for e in ill] == [
        (2.7, "Illegal move. Tile row 1 right undoes Red's shift; not allowed until Red has played again.")]
    assert ill[0].t - 2.0 <= 1.0


def test_a_wrong_still_being_made_is_said_once():
    # a tile row pushed two tiles: the board is judged (and said) while the player carries the
    # second tile round, its squares empty; the finished push has the same reason and is not
    # said again; a wrong of another kind is, and the board put back is thanked for
    live, ref, state = started()
    shift = Shift("row", 1, Direction.RIGHT)
    once = replace(state, coins=state.shifted(shift)[0])
    twice = replace(once, coins=once.shifted(shift)[0])
    carried = [(r, c) for r in (2, 3) for c in (2, 3)]  # the second tile carried round
    assert any(twice.coins[cell] is not None for cell in carried)
    ev = play_illegal(live, ref, observe(twice, coins={cell: None for cell in carried}))
    assert ev.data["reason"] == "no shift of one row or column of tiles by one tile explains where the coins and pawns went"
    assert live.on_position(7.0, ref.reading(observe(once, shift=shift))) == []  # the second tile pushed
    assert live.on_position(7.5, ref.reading(observe(once, shift=shift))) == []  # its re-read
    ev = play_illegal(live, ref, observe(state, pawns={"M": (1, 10)}), t=8.0)
    assert ev.say == "Illegal move. It is Red's turn, but the Black pawn moved to row 2, column 11."
    assert said(live.on_position(10.0, ref.reading(observe(state)))) == [("restored", "Thank you.")]


def test_a_foreign_coin_is_warned_about_only_as_the_coin_just_laid_from_under_the_pawn():
    state, live, ref, s1, loop = _collected_once()
    red, black = ref.corners_of[state.players[0]], ref.corners_of[state.players[1]]
    # Black's pawn stands on no coin whose peek is unseen: a Green coin and a Black one by Black's
    # corner (a tile carried round, its coins held over the band) are no coin kept
    for k in range(5):
        ref.settle(2.0 + k / 10, _laid(observe(s1), black, "MMMMMC"), loop)
    # Red's pawn does, but the pile holds two coins more than Red is known to hold
    for k in range(5):
        ref.settle(3.0 + k / 10, _laid(observe(s1), red, "SSSSSMM"), loop)
    assert loop.pending_events == [] and not live.over


def test_a_suit_the_reader_reads_for_the_player_s_own_is_no_accusation():
    # Black's pawn ends on a coin; Black lays a Moons coin turned round, which the squares reader
    # reads as Suns (or one it reads as Arms), beside their Moons coins: no warning, and the
    # sixth coin is Black's (the win). A Green coin there is warned about


    state = GAME.from_json(ENDGAME)
    s1 = apply(state, turn_of(state, onto_coin=False))
    s2 = apply(s1, turn_of(s1, onto_coin=True))
    heard = {}
    for pile in ("MMMMMS", "MMMMMA", "MMMMMC"):  # (a Moons coin read as Arms: the held-out look's)
        live, ref = midgame(state)
        live.on_position(1.0, ref.reading(observe(s1)))
        live.on_position(2.0, ref.reading(observe(s2)))
        assert live.current.open == (False, True)
        loop = _loop(live)
        black = ref.corners_of[state.players[1]]
        for k in range(5):
            ref.settle(3.0 + k / 10, _laid(observe(s2), black, pile), loop)
        heard[pile] = said(loop.pending_events)
    square = s2.pawns[1]
    assert heard["MMMMMS"] == heard["MMMMMA"] == [("collect", "Black collected a Null: 6 of 6."),
                                                  ("won", "Black has collected all six coins: Black wins.")]
    assert heard["MMMMMC"] == [
        ("illegal", "Illegal move. Black has laid a Green coin with their collected coins: Black collects only "
                    f"Black coins. Put it back under the Black pawn on row {square[0] + 1}, column {square[1] + 1}, "
                    "value side up.")]


def test_one_coin_not_seen_where_it_lies_is_the_reader_s_slip():
    # the Null carried by Red's shift to the board's edge is read as an empty square on every
    # read: the shift is said, the state keeps the coin, and the turn goes on with it
    live, ref, state = started(seed=2)
    for shift in SHIFTS:
        board, pawns = state.shifted(shift)
        line = [c for c, v in board.items() if v is not None and c not in pawns and shift.carries(c)]
        if len(line) >= 3 and pawns == state.pawns:
            break
    lost = line[0]
    ev = live.on_position(1.0, ref.reading(observe(state, shift=shift, coins={lost: None})))
    assert [e.to_json() for e in ev] == [
        {"t": 1.0, "type": "shift", "player": "S", **shift.to_json(), "say": phrases.shifted(state.players[0], shift)}]
    assert not live.needs_confirmation and live.current.board()[0][lost] == coin_rank(state.shifted(shift)[0][lost])
    # a coin of the shifted line unseen when fewer than two of its other coins tell the shift:
    # not the reader's slip (a tile lifted in the middle of a push)
    live, ref, state = started(seed=2)
    few = [(shift, [c for c, v in state.shifted(shift)[0].items() if v is not None and shift.carries(c)])
           for shift in SHIFTS]
    shift, line = next((s, cells) for s, cells in few if len(cells) == 2 and state.shifted(s)[1] == state.pawns)
    assert live.on_position(1.0, ref.reading(observe(state, shift=shift, coins={line[0]: None}))) == []
    assert live.needs_confirmation


def test_one_coin_seen_where_none_lies_is_the_reader_s_slip_but_not_a_coin_moved():
    # a Null read on an empty square at a standing pawn's foot, sure, read after read: the turn
    # is followed and the state keeps the square empty
    shift = Shift("row", 0, Direction.LEFT)
    live, ref, state = started()
    after = apply(state, Turn(shift, (1, 0)))
    empty = [c for c, v in after.coins.items() if v is None and c not in after.pawns and c[0] >= 2]
    ev = live.on_position(1.0, ref.reading(observe(after, coins={empty[0]: "n"})))
    assert types(ev) == ["shift", "move", "turn"] and not live.needs_confirmation
    assert live.current.board()[0][empty[0]] is None
    # one coin moved to another square is not seen where it lies and seen where none lies: said
    live, ref, state = started()
    lying = next(c for c, v in after.coins.items() if v is not None and c not in after.pawns and c[0] >= 2)
    moved = {lying: None, empty[0]: coin_rank(after.coins[lying]).code}
    assert live.on_position(1.0, ref.reading(observe(after, coins=moved))) == [] and live.needs_confirmation
    # a coin seen on an empty square of the shifted line tells another board: no slip
    live, ref, state = started()
    line = [c for c, v in after.coins.items() if v is None and c not in after.pawns and shift.carries(c)]
    assert live.on_position(1.0, ref.reading(observe(after, coins={line[0]: "n"}))) == []
    assert live.needs_confirmation


def test_play_on_from_a_warned_half_turn_is_followed():
    # Red shifts while Black's pawn is moved (a warning); Red then moves the pawn: no new warning
    # (the warned board is the turn half made), and the board put right is followed from there
    live, ref, state = started()
    shift = Shift("col", 1, Direction.UP)
    ev = play_illegal(live, ref, observe(state, shift=shift, pawns={"M": (1, 10)}))
    assert ev.say == "Illegal move. It is Red's turn, but the Black pawn moved to row 2, column 11."
    base = ref.take(live.current, live.observed)
    assert base.shift == shift and base.game.pawns == ((7, 0), (1, 10)) and base.game.to_move == 0
    after = apply(state, Turn(shift, (7, 3)))
    assert live.on_position(7.0, ref.reading(observe(after, pawns={"M": (1, 10)}))) == []
    assert live.on_position(7.5, ref.reading(observe(after, pawns={"M": (1, 10)}))) == []  # its re-read
    assert said(live.on_position(9.0, ref.reading(observe(after)))) == [
        ("restored", "Thank you."), ("shift", "Red shifts tile column 2 up."), ("move", "Red moves to row 8, column 4."),
        ("turn", "Black to play.")]


#: late in a game: Black to play, Black's pawn alone on tile row 4 (rows 7 and 8), most coins
#: collected; Red's last shift tile row 4 right
LATE = {"game": "scavenger-hunt", "mode": "referee", "players": ["S", "M"], "to_move": 1, "turn": 9,
        "pawns": [[4, 1], [7, 10]],
        "coins": [[None] * 6 + ["M4"] + [None] * 5, [None] * 12, ["S4"] + [None] * 11, *([[None] * 12] * 2),
                  [None] * 3 + ["Ma"] + [None] * 8, [None] * 12, [None] * 12],
        "collected": [["n", "a", "2", "3", "5"], ["n", "2", "3", "5"]],
        "last_shifts": [{"line": "col", "index": 2, "direction": "down"}, None]}


def test_a_shift_carrying_the_pawn_alone_is_said_when_the_pawn_moves_on():
    state = GAME.from_json(LATE)
    carry = Shift("row", 3, Direction.RIGHT)  # Black's pawn carried round from 8,11 to 8,1
    # the board seen after the shift is also an unseen shift and the pawn moved along row 8: the
    # turn is taken whole ...
    live, ref = midgame(state)
    assert said(live.on_position(1.0, ref.reading(observe(state, shift=carry)))) == [
        ("move", "Black moves to row 8, column 1."), ("turn", "Red to play.")]
    # ... and when the pawn moves on, the shift carried it there: said then, and barred to Red
    after = apply(state, Turn(carry, (2, 0)))
    assert said(live.on_position(2.0, ref.reading(observe(after)))) == [
        ("shift", "Black shifts tile row 4 right."), ("move", "Black moves to row 3, column 1, onto a 4."),
        ("turn", "Red to play.")]
    assert live.current.game == forget_suits(after) and not live.blocked
    assert live.current.game.last_shifts[1] == carry
    # when Red plays instead, the turn stands as taken
    live, ref = midgame(state)
    live.on_position(1.0, ref.reading(observe(state, shift=carry)))
    whole = replace(state, pawns=((4, 1), (7, 0)), to_move=0, turn=10, last_shifts=(state.last_shifts[0], None))
    red = apply(whole, Turn(Shift("row", 1, Direction.LEFT), (4, 6)))
    assert said(live.on_position(2.0, ref.reading(observe(red)))) == [
        ("shift", "Red shifts tile row 2 left."), ("move", "Red moves to row 5, column 7."), ("turn", "Black to play.")]
    assert live.current.game == forget_suits(red)
    # a move along the line that shift could carry the pawn on is said from where the pawn stood
    live, ref = midgame(state)
    ev = live.on_position(1.0, ref.reading(observe(state, pawns={"M": (7, 6)})))
    assert [(e.type, e.data) for e in ev] == [("move", {"pawn": "M", "from": [7, 10], "to": [7, 6], "coin": None}),
                                              ("turn", {"player": "S"})]


def test_a_pawn_moved_on_along_a_line_only_it_stands_on_is_the_turn_corrected_not_the_next_shift():
    # Black shifts a tile line carrying its pawn alone (taken as the whole turn), then moves it
    # on to 6,9. Red's shift of the line it moves along, which carries nothing else, leaves the
    # same board: it is Black's turn corrected (taken as Red's shift, Red's move to come was said
    # to be Black's pawn moving on Red's turn). Two of Black's shifts explain the corrected turn
    # (tile row 4 left, then up column 9; tile column 6 up, then left along row 6): the one that
    # carried the pawn where the camera saw it is said, and barred to Red
    state = GAME.from_json(LATE)
    for carry, seen_at, moves in ((Shift("row", 3, Direction.LEFT), "row 8, column 9", "Black shifts tile row 4 left."),
                                  (Shift("col", 5, Direction.UP), "row 6, column 11", "Black shifts tile column 6 up.")):
        live, ref = midgame(state)
        assert said(live.on_position(1.0, ref.reading(observe(state, shift=carry)))) == [
            ("move", f"Black moves to {seen_at}."), ("turn", "Red to play.")]
        after = apply(state, Turn(carry, (5, 8)))
        assert said(live.on_position(2.0, ref.reading(observe(after)))) == [
            ("shift", moves), ("move", "Black moves to row 6, column 9."), ("turn", "Red to play.")]
        assert live.current.game == forget_suits(after) and live.current.game.last_shifts[1] == carry
    # Red's whole turn then follows without a word of warning
    red = apply(after, Turn(Shift("col", 1, Direction.UP), (2, 1)))
    assert said(live.on_position(3.0, ref.reading(observe(red)))) == [
        ("shift", "Red shifts tile column 2 up."), ("move", "Red moves to row 3, column 2."), ("turn", "Black to play.")]
    assert live.current.game == forget_suits(red) and not live.needs_confirmation


def test_a_coin_carried_under_the_pawn_by_its_shift_is_no_collection_once_the_pawn_moves_on():
    # Black's pawn stands on its 4, peeked at unseen, alone on tile row 4 with it; Black
    # shifts that row left, the 4 riding under the pawn: the square the pawn stood on is empty,
    # and the board is taken as the whole turn, the 4 collected. When the pawn moves on, the 4
    # is seen where the shift carried it: the turn is corrected and the collection withdrawn
    state = GAME.from_json({**LATE, "coins": [[None] * 12, *LATE["coins"][1:7], [None] * 10 + ["M4", None]]})
    live, ref = midgame(state, opened={1})
    carry = Shift("row", 3, Direction.LEFT)
    assert said(live.on_position(1.0, ref.reading(observe(state, shift=carry)))) == [
        ("collect", "Black collected a 4: 5 of 6."), ("move", "Black moves to row 8, column 9."),
        ("turn", "Red to play.")]
    after = apply(state, Turn(carry, (5, 8)))
    ev = live.on_position(2.0, ref.reading(observe(after)))
    assert said(ev) == [("put_back", "Black put the 4 back: 4 of 6."), ("shift", "Black shifts tile row 4 left."),
                        ("move", "Black moves to row 6, column 9."), ("turn", "Red to play.")]
    assert ev[0].data == {"player": "M", "value": "4", "square": [7, 8], "count": 4}
    assert live.current.game == forget_suits(after) and not live.needs_confirmation
    assert live.current.open == (False, False)
    # a pawn that moved off its coin, seen gone, and then on: the collection is said once
    live, ref = midgame(state, opened={1})
    push = Shift("row", 1, Direction.RIGHT)
    assert said(live.on_position(1.0, ref.reading(observe(state, shift=push)))) == [
        ("shift", "Black shifts tile row 2 right.")]
    off = apply(state, Turn(push, (7, 4)))
    assert said(live.on_position(2.0, ref.reading(observe(off, coins={(7, 10): None})))) == [
        ("collect", "Black collected a 4: 5 of 6."), ("move", "Black moves to row 8, column 5."), ("turn", "Red to play.")]
    on = apply(state, Turn(push, (7, 2)))
    assert said(live.on_position(3.0, ref.reading(observe(on, coins={(7, 10): None})))) == [
        ("move", "Black moves to row 8, column 3."), ("turn", "Red to play.")]
    assert [v.code for v in live.current.game.collected[1]] == ["n", "2", "3", "4", "5"]


def test_once_the_shift_was_seen_and_the_pawn_has_moved_a_coin_misread_in_its_line_is_a_slip():
    # Black shifts tile row 3 right (said), carrying the Blue Ace alone, then moves up column 11
    # through the line: a pawn's shadow read as a null on the square it passed, or the Ace not
    # seen, is the reader's slip (the line has no other coin to confirm the shift; the move does)
    state = GAME.from_json(LATE)
    push = Shift("row", 2, Direction.RIGHT)
    after = apply(state, Turn(push, (4, 10)))
    for misread in ({(5, 10): "n"}, {(5, 5): None}):
        live, ref = midgame(state)
        assert said(live.on_position(1.0, ref.reading(observe(state, shift=push)))) == [
            ("shift", "Black shifts tile row 3 right.")]
        assert said(live.on_position(2.0, ref.reading(observe(after, coins=misread)))) == [
            ("move", "Black moves to row 5, column 11."), ("turn", "Red to play.")]
        assert live.current.game == forget_suits(after) and not live.needs_confirmation
    # before the pawn has moved, a coin read where none lies in the line is no slip
    live, ref = midgame(state)
    live.on_position(1.0, ref.reading(observe(state, shift=push)))
    assert live.on_position(2.0, ref.reading(observe(state, shift=push, coins={(5, 10): "n"}))) == []
    assert live.needs_confirmation


def test_a_pawn_of_a_suit_not_in_the_game_on_a_player_s_square_is_that_player_s_pawn():
    # Black's pawn, read as Blue where it stands (and Black's read nowhere), is Black's: no
    # warning; a Blue pawn read anywhere else is a stray pawn
    state = GAME.from_json(LATE)
    live, ref = midgame(state)
    seen = observe(state)
    blue = replace(seen, pawns=tuple(("A", at) if suit == "M" else (suit, at) for suit, at in seen.pawns))
    assert live.on_position(1.0, ref.reading(blue)) == [] and not live.needs_confirmation
    astray = replace(seen, pawns=tuple(("A", (6, 10)) if suit == "M" else (suit, at) for suit, at in seen.pawns))
    assert live.on_position(2.0, ref.reading(astray)) == [] and live.needs_confirmation


def test_a_value_read_otherwise_on_the_square_the_pawn_left_in_a_shifted_line_is_a_slip():
    # Black's pawn stands on a Red 3 it has peeked at unseen, in a row with one other coin;
    # Black shifts the row (said), then moves off: the 3 uncovered is read as a 5, sure. The
    # row's other coins are too few to confirm the shift, but the pawn moving off the coin does
    state = GAME.from_json({**LATE, "coins": [[None] * 6 + ["M4"] + [None] * 5, [None] * 12, ["S4"] + [None] * 11,
                                              *([[None] * 12] * 2), [None] * 3 + ["Ma"] + [None] * 8,
                                              [None] * 4 + ["S5"] + [None] * 7, [None] * 10 + ["S3", None]],
                            "collected": [["n", "a", "2"], ["n", "2", "3", "5"]]})
    live, ref = midgame(state, opened={1})
    carry = Shift("row", 3, Direction.RIGHT)
    assert said(live.on_position(1.0, ref.reading(observe(state, shift=carry)))) == [
        ("shift", "Black shifts tile row 4 right.")]
    after = apply(state, Turn(carry, (2, 0)))
    ev = live.on_position(2.0, ref.reading(observe(after, coins={(7, 0): "5"})))
    assert said(ev) == [("move", "Black moves to row 3, column 1, onto a 4."), ("turn", "Red to play.")]
    assert live.current.game == forget_suits(after) and not live.needs_confirmation


def test_a_coin_laid_by_the_corner_on_the_reads_that_showed_the_move_is_collected_on_a_still_table():
    # Red moves onto its last coin, takes it and lays it by Red's corner before the Caller has
    # followed the move: the reads that show the move show the sixth coin there already, and
    # then the table lies still. The Caller reads it again until the collection, and the win,
    # are said (without, the game was never won)
    state = GAME.from_json(ENDGAME)
    live, ref = midgame(state)
    s1 = apply(state, turn_of(state, collect=True))
    red = ref.corners_of[state.players[0]]
    watcher = Watcher(PlayBack([_laid(observe(state), red, "SSSSS"), _laid(observe(s1), red, "SSSSSS")]), live)
    events = [e for k, img in enumerate(frames([(0, 10), (1, 60)])) for e in watcher.process(img, k / 30)]
    assert [(e.type, e.say) for e in events if e.type in ("collect", "won")] == [
        ("collect", "Red collected a Null: 6 of 6."), ("won", "Red has collected all six coins: Red wins.")]
    assert types(events).index("move") < types(events).index("collect") and live.over
    assert watcher.stats.reads < 20  # (and not read on every frame since)
