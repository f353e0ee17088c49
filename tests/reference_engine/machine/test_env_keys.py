"""The variables' kept table (reference_engine/machine/frontier.py ``env_set``, and the compiled
``for``/``let`` that look it up directly, compiled/ops.py) must key a value by its type too.

``True == 1`` and ``hash(True) == hash(1)`` in Python, so a table keyed by ``(env, name, value)``
hands ``let x = true`` the environment an earlier ``let x = 1`` from the same environment made:
the variable then holds 1 where the spec said true (its public output, a record's JSON, a text
that prints it), depending on what ran earlier in the process. Both engines share the table, so
the differential tests cannot see it.
"""

from __future__ import annotations

import pytest

from reference_engine.machine.frontier import env_set

NAME = "kg_env_keys_attack"  # a name no spec uses: the entries made here touch no other test


@pytest.mark.xfail(
    strict=True,
    reason="env_set keys by ==; the fix (key by kept.exact, in env_set and the compiled for/let's "
    "direct look-ups) is on both engines' hot path: left to the engine owners (w49-attack2)",
)
def test_a_variable_set_to_true_after_1_holds_true() -> None:
    base = (("kg_env_keys_other", 0),)
    assert env_set(base, NAME, 1) == ((NAME, 1), ("kg_env_keys_other", 0))
    got = dict(env_set(base, NAME, True))[NAME]
    assert got is True, f"{got!r} ({type(got).__name__})"
