"""The record of Scavenger Hunt (see ``rules.record``): what the rules offer for it."""

from rules.record import GameRecord
from rules.scavenger_hunt.table import TABLE

RECORD = GameRecord(
    name="scavenger-hunt",
    title="Scavenger Hunt",
    game_ref="rules.scavenger_hunt.game:GAME",
    table=TABLE,
    table_for_ref="rules.scavenger_hunt.table:table_for",
    codec="rules.scavenger_hunt.codec",
    notation="rules.scavenger_hunt.notation",
    explain="rules.scavenger_hunt.explain",
    reasons="rules.scavenger_hunt.reasons",
    max_perft_depth=3,
)
