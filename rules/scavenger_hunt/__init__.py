"""Scavenger Hunt: the position and turns (state), JSON (codec), text notation (notation),
explaining an observed change (explain) and the registry's game object (game)."""
