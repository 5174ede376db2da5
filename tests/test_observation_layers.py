"""The layered view of a read: both readers' observations as layers, and the ``caller read``
outputs (JSON and text) made from the layers alone."""

from vision.observation import Layer, LayeredObservation, Observation, SquaresObservation

CORNERS = ((10.0, 20.0), (110.04, 20.0), (110.0, 120.0), (10.0, 119.96))


def _faces() -> Observation:
    board = (("S5", "Mn", "C2", "A3", "Sa"), ("M2", "C3", "A4", "S2", "Ma"), ("C4", "A5", "S3", "M4", "Ca"),
             ("A2", "S4", "M5", "C5", "Aa"), ("An", "Cn", "Mn", "Sn", None))
    conf = tuple(tuple(0.2 if (r, c) == (2, 3) else 1.0 for c in range(5)) for r in range(5))
    return Observation(board=board, pawns=("M", "S", "C", "A"), coins=("2", "4", "5", "a", "3"),
                       cell_confidence=conf, pawn_confidence=(1.0, 0.9, 1.0, 1.0),
                       coin_confidence=(1.0, 1.0, 0.3, 1.0, 1.0), uncertain=((2, 3),), uncertain_pawns=(),
                       uncertain_coins=(2,), covered=((2, 3),), orientation=1, board_corners=CORNERS)


def _squares() -> SquaresObservation:
    coins = [[None] * 4 for _ in range(2)]
    coins[0][1], coins[1][2], coins[1][0] = "5", "M", "n"
    conf = ((1.0, 0.95, 1.0, 1.0), (0.4, 1.0, 1.0, 0.9))
    return SquaresObservation(coins=tuple(tuple(row) for row in coins), pawns=(("A", (0, 3)), ("S", (1, 0))),
                              square_confidence=conf, uncertain=((1, 0),), board_corners=CORNERS)


def test_a_face_up_read_is_the_tiles_and_two_places_off_the_board():
    layered = _faces().layered()
    assert [(layer.name, layer.where, layer.on_board) for layer in layered.layers] == [
        ("board", "tiles", True), ("pawns", "rows 1-4", False), ("coins", "columns 1-5", False)]
    assert layered.confidence == 0.2
    assert layered.cell_labels()[4] == ("An", "Cn", "Mn", "Sn", "hole")


def test_the_face_up_json_is_made_from_the_layers():
    assert _faces().to_json(image="x.jpg", game="easy-slider") == {
        "image": "x.jpg", "game": "easy-slider",
        "board": [["S5", "Mn", "C2", "A3", "Sa"], ["M2", "C3", "A4", "S2", "Ma"], ["C4", "A5", "S3", "M4", "Ca"],
                  ["A2", "S4", "M5", "C5", "Aa"], ["An", "Cn", "Mn", "Sn", None]],
        "pawns": ["M", "S", "C", "A"], "coins": ["2", "4", "5", "a", "3"],
        "confidence": 0.2, "uncertain": [[2, 3]], "uncertain_pawns": [], "uncertain_coins": [2],
        "covered": [[2, 3]], "orientation": "right", "board_corners": [[10.0, 20.0], [110.0, 20.0], [110.0, 120.0], [10.0, 120.0]]}


def test_a_board_of_squares_is_two_layers_on_the_squares_and_its_json_maps_each_pawn_to_its_square():
    obs = _squares()
    layered = obs.layered()
    assert layered.layer("pawns").labels == ((None, None, None, "A"), ("S", None, None, None))
    assert layered.layer("pawns").unique and not layered.layer("coins").unique
    assert obs.cell_labels() == (("", "5", "", "a"), ("s", "", "M", ""))
    out = obs.to_json(game="scavenger-hunt")
    assert list(out) == ["game", "coins", "pawns", "confidence", "uncertain", "board_corners"]
    assert out["coins"] == [[None, "5", None, None], ["n", None, "M", None]]
    assert list(out["pawns"].items()) == [("S", [1, 0]), ("A", [0, 3])]  # in the suits' order
    assert out["confidence"] == 0.4 and out["uncertain"] == [[1, 0]]


def test_the_text_report_is_one_for_every_table():
    assert _faces().layered().report("x.jpg").splitlines() == [
        "x.jpg: confidence 0.20, the player's far side is towards the image's right",
        "  S5  Mn  C2  A3  Sa",
        "  M2  C3  A4  S2  Ma",
        "  C4  A5  S3  M4? Ca",
        "  A2  S4  M5  C5  Aa",
        "  An  Cn  Mn  Sn  --",
        "  pawns (rows 1-4): M S C A    coins (columns 1-5): 2 4 5? a 3",
        "  uncertain (marked ?): cells [[2, 3]], covered [[2, 3]]",
    ]
    assert _squares().layered().report("y.png").splitlines() == [
        "y.png: confidence 0.40",
        "  -  5  -  a",
        "  s? -  M  -",
        "  pawns (lower case): S at [1, 0], A at [0, 3]",
        "  uncertain (marked ?): cells [[1, 0]]",
    ]


def test_a_new_place_off_the_board_needs_no_new_output_code():
    # e.g. dice beside a board of squares: the JSON and the report follow from the layers
    layered = LayeredObservation(
        layers=(Layer("board", "squares", (("n", None),), ((1.0, 1.0),), ()),
                Layer("dice", "beside the board", ("2", "s"), (0.9, 0.5), (1,))),
        board_corners=CORNERS)
    assert layered.to_json() == {"game": "", "board": [["n", None]], "dice": ["2", "s"], "confidence": 0.5,
                                 "uncertain": [], "uncertain_dice": [1],
                                 "board_corners": [[10.0, 20.0], [110.0, 20.0], [110.0, 120.0], [10.0, 120.0]]}
    assert layered.report("z").splitlines() == ["z: confidence 0.50", "  n  -", "  dice (beside the board): 2 s?",
                                                "  uncertain (marked ?): cells []"]


def test_coins_collected_by_the_corners_are_a_layer_off_the_board():
    from dataclasses import replace

    obs = replace(_squares(), collected=(("M",), ("C", "C"), (), ()), collected_confidence=(1.0, 0.3, 1.0, 1.0),
                  uncertain_collected=(1,))
    out = obs.to_json()
    assert out["collected"] == [["M"], ["C", "C"], [], []] and out["uncertain_collected"] == [1]
    assert out["confidence"] == 0.3
    assert obs.layered().report("y.png").splitlines()[3] == \
        "  pawns (lower case): S at [1, 0], A at [0, 3]    collected (by the corners TL TR BR BL): M CC? - -"
