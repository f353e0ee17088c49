"""Verification of protocol specs: exact (every input, every shuffle outcome) and statistical.

* :mod:`.exact` runs every input through every shuffle outcome and checks correctness,
  security, tidiness and the paper's counts (:mod:`.checks`);
* :mod:`.statistical` runs a game protocol many times on the full deck (chi-square tests);
* :mod:`.deck` verifies a game protocol exactly on a whole deck, by validity classes
  (:mod:`.classes`) and one table per orbit of scrambled columns (:mod:`.symmetry`);
* :mod:`.setting` binds a protocol to its parameters and to a scenario of its game;
* :mod:`.inputs` lists the inputs to run through and describes inputs and views;
* :mod:`.forecast` measures smaller sizes to say what a big one will take;
* :mod:`.partition` splits an exact verification over processes (``workers``) and
  :mod:`.cluster` over a Dask cluster;
* :mod:`reference_engine.report` is the report both give (a layer down: a kind reports in it too).
"""

from __future__ import annotations

from ..report import VERSION, Check, Report, count_text, empty_stats, views_phrase
from .classes import Table
from .cluster import DaskBackend
from .deck import deck_claim, deck_refusal, verify_deck, verify_hands, whole_table
from .exact import ExactRun, outcome_distribution, run_exact, verify
from .forecast import Forecast, forecast
from .inputs import (
    MAX_INPUTS,
    deals,
    describe_inputs,
    describe_value,
    describe_view,
    input_assignments,
    value_scope,
)
from .setting import Setting, setting
from .statistical import verify_runs

__all__ = [
    "MAX_INPUTS",
    "VERSION",
    "Check",
    "DaskBackend",
    "ExactRun",
    "Forecast",
    "Report",
    "Setting",
    "Table",
    "count_text",
    "deals",
    "deck_claim",
    "deck_refusal",
    "describe_inputs",
    "describe_value",
    "describe_view",
    "empty_stats",
    "forecast",
    "input_assignments",
    "outcome_distribution",
    "run_exact",
    "setting",
    "value_scope",
    "verify",
    "verify_deck",
    "verify_hands",
    "verify_runs",
    "views_phrase",
    "whole_table",
]
