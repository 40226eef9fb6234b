"""Strategies: what a seat plays, from its observation only (RULES.md §4.5)."""
