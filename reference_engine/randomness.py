"""The random draws of a game loop, the same numbers :class:`random.Random` gives, drawn faster.

A seeded game must play the same for the same seed, so its draws must be exactly those of
``Random.shuffle`` and ``Random.randrange``. For a plain :class:`random.Random` both come down to
``_randbelow``, which calls ``getrandbits(k)`` until the number is below ``n``; :func:`shuffle`
and :func:`below` draw those same bits without a Python call per draw. For any other generator
(a subclass with its own ``random``) they call its own methods.
"""

from __future__ import annotations

import random
from typing import Any

_PLAIN = getattr(random.Random, "_randbelow_with_getrandbits", None)


def plain(rng: random.Random) -> bool:
    """Whether ``rng`` draws below ``n`` as a plain :class:`random.Random` does: ``getrandbits(k)``
    (``k`` the bit length of ``n``) until the number is below ``n``, and shuffles and draws
    ``randrange`` with it (a subclass with its own ``shuffle`` or ``randrange`` is not plain)."""
    kind = type(rng)
    return (
        _PLAIN is not None
        and getattr(kind, "_randbelow", None) is _PLAIN
        and getattr(kind, "shuffle", None) is random.Random.shuffle
        and getattr(kind, "randrange", None) is random.Random.randrange
    )


def shuffle(rng: random.Random, x: list[Any]) -> None:
    """``rng.shuffle(x)``: the same permutation, the same generator state afterwards."""
    if not plain(rng):
        rng.shuffle(x)
        return
    bits = rng.getrandbits
    for i, k in _steps(len(x)):
        j = bits(k)
        while j > i:
            j = bits(k)
        x[i], x[j] = x[j], x[i]


_STEPS: dict[int, tuple[tuple[int, int], ...]] = {}


def _steps(size: int) -> tuple[tuple[int, int], ...]:
    """The steps of shuffling ``size`` items: each position from the last down to 1, with the
    bit length of the number of positions it draws from (kept per size)."""
    steps = _STEPS.get(size)
    if steps is None:
        steps = _STEPS[size] = tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
    return steps


def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n >= 1``."""
    if not plain(rng):
        return rng.randrange(n)
    k = n.bit_length()
    bits = rng.getrandbits
    r = bits(k)
    while r >= n:
        r = bits(k)
    return r


def drawer(rng: random.Random) -> Any:
    """A function ``n -> rng.randrange(n)`` (for ``n >= 1``) without the argument checks."""
    return getattr(rng, "_randbelow") if plain(rng) else rng.randrange  # noqa: B009 - private
