"""The strict JSON reader: forged or malformed states are refused with every problem listed,
each with a code, a clause where a rule is broken, and a JSON pointer; no JSON value makes it
raise anything but InvalidState, and its cost is bounded by what the game can hold."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from fdp_support import PASS, SKIP, State, arrange, deep_list, fresh, lay, play
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.fora_de_prumo as fdp
from engine.errors import IllegalDecision, InvalidState

LOOK = {"type": "look"}


def rich() -> State:
    """Seat 0: a converted corredor and a bar, the designer spent, Madeira cloned by the
    teórica, the coordenadora; it is seat 0's buy step, after a look."""
    hands = {0: ["SP05", "SP10", "PE03", "MA06", "PE06", "PR02", "PE01"]}
    s = arrange(fresh(2, seed=41), hands=hands)
    for d in (
        lay("SP05", 0, 0, 0),
        lay("SP10", 0, -1, 0),
        lay("PE03"),
        lay("MA06"),
        lay("PE06"),
        lay("PE01"),
        {"type": "convert", "designer": "PE03", "target": "SP05"},
        {"type": "clone", "card": "PR02", "target": "MA06"},
    ):
        s = play(s, SKIP, d, {"type": "buy", "card": s["market"][0]}, PASS)
    return play(s, LOOK)


RICH = rich()


def problems(state: Any) -> set[tuple[str, str]]:
    return {(p.code, p.pointer) for p in fdp.validate(state)}


def forged(fn: Callable[[State], Any]) -> State:
    s = copy.deepcopy(RICH)
    fn(s)
    return s


def test_F_2_7_a_rich_state_is_valid_and_round_trips_exactly() -> None:
    assert fdp.validate(RICH) == []
    assert fdp.game_to_json(fdp.load(RICH)) == RICH
    assert fdp.game_to_json(fdp.load(json.loads(json.dumps(RICH)))) == RICH
    w = RICH["seats"][0]["work"]
    assert w["converted"] == ["SP05"] and w["clones"] == [{"target": "MA06", "card": "PR02"}]
    assert len(RICH["turn"]["peeked"]) == 2


def w0(s: State) -> dict[str, Any]:
    work: dict[str, Any] = s["seats"][0]["work"]
    return work


def move_to_deck(s: State, card: str) -> None:
    s["deck"].append(card)


CASES: list[tuple[str, Callable[[State], Any], str, str, str | None]] = [
    (
        "card in two places",
        lambda s: s["deck"].append(s["seats"][1]["hand"][0]),
        "duplicate_card",
        "/deck/-",
        "F-1.3",
    ),
    ("card missing", lambda s: s["deck"].pop(), "missing_cards", "", "F-1.3"),
    ("card not in use", lambda s: s["deck"].append("SP06"), "card_not_in_use", "/deck/-", "F-1.3"),
    ("unknown card", lambda s: s["deck"].append("XX01"), "unknown_card", "/deck/-", "F-2.1"),
    (
        "overlap",
        lambda s: w0(s)["building"][1].update(x=0, y=0, r=0),
        "cell_occupied",
        "/seats/0/work/building/1",
        "F-4.3",
    ),
    (
        "disconnected",
        lambda s: w0(s)["building"][1].update(x=7, y=7),
        "no_connection",
        "/seats/0/work/building/1",
        "F-4.3",
    ),
    (
        "first space off the origin",
        lambda s: w0(s)["building"][0].update(x=1),
        "first_space_at_origin",
        "/seats/0/work/building/0",
        "F-R10",
    ),
    (
        "site card in the building",
        lambda s: w0(s)["building"].append({"card": w0(s)["site"].pop(), "x": 1, "y": 1, "r": 0}),
        "not_a_space",
        "/seats/0/work/building/2/card",
        "F-3.5",
    ),
    (
        "space in the site",
        lambda s: w0(s)["site"].append(w0(s)["building"].pop()["card"]),
        "not_a_site_card",
        "/seats/0/work/site/4",
        "F-3.5",
    ),
    (
        "clone on a card not in the site",
        lambda s: w0(s)["clones"][0].update(target="PE03"),
        "clone_target",
        "/seats/0/work/clones/0/target",
        "F-6.6",
    ),
    (
        "clone without the teorica",
        lambda s: (w0(s)["site"].remove("PE06"), move_to_deck(s, "PE06")),
        "no_teorica",
        "/seats/0/work/clones",
        "F-6.6",
    ),
    (
        "conversion without a spent designer",
        lambda s: w0(s).update(spent=[]),
        "conversion_count",
        "/seats/0/work/spent",
        "F-R20",
    ),
    (
        "spent card is no designer",
        lambda s: w0(s).update(spent=["PE06"]),
        "no_designer",
        "/seats/0/work/spent/0",
        "F-R20",
    ),
    (
        "conversion of a space elsewhere",
        lambda s: w0(s).update(converted=["SP01"]),
        "convert_target",
        "/seats/0/work/converted/0",
        "F-R20",
    ),
    (
        "pending that does not follow",
        lambda s: s["pending"]["options"].pop(),
        "inconsistent_pending",
        "/pending",
        "F-3.1",
    ),
    ("rng too short", lambda s: s.update(rng="abc"), "invalid_rng", "/rng", "F-1.9"),
    ("rng upper case", lambda s: s.update(rng=s["rng"].upper()), "invalid_rng", "/rng", "F-1.9"),
    ("rng with a 0x", lambda s: s.update(rng="0x" + s["rng"][2:]), "invalid_rng", "/rng", "F-1.9"),
    ("rng as a number", lambda s: s.update(rng=12), "invalid_rng", "/rng", "F-1.9"),
    ("rng with a newline", lambda s: s.update(rng=s["rng"] + "\n"), "invalid_rng", "/rng", "F-1.9"),
    (
        "peeked in the wrong order",
        lambda s: s["turn"]["peeked"].reverse(),
        "inconsistent_peek",
        "/turn/peeked",
        "F-R19",
    ),
    ("wrong seat", lambda s: s["turn"].update(seat=1), "turn_order", "/turn/seat", "F-1.1"),
    (
        "final step outside the final round",
        lambda s: s["turn"].update(step="final"),
        "inconsistent_turn",
        "/turn/step",
        "F-8.2",
    ),
    (
        "market short",
        lambda s: s["deck"].append(s["market"].pop()),
        "market_size",
        "/market",
        "F-3.6",
    ),
    (
        "purchase in the buy step",
        lambda s: s["turn"].update(bought=s["seats"][1]["hand"][0]),
        "inconsistent_turn",
        "/turn/bought",
        "F-3.1",
    ),
    (
        "final round with a stranger order",
        lambda s: s.update(final_round={"triggered_by": 0, "remaining": [0, 1]}),
        "invalid_final_round",
        "/final_round/remaining",
        "F-R25",
    ),
    (
        "bad catalog hash",
        lambda s: s["catalog"].update(hash="sha256:0"),
        "unknown_catalog",
        "/catalog",
        "F-2.1",
    ),
    ("another game", lambda s: s.update(game="architectura"), "wrong_game", "/game", None),
    ("one seat", lambda s: s["seats"].pop(), "invalid_seat_count", "/seats", "F-1.1"),
    ("unknown field", lambda s: s.update(extra=1), "unknown_field", "/extra", None),
    (
        "unknown seat field",
        lambda s: s["seats"][1].update(colour="red"),
        "unknown_field",
        "/seats/1/colour",
        None,
    ),
    ("missing field", lambda s: s.pop("passes"), "missing_field", "/passes", None),
    ("scores too early", lambda s: s.update(scores={}), "inconsistent_scores", "/scores", "F-8.4"),
    ("passes out of range", lambda s: s.update(passes=2), "out_of_range", "/passes", "F-R27"),
]


@pytest.mark.parametrize(
    ("what", "fn", "code", "pointer", "clause"), CASES, ids=[c[0] for c in CASES]
)
def test_forged_state_refused(
    what: str, fn: Callable[[State], Any], code: str, pointer: str, clause: str | None
) -> None:
    s = forged(fn)
    got = fdp.validate(s)
    if pointer.endswith("/-"):  # the last element of the list named
        base = pointer[:-2]
        pointer = f"{base}/{len(s[base.strip('/')]) - 1}"
    match = [p for p in got if p.code == code and p.pointer == pointer]
    assert match, (what, [(p.code, p.pointer) for p in got])
    assert match[0].clause == clause and match[0].detail
    with pytest.raises(InvalidState) as e:
        fdp.apply(s, SKIP)
    assert e.value.problems == got


def test_F_1_3_F_4_3_every_problem_is_listed_at_once() -> None:
    def three(s: State) -> None:
        s["deck"].append("XX01")
        w0(s)["building"][1].update(x=7, y=7)
        s["rng"] = "nothex!!nothex!!"

    got = problems(forged(three))
    assert {("unknown_card", f"/deck/{len(RICH['deck'])}"), ("invalid_rng", "/rng")} <= got
    # the building is read once the shapes are right: fix the shapes, the building is reported
    assert ("no_connection", "/seats/0/work/building/1") in problems(
        forged(lambda s: w0(s)["building"][1].update(x=7, y=7))
    )


def test_F_3_3_more_cards_laid_than_turns_played() -> None:
    s = fresh(2, seed=44)
    hand = s["seats"][0]["hand"]
    card = next(c for c in hand if not c.startswith("SP"))
    hand.remove(card)
    s["seats"][0]["work"]["site"].append(card)
    s["pending"] = None
    assert ("too_many_cards_laid", "/seats/0/work") in problems(s)
    s = play(fresh(2, seed=44), SKIP, lay(card))  # the same work one turn later is fine
    assert fdp.validate(s) == []


def test_F_8_1_empty_deck_without_the_final_round_is_forged() -> None:
    s = copy.deepcopy(fresh(2, seed=42))
    s = play(s, SKIP, PASS)
    s["seats"][1]["hand"] += s["deck"]
    s["deck"] = []
    s["pending"] = None
    assert ("end_not_triggered", "/final_round") in problems(s)


def test_F_8_4_forged_final_scores_refused() -> None:
    s = fresh(2, seed=43)
    while not s["game_over"]:
        s = play(s, *([SKIP, PASS] if s["pending"]["kind"] == "buy" else [PASS]))
    assert fdp.validate(s) == []
    bad = copy.deepcopy(s)
    bad["scores"]["winners"] = [1]
    assert ("inconsistent_scores", "/scores") in problems(bad)
    bad = copy.deepcopy(s)
    bad["pending"] = RICH["pending"]
    assert ("inconsistent_pending", "/pending") in problems(bad)


@pytest.mark.parametrize(
    "value",
    [None, True, 0, -1, 10**5000, 1.5, float("nan"), "", "x" * 100_000, [], {}, deep_list(50_000)],
    ids=lambda v: type(v).__name__,
)
@pytest.mark.parametrize(
    "path",
    [
        (),
        ("seats",),
        ("seats", 0),
        ("seats", 0, "hand"),
        ("seats", 1, "hand", 0),
        ("seats", 0, "work"),
        ("seats", 0, "work", "building", 0),
        ("seats", 0, "work", "building", 0, "x"),
        ("seats", 0, "work", "clones", 0),
        ("deck", 0),
        ("turn",),
        ("turn", "number"),
        ("turn", "peeked"),
        ("pending",),
        ("pending", "options", 0),
        ("final_round",),
        ("catalog",),
        ("rng",),
        ("game_over",),
    ],
)
def test_hostile_values_anywhere_give_problems_never_exceptions(
    path: tuple[Any, ...], value: Any
) -> None:
    s: Any = copy.deepcopy(RICH)
    if not path:
        s = value
    else:
        target = s
        for k in path[:-1]:
            target = target[k]
        target[path[-1]] = value
    got = fdp.validate(s)
    assert all(p.code and isinstance(p.pointer, str) for p in got)
    json.dumps([p.to_json() for p in got])


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


def paths(v: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(v, dict):
        for k, x in v.items():
            out += paths(x, (*prefix, k))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            out += paths(x, (*prefix, i))
    return out


ALL_PATHS = paths(RICH)[1:]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ALL_PATHS), JSON)
def test_any_json_value_at_any_place_is_reported_not_raised(
    path: tuple[Any, ...], value: Any
) -> None:
    s = copy.deepcopy(RICH)
    target: Any = s
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = value
    got = fdp.validate(s)
    assert all(p.code for p in got)
    if got:
        with pytest.raises(InvalidState):
            fdp.player_view(s, 0)


def test_junk_beyond_what_the_game_holds_is_refused_unread() -> None:
    """A list longer than the game can hold is one too_long problem, not a problem per entry
    (tests/fora_de_prumo/test_fdp_hostile.py measures the cost); within the bound every entry is read."""
    s = copy.deepcopy(RICH)
    s["deck"] += ["XX"] * 40_000
    w0(s)["spent"] += [w0(s)["spent"][0]] * 40_000
    got = fdp.validate(s)
    assert {p.pointer for p in got if p.code == "too_long"} == {"/deck", "/seats/0/work/spent"}
    s = copy.deepcopy(RICH)
    s["deck"] += ["XX"] * 3
    assert [p.pointer for p in fdp.validate(s) if p.code == "unknown_card"][-3:] == [
        f"/deck/{len(RICH['deck']) + i}" for i in range(3)
    ]


def test_a_huge_table_fails_the_typed_conversion_at_once() -> None:
    """5,000 seats: the typed conversion refuses the list by its length before converting a
    seat (it used to convert every one), and the reader's refusal still names F-1.1."""
    from engine.declared import convert
    from engine.fora_de_prumo.schema import StateDoc

    s = copy.deepcopy(RICH)
    s["seats"] = [copy.deepcopy(s["seats"][0]) for _ in range(5_000)]
    assert convert(s, StateDoc) is None
    got = fdp.validate(s)
    assert ("invalid_seat_count", "/seats", "F-1.1") in [(p.code, p.pointer, p.clause) for p in got]


def test_views_and_scores_of_forged_states_refused() -> None:
    s = forged(lambda s: s["deck"].append(s["market"][0]))
    for fn in (
        lambda: fdp.player_view(s, 0),
        lambda: fdp.legal_decisions(s),
        lambda: fdp.score(s),
        lambda: fdp.replay(s, []),
    ):
        with pytest.raises(InvalidState):
            fn()


FIELD_VALUES = st.one_of(
    JSON,
    st.sampled_from(["SP05", "SP10", "MA06", "PR02", "PE03", "SP06", "XX", "market", "deck"]),
    st.integers(min_value=-3, max_value=3),
)
DECISIONS = st.one_of(
    JSON,
    st.dictionaries(
        st.sampled_from(
            ["type", "seat", "card", "x", "y", "r", "from", "designer", "target", "extra"]
        ),
        FIELD_VALUES,
    ),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["buy", "look", "skip", "lay", "convert", "clone", "pass"])},
        optional={
            "seat": st.integers(min_value=-1, max_value=2),
            "card": FIELD_VALUES,
            "target": FIELD_VALUES,
            "designer": FIELD_VALUES,
            "x": FIELD_VALUES,
            "y": FIELD_VALUES,
            "r": FIELD_VALUES,
            "from": FIELD_VALUES,
        },
    ),
)
POSITIONS = [RICH, play(RICH, SKIP), play(RICH, SKIP, PASS, SKIP, PASS)]  # buy, lay, final


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(POSITIONS))), DECISIONS)
def test_any_decision_is_applied_or_refused_with_a_code(i: int, decision: Any) -> None:
    state = POSITIONS[i]
    try:
        new, _ = fdp.apply(state, decision)
    except IllegalDecision as e:
        assert e.code and e.pointer.startswith("/decisions/0") and e.detail
        assert e.index == 0
        json.dumps(e.to_json())
        return
    assert {"seat": state["pending"]["seat"], **decision} in state["pending"]["options"]
    assert fdp.validate(new) == []


def test_decision_fuzz_positions_cover_the_three_steps() -> None:
    assert [p["pending"]["kind"] for p in POSITIONS] == ["buy", "lay", "final"]
