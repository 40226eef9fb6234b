"""tjsim: Monte Carlo strategy analyser and statistics for Tien Gow (天九)."""
from ._numba_cache import configure as _configure_numba_cache

_configure_numba_cache()

# ruff: noqa: E402
from .game.tiles import Hand, parse_deal, parse_hand, format_hand
from .game.rules import RuleSet, load_rules, preset

__version__ = "0.1.0"
__all__ = ["Hand", "parse_deal", "parse_hand", "format_hand", "RuleSet", "load_rules", "preset", "__version__"]
