"""The record of Slide (see ``rules.record``): what the rules offer for it."""

from rules.record import GameRecord
from rules.slide.table import TABLE

RECORD = GameRecord(
    name="slide",
    title="Slide",
    game_ref="rules.slide.game:GAME",
    table=TABLE,
    table_for_ref="rules.slide.table:table_for",
    codec="rules.slide.codec",
    notation="rules.slide.notation",
    explain="rules.slide.explain",
    reasons="rules.slide.reasons",
    max_perft_depth=7,
)
