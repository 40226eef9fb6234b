"""The strategy registry: names ↔ policy ids, and the dispatch the engine calls with a seat's id.

A strategy sees one observation only (RULES.md §4.5): an int64 array `obs` (layout.OBSERVATION)
holding its own hand, the face-up tiles seen so far, the state of the current trick, each
seat's 戙, discard count, fold flag and face-up tiles, its seat, the banker and the trick
number. The engine writes public facts into `obs` as they happen and the decider's private
slots (seat, hand) just before each decision; the other hands never enter a decision
function. The remaining arguments are public knowledge: the rule parameters (`params`), the
play tables (`tabs`), the deal's STREAM_PLAY random state and scratch buffers.

The search strategies (`pimc[:W]`, `oracle`; strategies/search.py) also get the search scratch
`scr`, and `oracle` alone the hands. The scratch is None when no seat searches: the `search_*`
calls below are resolved by its type when the kernel is compiled, so the kernel without search
never compiles the solver (a user's first `play` does not wait for it).

Add a strategy: a module with `*_fold`, `*_lead`, `*_follow`, an id below, one line in each
`choose_*`.
"""
from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from .greedy import greedy_fold, greedy_follow, greedy_lead
from .heuristic import heuristic_fold, heuristic_follow, heuristic_lead
from .uniform import random_fold, random_follow, random_lead

from .names import (  # noqa: F401 (re-exported: the registry owns names ↔ ids)
    ALLOWED, DEFAULT_HORIZON, DEFAULT_WORLDS, GREEDY, HEURISTIC, MAX_HORIZON, MAX_WORLDS, POLICIES, RANDOM,
    SEARCH, SEARCH_POLICIES, SEES_ALL, default_horizon, is_search, policy_id, policy_name, sees_all,
    sees_all_note
)


# --- the search calls, resolved by the scratch's type (None: no search compiled) ---------------
def search_lead(policy, obs, hands, tabs, params, st, buf, scr):
    """Stub: compiled by the overload below."""
    raise NotImplementedError


def search_follow(policy, obs, hands, tabs, params, st, buf, scr):
    """Stub: compiled by the overload below."""
    raise NotImplementedError


def search_fold(policy, obs, hands, tabs, params, st, buf, scr):
    """Stub: compiled by the overload below."""
    raise NotImplementedError


def make_scratch(tabs3, players):
    """Stub: compiled by the overload below."""
    raise NotImplementedError


def _search_module():
    # Imported when a kernel with search is typed: importing the solver compiles it.
    from . import search
    return search


@overload(search_lead)
def _ov_search_lead(policy, obs, hands, tabs, params, st, buf, scr):
    if isinstance(scr, types.NoneType):
        return lambda policy, obs, hands, tabs, params, st, buf, scr: np.int64(-1)
    f = _search_module().search_lead
    return lambda policy, obs, hands, tabs, params, st, buf, scr: f(policy, obs, hands, tabs, params, st, buf, scr)


@overload(search_follow)
def _ov_search_follow(policy, obs, hands, tabs, params, st, buf, scr):
    if isinstance(scr, types.NoneType):
        return lambda policy, obs, hands, tabs, params, st, buf, scr: (np.int64(-1), np.int64(0))
    f = _search_module().search_follow
    return lambda policy, obs, hands, tabs, params, st, buf, scr: f(policy, obs, hands, tabs, params, st, buf, scr)


@overload(search_fold)
def _ov_search_fold(policy, obs, hands, tabs, params, st, buf, scr):
    if isinstance(scr, types.NoneType):
        return lambda policy, obs, hands, tabs, params, st, buf, scr: False
    f = _search_module().search_fold
    return lambda policy, obs, hands, tabs, params, st, buf, scr: f(policy, obs, hands, tabs, params, st, buf, scr)


@overload(make_scratch)
def _ov_make_scratch(tabs3, players):
    if isinstance(tabs3, types.NoneType):
        return lambda tabs3, players: None
    f = _search_module().search_scratch
    return lambda tabs3, players: f(tabs3, players)


@njit(cache=True, inline="always")
def choose_fold(policy, obs, tabs, params, st, hands, scr):
    """Whether the seat folds before the first lead (asked only when it may fold)."""
    if policy >= SEARCH:
        return search_fold(policy, obs, hands, tabs, params, st, obs, scr)
    if policy == RANDOM:
        return random_fold(obs, tabs, params, st)
    if policy == GREEDY:
        return greedy_fold(obs, tabs, params, st)
    return heuristic_fold(obs, tabs, params, st)


@njit(cache=True, inline="always")
def choose_lead(policy, obs, tabs, params, st, buf, hands, scr):
    """Play id the seat leads (`hands` reach `oracle` only)."""
    if policy >= SEARCH:
        return search_lead(policy, obs, hands, tabs, params, st, buf, scr)
    if policy == RANDOM:
        return random_lead(obs, tabs, params, st, buf)
    if policy == GREEDY:
        return greedy_lead(obs, tabs, params, st, buf)
    return heuristic_lead(obs, tabs, params, st, buf)


@njit(cache=True, inline="always")
def choose_follow(policy, obs, tabs, params, st, buf, kv, hands, scr):
    """(play id, 0) to beat, or (-1, tiles) to discard (`hands` reach `oracle` only)."""
    if policy >= SEARCH:
        return search_follow(policy, obs, hands, tabs, params, st, buf, scr)
    if policy == RANDOM:
        return random_follow(obs, tabs, params, st, buf)
    if policy == GREEDY:
        return greedy_follow(obs, tabs, params, st, buf)
    return heuristic_follow(obs, tabs, params, st, buf, kv)
