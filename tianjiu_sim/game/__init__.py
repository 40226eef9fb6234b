"""The game as data: tiles, rule sets, the catalogue of plays, settlement, and the plain-Python reference engine."""
