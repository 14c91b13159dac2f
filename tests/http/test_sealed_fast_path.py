"""The sealed fast path (issue 19 item 2, docs/trust.md "What a valid seal saves"): with
STATE_SECRET, /v1/resolve reads a state whose seal verifies without its consistency checks
(each game's `game_from_sealed`), and still checks every decision; any other state is read
and checked in full. Answers are byte for byte those of the checked path."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from typing import Any

import orjson
import pytest
from http_support import make_app, ok, post

import engine.architectura.api as arch_api
from app.errors import ApiError
from app.jsonio import Written
from app.jsonio import dumps as dumps_answer
from app.seal import Sealer
from engine.canonical import dumps, dumps_utf8
from engine.declared import Problems
from engine.errors import InvalidState
from engine.games import GAMES, engine

SECRET = "fast-path-secret-0123456789abcdefghijklmnopqrstuvwxyz"
OTHER = "fast-path-other-secret-ZYXWVUTSRQPONMLKJIHGFEDCBA98765"
BUILT_IN = ["architectura", "fora-de-prumo"]


def positions(
    game: str, games: int, every: int, variant: str | None = None, final: bool = False
) -> list[dict[str, Any]]:
    """Running states of random games (seeded: 2 to 4 seats, random legal decisions), one
    every `every` decisions, each as the engine writes it (and with `final`, each game's
    last state)."""
    eng = engine(game)
    out = []
    for seed in range(games):
        rnd = random.Random(seed)
        g = eng.new_game_internal(eng.tournament_setup(seed, 2 + seed % 3, variant))
        steps = 0
        while not eng.is_terminal(g):
            if steps % every == every - 1:
                out.append(eng.game_to_json(g))
            eng.apply_action(g, rnd.choice(eng.legal_actions(g)))
            steps += 1
        if final:
            out.append(eng.game_to_json(g))
    return out


@pytest.mark.parametrize(
    ("game", "variant"),
    [("architectura", None), ("architectura", "advanced"), ("fora-de-prumo", None)],
)
def test_the_sealed_read_answers_as_the_checked_read(game: str, variant: str | None) -> None:
    """Many random positions: every option applied by both reads gives the same bytes."""
    eng = engine(game)
    rnd = random.Random(1)
    states = positions(game, 16, 4, variant)
    assert len(states) > 100
    for state in states:
        options = eng.legal_decisions(state)["options"]
        for d in rnd.sample(options, min(3, len(options))):
            want = orjson.dumps(eng.apply_all(state, [d]))
            assert orjson.dumps(eng.apply_all(state, [d], None, True)) == want


@pytest.mark.parametrize("game", BUILT_IN)
def test_the_sealed_read_still_checks_the_decision(game: str) -> None:
    eng = engine(game)
    state = positions(game, 1, 5)[0]
    bad = {"type": "no-such-decision"}
    with pytest.raises(Exception) as checked:
        eng.apply_all(state, [bad])
    with pytest.raises(type(checked.value)) as fast:
        eng.apply_all(state, [bad], None, True)
    assert fast.value.to_json() == checked.value.to_json()  # type: ignore[attr-defined]


def _strip_seal(answer: bytes) -> bytes:
    body = orjson.loads(answer)
    del body["state"]["seal"]
    return orjson.dumps(body)


def _state_sorted(answer: bytes) -> bytes:
    """The answer with its state's keys sorted, as a sealed state is written."""
    body = orjson.loads(answer)
    body["state"] = orjson.loads(orjson.dumps(body["state"], option=orjson.OPT_SORT_KEYS))
    return orjson.dumps(body)


@pytest.mark.parametrize("game", BUILT_IN)
def test_sealed_resolve_answers_byte_for_byte_as_the_unsealed_service(game: str) -> None:
    """Through HTTP, random positions of both games: the sealed service's answer is the
    service without a secret's answer to the same state, its state's keys sorted and a seal
    added."""
    sealed, plain = make_app(STATE_SECRET=SECRET).test_client(), make_app().test_client()
    sealer = Sealer(SECRET)
    rnd = random.Random(2)
    for state in positions(game, 4, 9):
        d = rnd.choice(engine(game).legal_decisions(state)["options"])
        body = {"state": sealer.seal(state), "decisions": [d]}
        fast = sealed.post("/v1/resolve", json=body)
        assert fast.status_code == 200, fast.get_json()
        slow = plain.post("/v1/resolve", json={"state": state, "decisions": [d]})
        assert _strip_seal(fast.data) == _state_sorted(slow.data)


def _inconsistent(state: dict[str, Any]) -> dict[str, Any]:
    """The state with a pending decision it does not ask for: a consistency problem only
    the checks find (the rest of the state reads as it is)."""
    out = copy.deepcopy(state)
    out["pending"] = {**out["pending"], "seat": (out["pending"]["seat"] + 1) % 2}
    return out


@pytest.mark.parametrize("game", BUILT_IN)
def test_only_a_verified_seal_skips_the_checks(game: str) -> None:
    """What the seal vouches for is not checked again; any other state is checked in full:
    unsealed (no secret), sealed with another secret, or with a broken seal."""
    state = _inconsistent(positions(game, 1, 5)[0])
    d = engine(game).legal_decisions(positions(game, 1, 5)[0])["options"][0]
    sealed, plain = make_app(STATE_SECRET=SECRET).test_client(), make_app().test_client()

    # a state sealed with the service's secret was written by the service: trusted
    ok(post(sealed, "/v1/resolve", {"state": Sealer(SECRET).seal(state), "decisions": [d]}))
    # without a secret: read and checked
    refused = post(plain, "/v1/resolve", {"state": state, "decisions": [d]})
    assert refused.status_code == 422 and refused.get_json()["code"] == "invalid_state"
    # with a secret: anything its seal does not prove is refused before it is read
    for doc in (
        state,
        Sealer(OTHER).seal(state),
        {**Sealer(SECRET).seal(state), "seal": Sealer(OTHER).seal(state)["seal"]},
    ):
        refused = post(sealed, "/v1/resolve", {"state": doc, "decisions": [d]})
        assert refused.status_code == 422 and refused.get_json()["code"] == "state_tampered"


def test_other_readers_still_check_a_sealed_state() -> None:
    """Only /v1/resolve takes the fast path; /v1/validate reads every sealed state in full."""
    state = _inconsistent(positions("architectura", 1, 5)[0])
    sealed = make_app(STATE_SECRET=SECRET).test_client()
    out = ok(post(sealed, "/v1/validate", {"state": Sealer(SECRET).seal(state)}))
    assert not out["valid"]


@pytest.mark.parametrize("game", list(GAMES))
def test_the_seal_payload_is_the_canonical_json(game: str) -> None:
    """The seal's payload (orjson, keys sorted) is the canonical JSON's bytes for every state
    the engines write, so states sealed before it still verify."""
    for state in positions(game, 3, 11):
        assert dumps_utf8(state) == dumps(state).encode("utf-8")


@pytest.mark.parametrize(
    "value",
    [
        {"b": 1, "a": [1.5, "x"]},
        {"x": 1e-05, "y": 1e16},
        [2**70, "é", "\u2028", "\x00\x1f\x7f"],
        {"\U0001f600": 1, "\uffff": 2, "z": {"é": None, "e": True}},
        ["\ud800"],
        "a,1.5]",
        0.5,
    ],
)
def test_canonical_bytes_match_the_standard_library(value: Any) -> None:
    assert dumps_utf8(value, "surrogatepass") == dumps(value).encode("utf-8", "surrogatepass")


def test_a_seal_over_floats_still_verifies_and_still_binds() -> None:
    """The seal is checked on orjson's bytes first, then on the canonical JSON's: a document
    whose two differ (a float orjson writes otherwise, 1e-05) verifies, and a change does not."""
    sealer = Sealer(SECRET)
    doc = sealer.seal({"game": "x", "v": [1e-05, 0.5, 2**70]})
    assert orjson.dumps({"v": 1e-05}) != dumps({"v": 1e-05}).encode()
    assert sealer.open(doc) == ({"game": "x", "v": [1e-05, 0.5, 2**70]}, None)
    with pytest.raises(ApiError) as e:
        sealer.open({**doc, "v": [1e-06, 0.5, 2**70]})
    assert e.value.code == "state_tampered"


def test_an_answer_writes_a_sealed_state_once_as_the_bytes_its_seal_is_made_of() -> None:
    """/v1/resolve's state is the sorted, compact JSON of the state without its seal, then
    the seal: the bytes the MAC covers are in the answer as they are, and they open."""
    sealed, sealer = make_app(STATE_SECRET=SECRET).test_client(), Sealer(SECRET)
    state = positions("architectura", 1, 5)[0]
    d = engine("architectura").legal_decisions(state)["options"][0]
    answer = sealed.post("/v1/resolve", json={"state": sealer.seal(state), "decisions": [d]})
    assert answer.status_code == 200, answer.get_json()
    issued = orjson.loads(answer.data)["state"]
    seal = issued.pop("seal")
    payload = orjson.dumps(issued, option=orjson.OPT_SORT_KEYS)
    assert payload[:-1] + b',"seal":"' + seal.encode() + b'"}' in answer.data
    assert sealer._signer.verify_signature(payload, seal.removeprefix("v1."))
    assert sealer.open({**issued, "seal": seal}) == (issued, None)


@pytest.mark.parametrize(
    "document",
    [{"game": "x", "v": [1e-05, 0.5, 1e16]}, {}, {"game": "x", "v": [2**70]}, {"s": "\ud800"}],
)
def test_every_sealed_answer_opens_again(document: dict[str, Any]) -> None:
    """Written once where orjson writes it (floats as orjson writes them), as an object where
    it cannot (a 64-bit overflow, a lone surrogate): either way the answer, read back, opens
    to the document, and a change to it does not."""
    sealer = Sealer(SECRET)
    issued = sealer.sealed_json(document)
    if isinstance(issued, Written):
        assert "\ud800" not in str(document) and 2**70 not in document.get("v", [])
        back = orjson.loads(dumps_answer({"state": issued}))["state"]
    else:
        back = json.loads(json.dumps(issued))
    assert sealer.open(back) == (document, None)
    with pytest.raises(ApiError) as e:
        sealer.open({**back, "extra": 1})
    assert e.value.code == "state_tampered"


def test_an_embedded_state_is_written_by_the_standard_library_too() -> None:
    """An answer orjson refuses (an integer beyond 64 bits beside a sealed state) is written by
    the standard library, the embedded state as the value it is."""
    issued = Sealer(SECRET).sealed_json({"game": "x", "n": 1})
    assert isinstance(issued, Written)
    out = dumps_answer({"state": issued, "big": 2**70})
    assert json.loads(out) == {"state": orjson.loads(issued.raw), "big": 2**70}
    with pytest.raises(TypeError):
        dumps_answer({"what": object()})


# -- Architectura's sealed state, decoded without checks (serialize.game_from_sealed) ----------


def _fields(g: Any, hints: bool = True) -> dict[str, str]:
    """Every field of an Architectura game but its options' cache, as its repr (so a bool is
    not an int and a resolving step's keys keep their order); the catalog and the instance
    tables by identity; without `hints`, not where cards were last seen either (`_at`, which
    `game_from_json`'s checks update)."""
    names = [a for a in dir(g) if not a.startswith("__") and not callable(getattr(g, a))]
    assert {"city", "tasks", "_at", "inst"} <= set(names)
    skip = {"_opts", "cat", "inst"} | (set() if hints else {"_at"})
    return {a: repr(getattr(g, a)) for a in names if a not in skip}


def _sorted(state: dict[str, Any]) -> dict[str, Any]:
    """The state as a sealed state arrives: its keys sorted, read back from JSON."""
    out: dict[str, Any] = orjson.loads(orjson.dumps(state, option=orjson.OPT_SORT_KEYS))
    return out


@pytest.mark.parametrize("variant", [None, "advanced"])
def test_the_sealed_decoding_builds_the_checked_readers_game(variant: str | None) -> None:
    """Random positions of both variants, and each game's end: the sealed state decodes
    (without falling back) into the game the checked reader reads, field for field."""
    from engine.architectura import serialize

    states = positions("architectura", 24, 3, variant, final=True)
    assert len(states) > 300
    kinds = set()
    for state in states:
        sealed = _sorted(state)
        fast, (read, _) = serialize._decode(sealed, None), serialize._read(Problems(), state, None)
        assert fast.cat is read.cat and fast.inst is read.inst
        assert fast._opts is None
        assert _fields(fast) == _fields(read)
        assert _fields(serialize.game_from_sealed(sealed)) == _fields(read)
        checked = serialize.game_from_json(state)
        assert _fields(fast, hints=False) == _fields(checked, hints=False)
        assert serialize.game_to_json(fast) == state
        kinds |= {t["k"] for t in state["resolving"]}
    assert {"turn", "op"} <= kinds
    if variant == "advanced":
        assert {"pay", "fountain", "lab", "smithy"} & kinds


def _broken(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The state with one thing the service never writes, each refused by the checked
    reader and each failing to decode: a card of no seat, a missing field, a short street, a
    street too many, an unknown resolving step, a bad generator, a bad cell; or a header
    that is not this release's: too many seats, another rules version, an unknown catalog,
    another game. (The values' types are the seal's to vouch for, and not checked.)"""
    out = []
    for change in (
        lambda s: s["seats"][0]["hand"].append("purple.palace"),
        lambda s: s["seats"][1].pop("tokens"),
        lambda s: s["city"][0].pop(),
        lambda s: s["city"].append(s["city"][0]),
        lambda s: s["resolving"].append({"k": "sleep"}),
        lambda s: s["resolving"][0].pop("seat"),
        lambda s: s.update(rng="xyz"),
        lambda s: s.update(fountains=[{"cell": [1], "seat": 0}]),
        lambda s: s.update(seats=s["seats"] * 3),
        lambda s: s.update(rules_version="architectura-rules/0.9"),
        lambda s: s["catalog"].update(hash="0" * 64),
        lambda s: s.update(game="fora-de-prumo"),
        lambda s: s.pop("city"),
    ):
        doc = copy.deepcopy(state)
        change(doc)
        out.append(doc)
    return out


def test_a_sealed_state_that_does_not_decode_is_refused_as_the_checked_reader_refuses_it() -> None:
    """Whatever does not decode falls back to the checked reader: the same InvalidState
    problems, never another error nor a game."""
    from engine.architectura import serialize
    from engine.errors import InvalidState

    state = _sorted(positions("architectura", 1, 5)[0])
    for doc in _broken(state):
        with pytest.raises(InvalidState) as checked:
            serialize.game_from_json(doc)
        with pytest.raises(InvalidState) as fast:
            serialize.game_from_sealed(doc)
        assert fast.value.to_json() == checked.value.to_json()


def test_a_sealed_state_that_does_not_decode_answers_422_through_http() -> None:
    """Sealed with the service's secret (as a release writing another shape would seal it),
    a state that does not decode is answered as the service without a secret answers it."""
    state = positions("architectura", 1, 5)[0]
    d = engine("architectura").legal_decisions(state)["options"][0]
    sealed, plain = make_app(STATE_SECRET=SECRET).test_client(), make_app().test_client()
    for doc in _broken(state):
        fast = post(sealed, "/v1/resolve", {"state": Sealer(SECRET).seal(doc), "decisions": [d]})
        slow = post(plain, "/v1/resolve", {"state": doc, "decisions": [d]})
        assert fast.status_code == slow.status_code == 422, fast.get_json()
        assert fast.get_json()["problems"] == slow.get_json()["problems"]


def test_a_sealed_state_of_a_custom_catalog_decodes_with_that_catalog_only() -> None:
    """A state of a catalog sent with it decodes with that catalog (its hash names it), as
    the checked reader reads it; without the catalog it is refused as the checked reader
    refuses it (unknown_catalog), and so is a state sent with a catalog of another hash,
    a built-in one's included (it was decoded with the built-in, the catalog ignored)."""
    from scenario import reference_raw

    from engine.architectura import load_catalog, serialize
    from engine.errors import InvalidState

    raw = reference_raw()
    raw.update(id="house", name="house rules")
    house = load_catalog(raw)
    state = _sorted(positions("architectura", 1, 5)[0])
    with pytest.raises(InvalidState) as other:  # not its catalog: refused, as when checked
        serialize.game_from_sealed(state, house)
    assert other.value.problems[0].code == "unknown_catalog"
    assert serialize.game_from_sealed(state).cat.id == "reference"
    state["catalog"] = {"id": house.id, "hash": house.hash}
    fast = serialize.game_from_sealed(state, house)
    read, _ = serialize._read(Problems(), state, house)
    assert fast.cat is house and _fields(fast) == _fields(read)
    with pytest.raises(InvalidState) as checked:
        serialize.game_from_json(state)
    with pytest.raises(InvalidState) as sealed:
        serialize.game_from_sealed(state)
    assert sealed.value.to_json() == checked.value.to_json()
    assert sealed.value.problems[0].code == "unknown_catalog"


def _with(state: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(state)
    at: Any = out
    for key in path[:-1]:
        at = at[key]
    at[path[-1]] = value
    return out


def test_a_sealed_read_that_fails_outside_the_rules_is_read_again_in_full() -> None:
    """engine.protocol.apply_all: when the sealed attempt fails other than by the rules (here
    its reader raises TypeError), the state is read again with every check: a valid state
    gets the checked path's answer, an invalid one the full read's problems."""
    base = arch_api._PROTOCOL

    def broken(state: Any, catalog: Any) -> Any:
        raise TypeError("a value of the wrong type")

    protocol = dataclasses.replace(base, read_sealed=broken)
    state = positions("architectura", 1, 7)[0]
    d = base.legal_decisions(state)["options"][0]
    assert protocol.apply_all(state, [d], None, True) == base.apply_all(state, [d])
    bad = _with(state, ["turn", "number"], "7")
    with pytest.raises(InvalidState) as full:
        base.apply_all(bad, [d])
    with pytest.raises(InvalidState) as sealed:
        protocol.apply_all(bad, [d], None, True)
    assert sealed.value.to_json() == full.value.to_json()


WRONG_TYPES = [
    (["seats", 0, "hand_limit"], "x"),
    (["seats", 1, "hand_limit"], "x"),
    (["seats", 0, "tokens"], "3"),
    (["seats", 0, "mulligan_used"], "yes"),
    (["turn", "number"], "7"),
    (["turn", "seat"], 9),
    (["game_over"], "no"),
    (["seats", 0, "replacements"], []),
]


@pytest.mark.parametrize("path, value", WRONG_TYPES)
def test_a_sealed_state_with_a_wrong_value_is_never_a_crash(path: list[Any], value: Any) -> None:
    """Only a holder of the secret can seal such a state (docs/trust.md: the trust is the
    secret's), and it may be played on as it reads; but it is never a 500."""
    client = make_app(STATE_SECRET=SECRET).test_client()
    for state in positions("architectura", 2, 7)[:6]:
        d = engine("architectura").legal_decisions(state)["options"][0]
        bad = _with(state, path, value)
        body = {"state": Sealer(SECRET).seal(bad), "decisions": [d]}
        r = client.post("/v1/resolve", json=body)
        assert r.status_code in (200, 422), r.get_json()
