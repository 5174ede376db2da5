"""Steppin' Stones: the position and actions (state), its verdicts as data (reasons), JSON
(codec), text notation (notation) and the registry's game object (game)."""
