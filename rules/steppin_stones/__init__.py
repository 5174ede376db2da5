"""Steppin' Stones: the position and actions (state), JSON (codec), text notation (notation)
and the registry's game object (game)."""
