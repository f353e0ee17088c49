"""Fixtures shared by the tests of the interpreter's machinery."""

from __future__ import annotations

import pytest

from reference_engine.machine import relabel as rl


@pytest.fixture
def relabel_fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing kept by machine/relabel.py: laws, refusals, the symbol table's state, evaluators
    and the first enumerations' plans (each test starts as a fresh process would)."""
    monkeypatch.setattr(rl, "_KEPT", {})
    monkeypatch.setattr(rl, "_REFUSED", set())
    monkeypatch.setattr(rl, "_TABLE", [None, {}])
    monkeypatch.setattr(rl, "_EVALUATORS", {})
    monkeypatch.setattr(rl, "_PLANS_OF", {})
