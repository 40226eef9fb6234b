"""The package's layers (README "Layout"): a module imports only its own layer and those below it.

Every import counts, at module level or inside a function: a function-level import must not
hide an upward dependency or a cycle.
"""
from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "tianjiu_sim"

# Lowest first. The sibling games (their own rules, kernels and runners) sit above the shared
# layers they reuse and below the CLI; nothing but the CLI imports them.
LAYERS = ["base", "game", "kernels", "strategies", "sim", "output", "experiments", "games", "cli"]
BASE = {"errors", "stats", "_numba_cache", "__init__"}
GAMES = {"paigow", "nine_cards"}

# The reference engine shares the random-stream contract and the dealing spec with the kernels
# (docs/CONTRACTS.md) so that both engines play the same deals; it shares no play code.
ALLOWED = {
    ("game.reference", "kernels.rng"), ("game.reference", "kernels.layout"), ("game.reference", "kernels.dealing"),
}


def layer_of(module: str) -> str:
    """Layer of a dotted module path inside the package ("sim.runner" → "sim")."""
    top = module.split(".")[0]
    if top in BASE:
        return "base"
    if top in GAMES:
        return "games"
    return top


def imports_of(path: Path) -> set[str]:
    """Package modules imported anywhere in `path`, as dotted paths inside the package."""
    rel = path.relative_to(PKG).with_suffix("")
    package = list(rel.parts[:-1])
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = base + (node.module.split(".") if node.module else [])
            elif node.module and node.module.startswith("tianjiu_sim"):
                target = node.module.split(".")[1:]
            else:
                continue
            if not target:  # `from .. import x`: x is a module of the package root
                found.update(a.name for a in node.names)
                continue
            dotted = ".".join(target)
            found.add(dotted)
            for a in node.names:  # `from .pkg import module`
                if (PKG.joinpath(*target) / f"{a.name}.py").is_file():
                    found.add(f"{dotted}.{a.name}")
        elif isinstance(node, ast.Import):
            found.update(a.name[len("tianjiu_sim."):] for a in node.names if a.name.startswith("tianjiu_sim."))
    return found


def module_name(path: Path) -> str:
    """Dotted module path inside the package."""
    parts = list(path.relative_to(PKG).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


def test_lower_layers_never_import_higher_ones():
    bad = []
    for path in sorted(PKG.rglob("*.py")):
        me = module_name(path)
        if me == "__init__":  # the package's public face re-exports from every layer
            continue
        mine = LAYERS.index(layer_of(me))
        for target in imports_of(path):
            if (me, target) in ALLOWED or target.split(".")[0] == me.split(".")[0] and layer_of(me) == "games":
                continue
            theirs = LAYERS.index(layer_of(target))
            if theirs > mine:
                bad.append(f"{me} ({layer_of(me)}) imports {target} ({layer_of(target)})")
    assert not bad, "\n".join(bad)


def test_no_import_cycles_between_modules():
    graph = {module_name(p): {t for t in imports_of(p)} for p in PKG.rglob("*.py")}
    state: dict[str, int] = {}
    cycles = []

    def visit(m: str, stack: list[str]) -> None:
        state[m] = 1
        for t in sorted(graph.get(m, ())):
            if t not in graph:
                continue
            if state.get(t) == 1:
                cycles.append(" → ".join(stack[stack.index(t):] + [t]))
            elif t not in state:
                visit(t, stack + [t])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    # A package's __init__ importing its own modules is not a cycle between modules.
    cycles = [c for c in cycles if not any(part.count(".") == 0 and part in GAMES | set(LAYERS) for part in c.split(" → "))]
    assert not cycles, "\n".join(cycles)
