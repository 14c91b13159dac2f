"""The seeded generator whose state travels inside the game state (A-1.6).

SplitMix64: tiny, fully specified, and its whole state is one 64-bit integer, so a state
written by any client reproduces the same shuffles. Stored as a 16-digit hex string because
JSON numbers above 2**53 are not safe in every client language.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")
MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def seed_to_state(seed: int) -> int:
    return seed & MASK


def next_u64(state: int) -> tuple[int, int]:
    """Advance the generator: returns (new_state, output)."""
    state = (state + GOLDEN) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """An unbiased integer in [0, n) by rejection sampling."""
    limit = MASK + 1 - ((MASK + 1) % n)
    while True:
        state, x = next_u64(state)
        if x < limit:
            return state, x % n


def shuffle(state: int, items: list[T]) -> int:
    """Fisher-Yates shuffle of `items` in place; returns the new generator state.

    `below` and `next_u64` inlined: two Python calls per card were most of a game's set-up.
    The draws, rejections and final state are exactly theirs. An output below
    2**64 - len(items) is below every rejection limit of the loop (2**64 % n < n), so only
    outputs in that top sliver (never seen in practice) meet the exact limit, and one it
    rejects is drawn again by `below`."""
    mask, golden = MASK, GOLDEN
    safe = MASK + 1 - len(items)
    for i in range(len(items) - 1, 0, -1):
        state = (state + golden) & mask
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        if z < safe or z < MASK + 1 - ((MASK + 1) % (i + 1)):
            j = z % (i + 1)
        else:  # rejected: draw again exactly as `below` does
            state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def to_hex(state: int) -> str:
    return f"{state:016x}"


def from_hex(text: str) -> int:
    if len(text) != 16:
        raise ValueError("generator state must be 16 hex digits")
    return int(text, 16)
