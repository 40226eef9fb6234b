"""Errors that the CLI turns into one line on stderr and exit code 2."""


class TjsimError(ValueError):
    """Bad input from a user: a tile, a rules file, an option value."""
