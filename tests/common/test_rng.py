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


def test_shuffle_matches_the_reference_on_long_lists() -> None:
    """Shuffles of LANES_FROM items or more compute their draws side by side (`_outputs`)."""
    rnd = random.Random(11)
    for n in (rng.LANES_FROM - 1, rng.LANES_FROM, 60, 120, 299):
        for _ in range(40):
            state = rnd.getrandbits(64)
            a, b = list(range(n)), list(range(n))
            assert rng.shuffle(state, a) == reference_shuffle(state, b)
            assert a == b


def test_a_later_draw_in_the_top_sliver_agrees_with_the_reference() -> None:
    """Draw k of a side-by-side shuffle lands in the top sliver (an output of 2**64 - n or
    more): from there the shuffle goes on one draw at a time with `below`'s exact test, which
    rejects some of these outputs and accepts others."""
    for n in (rng.LANES_FROM, 12, 24, 100):
        for k in (1, 2, n // 2, n - 2):
            first_rejected = MASK + 1 - ((MASK + 1) % (n - k))  # 2**64 for a power of two
            for out in (MASK, MASK - 1, MASK + 1 - n, min(first_rejected, MASK)):
                state = (state_before_output(out) - k * GOLDEN) & MASK  # draw k outputs `out`
                assert rng.next_u64((state + k * GOLDEN) & MASK)[1] == out
                a, b = list(range(n)), list(range(n))
                assert rng.shuffle(state, a) == reference_shuffle(state, b)
                assert a == b
