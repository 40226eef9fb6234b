"""Exact answers of `tjsim paigow` kept on disk, so that a later process answers without numba.

Every figure here is exact and depends only on the profile's settings and on the code that
computes it, so a file keyed by both (`cache_path`) holds the answer for good. The first
`split` of a profile and banker way computes the split rows of every distinct hand at once
(a few seconds, said on stderr); every later `split`, of any hand, reads them: importing numba
and loading its dispatchers alone takes longer than the 1 s a lookup should take. This module
loads no kernel; the CLI computes (paigow/analysis.py) what is not kept yet.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from ..errors import TjsimError
from ..game.tiles import bits_of, popcount
from .hands import pack_classes, rank_table
from .profiles import Profile


def cache_path(p: Profile, kind: str, *parts, suffix: str = ".json") -> Path:
    """Where an answer of `kind` for p's settings and `parts` is kept, keyed by them and by the sources."""
    settings = {k: v for k, v in p.describe().items() if k != "name"}
    h = hashlib.sha1(json.dumps(settings, sort_keys=True).encode())
    if parts:
        h.update(json.dumps([kind, *parts]).encode())
    here = Path(__file__).resolve().parent
    for src in sorted(here.glob("*.py")) + [here.parent / "game" / "tiles.py"]:
        h.update(src.read_bytes())
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tjsim" / "paigow"
    return base / f"{kind}-{h.hexdigest()[:16]}{suffix}"


def read_json(path: Path):
    """A kept answer, or None when there is none (or it cannot be read)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def write_json(path: Path, obj) -> None:
    """Keep an answer (atomically; an unwritable cache is skipped)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(obj), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass  # an unwritable cache only costs time


def check_hand(p: Profile, mask: int) -> None:
    """TjsimError unless the hand has the profile's hand size."""
    n = p.tiles_per_hand
    if popcount(mask) != n:
        example = "6-6 4-4 3-1 2-1" if n == 4 else "6-6 6-3"
        raise TjsimError(f"the hand has {popcount(mask)} tiles; profile '{p.name}' deals {n} "
                         f"(e.g. --hand \"{example}\")")


def check_split(p: Profile, banker_way: str) -> None:
    """TjsimError unless `split` applies: a four-tile profile and a banker way that is not `best`."""
    if p.tiles_per_hand != 4:
        raise TjsimError(f"split is for four-tile profiles (yabao, vegas); profile '{p.name}' deals 2 tiles")
    if banker_way == "best":
        raise TjsimError("--banker-way best needs a player way; split shows the player's choice "
                         "(use house, equilibrium or a named way)")


def check_odds(p: Profile) -> None:
    """TjsimError unless `odds` applies: the two-tile profile."""
    if p.tiles_per_hand != 2:
        raise TjsimError(f"odds is for the two-tile profile kong; profile '{p.name}' deals 4 tiles "
                         "(use split or table)")


def hand_class_key(p: Profile, mask: int) -> int:
    """The distinct hand of a tile mask, as the packed classes of its tiles (hands.pack_classes)."""
    table = rank_table(p)
    return pack_classes(table.tile_class[b] for b in bits_of(mask))


def class_rows(rows: list[dict]) -> list[dict]:
    """The distribution of hand classes, with each class's mean win / push / lose."""
    out: dict[str, dict] = {}
    for r in rows:
        c = out.setdefault(r["class"], {"class": r["class"], "dealt": 0.0, "win": 0.0, "push": 0.0, "lose": 0.0})
        c["dealt"] += r["dealt"]
        for k in ("win", "push", "lose"):
            c[k] += r["dealt"] * r[k]
    for c in out.values():
        for k in ("win", "push", "lose"):
            c[k] /= c["dealt"]
    return list(out.values())
