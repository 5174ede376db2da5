"""The reader of a grid of cards: where the table description's board is a ``CardGrid``.

``CardsReader.read(image)`` finds the grid (``vision.card_grid``: of the lattices on
different parts of the picture, the one whose slots hold the most cards read sure), reads
every slot (``vision.cards``) and returns a ``vision.observation.CardsObservation`` in the player's
frame: row 0 the far side, where the face-up numerals' tops point (with no card face up, the
side farthest from the camera). A slot the model is not sure of (a hand over it, glare, a
card half pushed in) is listed as uncertain, its label a best guess never to be acted on.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from rules.table import CardGrid, TableDescription
from vision.card_grid import CardGridSearch
from vision.cards import CARDS_MODEL, FEATURES_ID, LABELS, read_slots
from vision.config import VisionConfig
from vision.errors import ProfileError
from vision.observation import CardsObservation
from vision.profile import Profile, load_model
from vision.reader import check_image, read_image_file


class CardsReader:
    """Reads a grid of cards: each slot's number 1-10, a card face down, or an empty slot.

    ``table``: the game's description (a ``rules.table.CardGrid`` board); ``profile``: a cards
    model (None: the bundled one, ``vision.cards.CARDS_MODEL``); ``config``: its
    ``assign.confidence_threshold`` says which slots are uncertain."""

    def __init__(self, table: TableDescription, profile: Profile | str | Path | None = None,
                 config: VisionConfig | None = None):
        if not isinstance(table.board, CardGrid):
            raise ProfileError("this reader reads a grid of cards")
        self.table = table
        self.config = config or VisionConfig()
        self.profile, self.model = load_model(profile, CARDS_MODEL, game="cards", kind="cards", features_id=FEATURES_ID)
        missing = sorted(set(LABELS) - set(self.model.classes))
        if missing:
            raise ProfileError(f"profile {self.profile.name!r} cannot read {', '.join(missing)}: not a cards model")

    def read_file(self, path: str | Path) -> CardsObservation:
        return self.read(read_image_file(path))

    def read(self, image: np.ndarray) -> CardsObservation:
        """Read one BGR picture; raises BoardNotFound / BadImage."""
        image = check_image(image)
        board = self.table.board
        t0 = time.perf_counter()
        threshold = self.config.assign.confidence_threshold
        search = CardGridSearch(image, board.rows, board.cols)
        lattices = list(search.first or search.second() or search.raise_not_found())
        t1 = time.perf_counter()
        # of the lattices found on different parts of the picture, the one holding the most
        # cards read sure (a checked cloth's squares read as table, or at most as backs)
        reads = [read_slots(image, lattice, self.model) for lattice in lattices]
        if search.first and max(_cards_sure(got, threshold) for got in reads) < board.rows * board.cols // 2:
            # none reads as a grid of cards (a checked cloth's lattice, found where the
            # cards' own outlines closed on too few of them): the finder's second look too
            more = search.second()
            reads += [read_slots(image, lattice, self.model) for lattice in more]
            lattices += more
        k = max(range(len(reads)), key=lambda i: (_cards_sure(reads[i], threshold), -i))
        got = reads[k]
        t2 = time.perf_counter()
        uncertain = tuple((r, c) for r, row in enumerate(got.confidence) for c, v in enumerate(row) if v < threshold)
        corners = got.lattice.board_corners()
        return CardsObservation(
            grid=got.labels, slot_confidence=got.confidence, uncertain=uncertain,
            board_corners=tuple((float(x), float(y)) for x, y in corners), looks=got.looks,
            timings=(("locate", round((t1 - t0) * 1000, 3)), ("read", round((t2 - t1) * 1000, 3))))


def _cards_sure(got, threshold: float) -> int:
    """How much a read looks like a grid of cards: its slots read sure as a card face up count
    two, face down one (a cloth's squares may pass for backs, hardly for numerals)."""
    return sum(2 if isinstance(v, int) else 1 for row, conf in zip(got.labels, got.confidence)
               for v, c in zip(row, conf) if v is not None and c >= threshold)
