"""The record of Steppin' Stones (see ``rules.record``): what the rules offer for it."""

from rules.record import GameRecord
from rules.steppin_stones.table import TABLE

RECORD = GameRecord(
    name="steppin-stones",
    title="Steppin' Stones",
    game_ref="rules.steppin_stones.game:GAME",
    table=TABLE,
    table_for_ref="rules.steppin_stones.table:table_for",
    codec="rules.steppin_stones.codec",
    notation="rules.steppin_stones.notation",
    explain=None,
    reasons="rules.steppin_stones.reasons",
    max_perft_depth=4,
)
