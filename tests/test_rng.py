"""The seeded generator (A-1.6, F-1.9): the inlined shuffle gives exactly the permutation and
generator state of the reference Fisher-Yates over `below`, including the rare rejected draws
of the unbiased sampling (forced here by inverting SplitMix64's output mixer)."""

from __future__ import annotations

import random

from engine import rng
from engine.rng import GOLDEN, MASK


def reference_shuffle(state: int, items: list[int]) -> int:
    """The plain definition: Fisher-Yates, each index drawn with `below` (rejection sampling)."""
    for i in range(len(items) - 1, 0, -1):
        state, j = rng.below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def _unxorshift(z: int, k: int) -> int:
    x = z
    for _ in range(64 // k + 1):
        x = z ^ (x >> k)
    return x & MASK


def state_before_output(output: int) -> int:
    """The generator state whose next output is `output` (SplitMix64's mixer is a bijection)."""
    z = _unxorshift(output, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK
    z = _unxorshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK
    z = _unxorshift(z, 30)
    return (z - GOLDEN) & MASK


def test_the_inverse_mixer_is_right() -> None:
    for out in (0, 1, MASK, MASK - 5, 0x123456789ABCDEF0):
        assert rng.next_u64(state_before_output(out))[1] == out


def test_shuffle_matches_the_reference_on_random_states() -> None:
    rnd = random.Random(7)
    for _ in range(3000):
        n = rnd.randrange(0, 40)
        state = rnd.getrandbits(64)
        a, b = list(range(n)), list(range(n))
        assert rng.shuffle(state, a) == reference_shuffle(state, b)
        assert a == b


def test_shuffle_matches_the_reference_when_draws_are_rejected() -> None:
    """The first draw of a shuffle of n items picks below(n); an output in the top
    2**64 % n values is rejected and drawn again. Both paths must agree exactly."""
    for n in (3, 5, 6, 7, 12, 24, 37):
        rejected = MASK + 1 - ((MASK + 1) % n)  # the first rejected output
        assert rejected <= MASK  # n is no power of two: some outputs are rejected
        for out in (rejected, MASK, (rejected + MASK) // 2):
            state = state_before_output(out)
            assert rng.below(state, n)[0] != rng.next_u64(state)[0]  # really drawn again
            a, b = list(range(n)), list(range(n))
            assert rng.shuffle(state, a) == reference_shuffle(state, b)
            assert a == b
        # the output just below the rejected region is accepted, and agrees too
        state = state_before_output(rejected - 1)
        a, b = list(range(n)), list(range(n))
        assert rng.shuffle(state, a) == reference_shuffle(state, b) and a == b
