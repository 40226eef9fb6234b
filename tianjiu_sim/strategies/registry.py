"""The strategy registry: names ↔ policy ids, and the dispatch the engine calls with a seat's id.

A strategy sees one observation only (RULES.md §4.5): an int64 array `obs` (layout.OBSERVATION)
holding its own hand, the face-up tiles seen so far, the state of the current trick, each
seat's 戙, discard count, fold flag and face-up tiles, its seat, the banker and the trick
number. The engine writes public facts into `obs` as they happen and the decider's private
slots (seat, hand) just before each decision; the other hands never enter a decision
function. The remaining arguments are public knowledge: the rule parameters (`params`), the
play tables (`tabs`), the deal's STREAM_PLAY random state and scratch buffers.

Add a strategy: a module with `*_fold`, `*_lead`, `*_follow`, an id below, one line in each
`choose_*`.
"""
from __future__ import annotations

from numba import njit

from .greedy import greedy_fold, greedy_follow, greedy_lead
from .heuristic import heuristic_fold, heuristic_follow, heuristic_lead
from .uniform import random_fold, random_follow, random_lead

RANDOM = 0
GREEDY = 1
HEURISTIC = 2
POLICIES = {"random": RANDOM, "greedy": GREEDY, "heuristic": HEURISTIC}
POLICY_NAMES = {v: k for k, v in POLICIES.items()}


@njit(cache=True, inline="always")
def choose_fold(policy, obs, tabs, params, st):
    """Whether the seat folds before the first lead (asked only when it may fold)."""
    if policy == RANDOM:
        return random_fold(obs, tabs, params, st)
    if policy == GREEDY:
        return greedy_fold(obs, tabs, params, st)
    return heuristic_fold(obs, tabs, params, st)


@njit(cache=True, inline="always")
def choose_lead(policy, obs, tabs, params, st, buf):
    """Play id the seat leads."""
    if policy == RANDOM:
        return random_lead(obs, tabs, params, st, buf)
    if policy == GREEDY:
        return greedy_lead(obs, tabs, params, st, buf)
    return heuristic_lead(obs, tabs, params, st, buf)


@njit(cache=True, inline="always")
def choose_follow(policy, obs, tabs, params, st, buf, kv):
    """(play id, 0) to beat, or (-1, tiles) to discard."""
    if policy == RANDOM:
        return random_follow(obs, tabs, params, st, buf)
    if policy == GREEDY:
        return greedy_follow(obs, tabs, params, st, buf)
    return heuristic_follow(obs, tabs, params, st, buf, kv)
