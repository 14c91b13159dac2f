"""Behaviour identity of the Architectura engine with commit 5295b59 (issue 10).

The engine is tuned for speed; its behaviour must not move by one byte. A fixed set of
seeded random games (2-4 seats, basic and advanced) is played through both faces:
- in memory (what the bots use): the decider and options before every decision, the chosen
  action, the canonical JSON state after it, the events when a log is kept (odd seeds), the
  returns at the end, and worlds sampled from the decider's view (WorldSampler) played out;
- as JSON (what the HTTP layer uses): legal_decisions, every seat's player_view, and the
  state and events `apply` returns.
Each game is folded into one SHA-256 and compared with the digests recorded from 5295b59 in
tests/data/engine_identity_5295b59.json. The fixture was written by this same file run
against a checkout of that commit (only APIs that already existed there are used):

    git archive 5295b59 | tar -x -C /tmp/base
    PYTHONPATH=/tmp/base .venv/bin/python -P tests/architectura/test_pinned_games.py \\
        --write tests/data/engine_identity_5295b59.json
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import engine.architectura as arch
from engine.canonical import dumps

FIXTURE = Path(__file__).parents[1] / "data" / "engine_identity_5295b59.json"
MEMORY_CASES = [(n, v, s) for n in (2, 3, 4) for v in ("basic", "advanced") for s in range(40)]
JSON_CASES = [(n, v, s) for n in (2, 3, 4) for v in ("basic", "advanced") for s in range(100, 103)]
SAMPLE_EVERY = 7  # decisions between two sampled worlds


def setup_of(seats: int, variant: str, seed: int) -> dict[str, Any]:
    setup: dict[str, Any] = {"seats": seats, "seed": seed, "variant": variant}
    if variant == "advanced":
        cat = arch.builtin_catalogs()["reference"]
        setup["replacements"] = arch.random_replacements(cat, random.Random(seed), seats)
    return setup


def _feed(h: Any, value: Any) -> None:
    h.update(dumps(value).encode())
    h.update(b"\n")


def _play_out(g: arch.Game, rnd: random.Random, h: Any) -> None:
    while not arch.is_terminal(g):
        opts = arch.legal_actions(g)
        _feed(h, [arch.current_player(g), opts])
        arch.apply_action(g, rnd.choice(opts))
    _feed(h, arch.returns(g))


def memory_digest(seats: int, variant: str, seed: int) -> str:
    h = hashlib.sha256()
    rnd = random.Random(seed * 31 + seats)
    g = arch.new_game_internal(setup_of(seats, variant, seed))
    if seed % 2:
        g.log = []
    decisions = 0
    while not g.over:
        opts = arch.legal_actions(g)
        seat = arch.current_player(g)
        _feed(h, [seat, opts])
        if decisions % SAMPLE_EVERY == 0:
            assert seat is not None
            sampler = arch.WorldSampler(arch.game_view(g, seat))
            world = sampler.sample(random.Random(decisions))
            _feed(h, arch.game_to_json(world))
            _play_out(world, random.Random(decisions + 1), h)
            _play_out(g.copy(), random.Random(decisions + 2), h)
        a = rnd.choice(opts)
        arch.apply_action(g, a)
        decisions += 1
        _feed(h, [a, arch.game_to_json(g)])
        if g.log:
            _feed(h, g.log)
            g.log.clear()
    _feed(h, [arch.returns(g), arch.final_scores(g)])
    return h.hexdigest()


def json_digest(seats: int, variant: str, seed: int) -> str:
    h = hashlib.sha256()
    rnd = random.Random(seed * 31 + seats)
    state = arch.new_game(setup_of(seats, variant, seed))
    while True:
        ld = arch.legal_decisions(state)
        _feed(h, ld)
        _feed(h, [arch.player_view(state, s) for s in range(seats)])
        if ld["game_over"]:
            break
        state, events = arch.apply(state, rnd.choice(ld["options"]))
        _feed(h, [state, events])
    _feed(h, arch.score(state))
    return h.hexdigest()


def case_id(face: str, seats: int, variant: str, seed: int) -> str:
    return f"{face}-{seats}p-{variant}-{seed}"


def all_digests() -> dict[str, str]:
    out = {case_id("memory", *c): memory_digest(*c) for c in MEMORY_CASES}
    out.update({case_id("json", *c): json_digest(*c) for c in JSON_CASES})
    return out


def _recorded() -> dict[str, str]:
    data: dict[str, str] = json.loads(FIXTURE.read_text())["digests"]
    return data


@pytest.mark.parametrize("case", MEMORY_CASES, ids=lambda c: case_id("memory", *c))
def test_memory_face_matches_5295b59(case: tuple[int, str, int]) -> None:
    assert memory_digest(*case) == _recorded()[case_id("memory", *case)]


@pytest.mark.parametrize("case", JSON_CASES, ids=lambda c: case_id("json", *c))
def test_json_face_matches_5295b59(case: tuple[int, str, int]) -> None:
    assert json_digest(*case) == _recorded()[case_id("json", *case)]


def test_fixture_covers_every_case_and_the_cards() -> None:
    """The recorded set is exactly the cases played, and the games reach every card kind."""
    ids = {case_id("memory", *c) for c in MEMORY_CASES} | {case_id("json", *c) for c in JSON_CASES}
    assert set(_recorded()) == ids
    played: set[str] = set()
    for seats, variant, seed in MEMORY_CASES:
        g = arch.new_game_internal(setup_of(seats, variant, seed))
        played.update(c.id for c in g.inst.cdef)
    assert played == set(arch.builtin_catalogs()["reference"].cards)


if __name__ == "__main__":
    if sys.argv[1:2] != ["--write"] or len(sys.argv) != 3:
        sys.exit("usage: test_pinned_games.py --write FILE")
    digests = all_digests()
    record = {
        "recorded_from": "5295b59",
        "how": "see tests/architectura/test_pinned_games.py",
        "digests": digests,
    }
    Path(sys.argv[2]).write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    print(f"{len(digests)} digests written from {arch.__file__}")
