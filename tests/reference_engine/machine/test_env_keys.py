"""The variables' kept table (reference_engine/machine/frontier.py ``env_set``, and the compiled
``for``/``let`` that look it up directly, compiled/ops.py) must key a value by its type too.

``True == 1`` and ``hash(True) == hash(1)`` in Python, so a table keyed by ``(env, name, value)``
hands ``let x = true`` the environment an earlier ``let x = 1`` from the same environment made:
the variable then holds 1 where the spec said true (its public output, a record's JSON, a text
that prints it), depending on what ran earlier in the process. Both engines share the table, so
the differential tests cannot see it (w49-attack2's finding; now keyed by ``kept.exact``).
"""

from __future__ import annotations

from reference_engine.machine.frontier import env_kept, env_set

NAME = "kg_env_keys_attack"  # a name no spec uses: the entries made here touch no other test


def test_a_variable_set_to_true_after_1_holds_true() -> None:
    base = (("kg_env_keys_other", 0),)
    assert env_set(base, NAME, 1) == ((NAME, 1), ("kg_env_keys_other", 0))
    got = dict(env_set(base, NAME, True))[NAME]
    assert got is True, f"{got!r} ({type(got).__name__})"


def test_an_env_equal_to_a_kept_one_but_of_other_types_keeps_its_own_values() -> None:
    """``(("a", True),) == (("a", 1),)``: a kept entry made from one must not answer the other."""
    with_1 = (("kg_env_keys_a", 1),)
    with_true = (("kg_env_keys_a", True),)
    assert dict(env_set(with_1, NAME, 5))["kg_env_keys_a"] == 1
    got = dict(env_set(with_true, NAME, 5))["kg_env_keys_a"]
    assert got is True, f"{got!r} ({type(got).__name__})"


def test_the_compiled_direct_look_up_answers_only_for_that_very_env() -> None:
    """compiled/ops.py's for/let look the table up directly (``env_kept``): an env equal to the
    kept one but another object (maybe of other types) goes through ``env_set``."""
    base = (("kg_env_keys_b", 2),)
    made = env_set(base, NAME, 3)
    assert env_kept(base, NAME, 3) is made
    assert env_kept((("kg_env_keys_b", 2.0),), NAME, 3) is None  # equal, not the same object
    env_set(base, NAME, 1)
    assert env_kept(base, NAME, True) is None  # 1 kept, True not: keyed by type too


def test_envs_compare_by_their_kept_keys_as_by_exact() -> None:
    """env_set compares a kept env with another object by exact_env's keys: equal exactly when
    exact()'s are, for plain envs, envs of nested rows, truths, None and mixes of them."""
    from reference_engine.kept import exact, exact_env

    values: list[object] = [1, True, "1", None, (1, 2), (True, 2), ((1, 2),), ((True, 2),), ((1,), 2), ()]
    envs: list[tuple[tuple[str, object], ...]] = [((n, v),) for n in ("a", "b") for v in values]
    envs += [(("a", v), ("b", w)) for v in values for w in values[:5]]
    copies = [tuple((n, v) for n, v in env) for env in envs]  # equal, other objects
    for a in envs:
        for b in copies:
            assert (exact_env(a) == exact_env(b)) is (exact(a) == exact(b)), (a, b)


def test_an_env_with_nested_rows_of_other_types_keeps_its_own_values() -> None:
    with_1 = (("kg_env_keys_c", ((1, 2),)),)
    with_true = (("kg_env_keys_c", ((True, 2),)),)
    again = (("kg_env_keys_c", ((1, 2),)),)  # equal to with_1 and of its types: served its entry
    made = env_set(with_1, NAME, 5)
    assert env_set(again, NAME, 5) is made
    got = dict(env_set(with_true, NAME, 5))["kg_env_keys_c"]
    assert got[0][0] is True, f"{got!r}"
