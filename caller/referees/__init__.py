"""Text referees, one module per game, each with ``main(argv) -> int`` (see ``caller play``)."""
