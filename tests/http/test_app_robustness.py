"""No input reaches the catch-all: corrupted real states and decisions sent to every
endpoint give documented 4xx problems (or 200), never a 5xx.

The last tests are minimal reproductions of engine crashes this fuzzing found (each was a
500; fixed in the engine by commit 357543a, kept as regression tests).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from http_support import STATE_POSTS, check_response, json_paths, make_app, mid_game, play_random
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.architectura as arch

APP = make_app()
CLIENT = APP.test_client()


def _states() -> list[dict[str, Any]]:
    out = [arch.new_game({"seats": 2, "seed": 7})]
    out.append(mid_game(4, 3, 24))
    out.append(mid_game(3, 8, 40))
    end, _ = play_random(arch.new_game({"seats": 2, "seed": 5}), 10_000, 5)
    out.append(end)
    return out


STATES = _states()

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.sampled_from([2**40, -(2**63), 1.5, "", "x", "blue.well", "red.palace", "A-1", "turn"]),
    st.lists(st.integers(0, 9), max_size=3),
    st.just({}),
    st.just({"k": "turn", "seat": 0}),
)


@st.composite
def corrupted(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """(a real state, a corrupted copy of it)."""
    original = draw(st.sampled_from(STATES))
    state = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, 3))):
        paths = json_paths(state)[1:]
        path = draw(st.sampled_from(paths))
        parent: Any = state
        for k in path[:-1]:
            parent = parent[k]
        action = draw(st.sampled_from(["replace", "replace", "delete", "copy"]))
        if action == "delete":
            del parent[path[-1]]
        elif action == "copy":
            other = draw(st.sampled_from(paths))
            node: Any = state
            try:
                for k in other:
                    node = node[k]
            except (KeyError, IndexError, TypeError):
                continue
            parent[path[-1]] = copy.deepcopy(node)
        else:
            parent[path[-1]] = draw(JUNK)
    return original, state


def _decisions(original: dict[str, Any]) -> list[Any]:
    """A decision legal in the uncorrupted state (or a pass once it is over)."""
    opts = [] if original["game_over"] else arch.legal_decisions(original)["options"]
    return opts[:1] or [{"type": "pass"}]


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(pair=corrupted(), path=st.sampled_from(STATE_POSTS), seat=st.integers(0, 3))
def test_corrupted_states_never_crash(
    pair: tuple[dict[str, Any], dict[str, Any]], path: str, seat: int
) -> None:
    original, state = pair
    body: dict[str, Any] = {"state": state}
    if path in ("/v1/resolve", "/v1/replay"):
        body["decisions"] = _decisions(original)
    if path == "/v1/view":
        body["seat"] = seat
    r = CLIENT.post(path, json=body)
    assert r.status_code < 500, r.get_json()
    check_response("POST", path, r)


DECISION_JUNK = st.dictionaries(
    st.sampled_from(["type", "seat", "card", "cell", "target", "steps", "x"]),
    st.one_of(
        JUNK,
        st.sampled_from(list(arch.api.DECISION_TYPES)),
        st.lists(st.integers(-1, 9), min_size=2, max_size=2),
    ),
    max_size=5,
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    state=st.sampled_from(STATES),
    decisions=st.lists(DECISION_JUNK, min_size=1, max_size=3),
    replay=st.booleans(),
)
def test_corrupted_decisions_never_crash(
    state: dict[str, Any], decisions: list[dict[str, Any]], replay: bool
) -> None:
    path = "/v1/replay" if replay else "/v1/resolve"
    r = CLIENT.post(path, json={"state": state, "decisions": decisions})
    assert r.status_code < 500, r.get_json()
    body = check_response("POST", path, r)
    if r.status_code == 422:
        assert body["index"] == 0 or body["pointer"].startswith(f"/decisions/{body['index']}")


@pytest.mark.parametrize("decisions", [3, 10])
def test_valid_prefix_then_junk_is_all_or_nothing(decisions: int) -> None:
    start = arch.new_game({"seats": 3, "seed": 2})
    _, log = play_random(start, decisions, 2)
    r = CLIENT.post("/v1/resolve", json={"state": start, "decisions": [*log, {"type": "x"}]})
    body = check_response("POST", "/v1/resolve", r)
    assert r.status_code == 422 and body["index"] == decisions
    assert "state" not in body


# -- engine crashes (minimal reproductions) ---------------------------------------------------


def _after_first_play() -> dict[str, Any]:
    s = arch.new_game({"seats": 2, "seed": 7})
    s, _ = arch.apply(s, arch.legal_decisions(s)["options"][0])  # blue.villa on [1, 1]
    return s


def test_engine_bug_task_def_not_a_string() -> None:
    """serialize._read_task: `v not in g.cat.cards` with an unhashable `def` -> TypeError."""
    s = arch.new_game({"seats": 2, "seed": 7})
    s["resolving"].append({"k": "effect", "seat": 0, "src": "blue.villa", "def": ["x"], "i": 0})
    r = CLIENT.post("/v1/validate", json={"state": s})
    assert r.status_code == 200, r.get_json()
    assert check_response("POST", "/v1/validate", r)["valid"] is False


def test_engine_bug_op_step_on_a_non_targeted_operation() -> None:
    """An `op` resolving step whose operation is `special` passes validation; then
    serialize.pending_json raises KeyError('special')."""
    s = _after_first_play()
    s["pending"] = None
    s["resolving"].append(
        {"k": "op", "seat": 1, "src": "blue.villa", "def": "fountain", "i": 0, "n": 0, "done": []}
    )
    r = CLIENT.post("/v1/legal-moves", json={"state": s})
    assert r.status_code == 422, r.get_json()


def test_engine_bug_guesthouse_step_for_a_card_not_in_the_city() -> None:
    """A `guesthouse` resolving step whose target is in a deck passes validation; applying
    any of its options then raises IndexError in city.move_now / flow."""
    s = arch.new_game({"seats": 2, "seed": 7})
    s["pending"] = None
    s["resolving"].append(
        {"k": "guesthouse", "seat": 0, "target": "blue.market", "clause": "A-5.2"}
    )
    r = CLIENT.post("/v1/resolve", json={"state": s, "decisions": [{"type": "decline", "seat": 0}]})
    assert r.status_code == 422, r.get_json()


@pytest.mark.parametrize("kind", [[], {}, ["play"]])
def test_engine_bug_decision_type_not_a_string(kind: Any) -> None:
    """api.parse_decision: `kind not in DECISION_TYPES` with an unhashable `type` -> TypeError."""
    s = arch.new_game({"seats": 2, "seed": 7})
    r = CLIENT.post("/v1/resolve", json={"state": s, "decisions": [{"type": kind}]})
    assert r.status_code == 422, r.get_json()
    assert check_response("POST", "/v1/resolve", r)["pointer"] == "/decisions/0/type"
