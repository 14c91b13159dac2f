"""F-8.1 to F-8.3: the end trigger (empty deck, F-R27 passes), the final round (F-R25), final
turns (F-8.2, F-R26), the end of the game and its scores (F-8.4)."""

from __future__ import annotations

from typing import Any

import pytest
from fdp_support import (
    PASS,
    SKIP,
    State,
    arrange,
    big_catalog,
    fresh,
    lay,
    play,
    refused,
    stalling_game,
)

import engine.fora_de_prumo as fdp
from app.settings import DEFAULT_MAX_HISTORY
from engine.fora_de_prumo.catalog import MAX_CARDS
from engine.fora_de_prumo.flow import longest_game
from engine.fora_de_prumo.setup import cards_in_use


def buy_first(state: State) -> tuple[State, list[dict[str, Any]]]:
    """A normal turn: buy market card 0, lay nothing."""
    s, ev1 = fdp.apply(state, {"type": "buy", "card": state["market"][0]})
    s, ev2 = fdp.apply(s, PASS)
    return s, ev1 + ev2


def until_final(state: State) -> tuple[State, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    while state["final_round"] is None:
        state, events = buy_first(state)
    return state, events


def test_F_8_1_the_refill_that_empties_the_deck_triggers_the_final_round() -> None:
    s, ev = until_final(fresh(3, seed=31))
    assert s["deck"] == []
    types = [e["type"] for e in ev]
    assert types == ["bought", "passed", "refilled", "end_triggered", "final_round"]
    trigger = ev[3]["seat"]
    assert ev[3]["reason"] == "deck_empty" and ev[3]["clause"] == "F-8.1"
    assert s["final_round"] == {
        "triggered_by": trigger,
        "remaining": [(trigger + 1) % 3, (trigger + 2) % 3, trigger],
    }
    assert s["pending"]["kind"] == "final" and s["pending"]["clause"] == "F-8.2"
    assert s["turn"]["seat"] == (trigger + 1) % 3


def test_F_R25_one_final_turn_each_ending_with_the_trigger() -> None:
    s, _ = until_final(fresh(3, seed=32))
    order = []
    remaining = list(s["final_round"]["remaining"])
    while not s["game_over"]:
        order.append(s["turn"]["seat"])
        s, ev = fdp.apply(s, PASS)
    assert order == remaining
    assert ev[-1]["type"] == "game_over" and ev[-1]["clause"] == "F-8.4"
    assert s["pending"] is None and s["turn"]["step"] is None
    assert s["scores"] == {k: v for k, v in fdp.score(s).items() if k != "final"}
    assert fdp.score(s)["final"] is True
    assert fdp.legal_decisions(s) == {"pending": None, "options": [], "game_over": True}
    e = refused(s, PASS)
    assert (e.code, e.clause) == ("game_over", "F-8.4")
    assert ev[-1]["scores"] == s["scores"]


def passes_to_final(state: State) -> State:
    """F-R27: every seat passes once (a complete pass each)."""
    for _ in range(len(state["seats"])):
        state = play(state, SKIP, PASS)
    return state


def test_F_R27_n_complete_passes_start_the_final_round() -> None:
    s = fresh(3, seed=33)
    s = play(s, SKIP, PASS, SKIP, PASS)
    assert s["passes"] == 2 and s["final_round"] is None
    s, ev = fdp.apply_all(s, [SKIP, PASS])
    assert [e["type"] for e in ev][-2:] == ["end_triggered", "final_round"]
    assert ev[-2]["reason"] == "passes" and ev[-2]["clause"] == "F-R27"
    assert s["deck"] and s["final_round"] == {"triggered_by": 2, "remaining": [0, 1, 2]}
    assert s["passes"] == 0


def test_F_R27_a_purchase_or_a_lay_breaks_the_run_of_passes() -> None:
    s = fresh(2, seed=34)
    s = play(s, SKIP, PASS)
    s, _ = buy_first(s)
    assert s["passes"] == 0
    s = arrange(fresh(2, seed=34), hands={1: ["MA01"]})
    s = play(s, SKIP, PASS, SKIP, lay("MA01"))
    assert s["passes"] == 0 and s["final_round"] is None


def test_F_3_9_nothing_is_checked_during_the_final_round() -> None:
    s = passes_to_final(fresh(2, seed=35))
    assert s["deck"]
    deck = list(s["deck"])
    while not s["game_over"]:
        s = play(s, PASS)
    assert s["deck"] == deck  # the game ends whatever the deck holds


def test_F_8_2_in_a_final_turn_a_purchase_must_be_laid_at_once() -> None:
    s = passes_to_final(fresh(2, seed=36))
    seat = s["turn"]["seat"]
    card = s["market"][0]
    e = refused(s, {"type": "buy", "card": card})
    assert (e.code, e.clause, e.pointer) == (
        "purchase_must_be_laid",
        "F-8.2",
        "/decisions/0/type",
    )
    site = next(c for c in s["market"] if not c.startswith("SP"))
    d = {"seat": seat, "type": "lay", "card": site, "from": "market"}
    assert d in s["pending"]["options"]
    s2, ev = fdp.apply(s, d)
    assert site in s2["seats"][seat]["work"]["site"]
    assert len(s2["market"]) == len(s["market"]) - 1  # F-R26: no refill
    assert s2["deck"] == s["deck"]
    assert ev[0]["from"] == "market"
    e = refused(s, {"type": "lay", "card": s["deck"][0], "from": "deck"})
    assert (e.code, e.clause) == ("card_not_seen", "F-R19")


def test_F_R26_a_market_space_laid_in_a_final_turn() -> None:
    s = arrange(fresh(2, seed=37), market=["SP01", "SP04", "MA01", "MA02", "PR01"])
    s = passes_to_final(s)
    opts = s["pending"]["options"]
    firsts = [o for o in opts if o.get("from") == "market" and o["card"] == "SP01"]
    assert [(o["x"], o["y"], o["r"]) for o in firsts] == [(0, 0, r) for r in range(4)]
    s2 = play(s, {"type": "lay", "card": "SP01", "x": 0, "y": 0, "r": 1, "from": "market"})
    assert s2["seats"][0]["work"]["building"] == [{"card": "SP01", "x": 0, "y": 0, "r": 1}]
    e = refused(s, {"type": "lay", "card": "SP01", "x": 3, "y": 0, "r": 1, "from": "market"})
    assert e.code == "first_space_at_origin"


def test_F_R26_coordenadora_look_then_lay_a_seen_card_in_a_final_turn() -> None:
    s = arrange(fresh(2, seed=38), hands={0: ["PE01", "PE06", "MA06"]}, deck_top=["MA01", "CO01"])
    s = play(s, SKIP, lay("PE01"), SKIP, PASS)
    s = play(s, SKIP, lay("PE06"), SKIP, PASS)
    s = play(s, SKIP, lay("MA06"), SKIP, PASS)
    s = play(s, SKIP, PASS)  # seat 1 passed, seat 0 passes: final round, seat 1 first
    s = play(s, PASS)
    assert s["pending"]["kind"] == "final" and s["turn"]["seat"] == 0
    assert {"seat": 0, "type": "look"} in s["pending"]["options"]
    s = play(s, {"type": "look"})
    assert s["turn"]["peeked"] == ["MA01", "CO01"]
    opts = s["pending"]["options"]
    assert {"seat": 0, "type": "lay", "card": "CO01", "from": "deck"} in opts
    clone_d = {"seat": 0, "type": "clone", "card": "CO01", "target": "MA06", "from": "deck"}
    assert clone_d in opts
    s2, ev = fdp.apply(s, clone_d)
    assert s2["deck"][0] == "MA01" and "CO01" not in s2["deck"]
    assert s2["seats"][0]["work"]["clones"] == [{"target": "MA06", "card": "CO01"}]
    assert "card" not in fdp.events_for_seat(ev, 1)[0]


def test_F_8_2_a_final_turn_may_use_a_persons_action() -> None:
    s = arrange(fresh(2, seed=39), hands={0: ["SP05", "PE03"]})
    s = play(s, SKIP, lay("SP05", 0, 0, 0), SKIP, PASS, SKIP, lay("PE03"), SKIP, PASS)
    s = play(s, SKIP, PASS, PASS)  # seat 0 completes two passes in a row; seat 1's final turn
    conv = {"seat": 0, "type": "convert", "designer": "PE03", "target": "SP05"}
    assert conv in s["pending"]["options"]
    assert play(s, conv)["seats"][0]["work"]["converted"] == ["SP05"]


def test_F_R45_an_empty_deck_after_set_up_ends_after_the_first_turn() -> None:
    """A custom catalog whose cards exactly fill the deal and the market (F-R3 allows it)."""
    doc = fdp.builtin_catalogs()["reference"].to_json()
    want = {1: 7, 2: 4, 3: 4}  # deal 2 + 4 + 4, then 5 phase I cards for the market
    cards = []
    for c in doc["cards"]:
        if c["min_players"] <= 2 and want[c["phase"]] > 0:
            want[c["phase"]] -= 1
            cards.append(c)
    doc = {**doc, "id": "tight", "cards": cards}
    s = fdp.new_game({"seats": 2, "seed": 1, "catalog": doc})
    assert s["deck"] == [] and fdp.validate(s, doc) == []
    s, ev = fdp.apply_all(s, [SKIP, PASS], doc)
    assert [e["type"] for e in ev][-2:] == ["end_triggered", "final_round"]
    assert ev[-2]["reason"] == "deck_empty"
    assert s["final_round"] == {"triggered_by": 0, "remaining": [1, 0]}


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("cards", [None, 500], ids=["reference", "500_cards"])
def test_F_8_3_no_game_outlasts_its_longest_game_bound(cards: int | None, seats: int) -> None:
    """A game played to last (every seat passes while its pass does not end the game, F-R27)
    stays within `longest_game`, which the service's MAX_HISTORY covers for the largest
    catalog F-2.8 allows: so every game keeps its record (app/history.py)."""
    setup: dict[str, Any] = {"game": "fora-de-prumo", "seats": seats, "seed": 3}
    if cards:
        setup["catalog"] = big_catalog(cards)
    g = fdp.new_game_internal(setup)
    bound = longest_game(len(cards_in_use(g.cat, seats)), seats)
    played = len(stalling_game(setup))
    assert played <= bound
    assert played > bound / 4  # the staller does stall: the bound is not a blind guess
    assert longest_game(MAX_CARDS, 4) <= DEFAULT_MAX_HISTORY
