"""Slide: the position, moves and scoring (state), JSON (codec), text notation (notation),
explaining an observed change (explain) and the registry's game object (game)."""
