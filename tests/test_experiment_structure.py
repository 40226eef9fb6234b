"""experiments/: no import cycle, no function-level imports, no swallowed exceptions, only real strategies."""
from __future__ import annotations

import ast
import math
from pathlib import Path

import pandas as pd

from conftest import ROOT
from tianjiu_sim.experiments import measures
from tianjiu_sim.experiments.cells import known_strategies
from tianjiu_sim.experiments.experiment import parse_experiment
from tianjiu_sim.strategies.registry import POLICIES

PKG = ROOT / "tianjiu_sim" / "experiments"


def _inner_imports_and_broad_excepts(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    found.append(f"{path.name}:{node.lineno}: import inside {fn.name}()")
    for node in ast.walk(tree):
        if isinstance(node, ast.ExceptHandler) and (node.type is None or
                                                    getattr(node.type, "id", "") in ("Exception", "BaseException")):
            found.append(f"{path.name}:{node.lineno}: broad except")
    return found


def test_measures_and_experiment_import_at_the_top_and_catch_nothing_broadly():
    problems = [p for name in ("measures.py", "experiment.py", "cells.py")
                for p in _inner_imports_and_broad_excepts(PKG / name)]
    assert not problems, problems


def test_measures_does_not_import_experiment():
    # the module-level cycle check over the whole package is tests/test_layers.py
    text = (PKG / "measures.py").read_text(encoding="utf-8")
    assert "from .experiment" not in text and "import experiment" not in text


def test_strategy_names_are_the_engine_ones(tmp_path):
    assert known_strategies()[:len(POLICIES)] == tuple(POLICIES)
    path = tmp_path / "e.toml"
    path.write_text('measure = "payments"\nseed = 1\ndeals = 10\n[grid]\nstrategies = ["pimcx"]\n', encoding="utf-8")
    exp, problems = parse_experiment(path)
    assert exp is None and any("unknown strategy 'pimcx'" in p for p in problems), problems


def test_exact_column_without_swallowed_errors():
    df = pd.DataFrame({"event": ["supreme", "supreme", "bonus_any"], "unit": ["hand", "hand", "deal"],
                       "tiles": [8, 16, 8], "players": [4, 2, 4], "shuffle": ["perfect", "perfect", "riffle:3"],
                       "method": ["rounds"] * 3, "trials": [400, 200, 100], "hits": [22, 30, 20]})
    out = measures.deal_odds_finalize("deal_odds", df)
    assert out["exact"].iloc[0] == measures._exact_values(4, 8)["supreme"] > 0
    assert math.isnan(out["exact"].iloc[1])  # 16-tile hands: odds.py has no exact count
    assert math.isnan(out["exact"].iloc[2])  # an imperfect shuffle has no exact value
