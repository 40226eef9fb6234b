"""九支十仔, the four-colour card game (RULES.md §9): cards, rules, engine, reference, strategies, odds."""
