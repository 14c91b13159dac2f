"""F-1: set-up (cards in use, piles, deal F-R3, deck F-R4, market F-1.7, first seat F-R5,
determinism F-1.9) and the refusals of bad set-ups."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from fdp_support import fresh

import engine.fora_de_prumo as fdp
from engine import canonical
from engine import rng as rngmod
from engine.errors import CatalogError, SetupError

CAT = fdp.builtin_catalogs()["reference"]


def all_cards(state: dict[str, Any]) -> list[str]:
    out = list(state["deck"]) + list(state["market"])
    for s in state["seats"]:
        out += s["hand"]
    return out


@pytest.mark.parametrize(("seats", "total", "deck"), [(2, 41, 26), (3, 51, 31), (4, 62, 37)])
def test_F_1_3_cards_in_use_per_player_count(seats: int, total: int, deck: int) -> None:
    """F-1.3 with the F-10 table: cards in use, and the deck after the deal and a 5-card market."""
    s = fresh(seats)
    cards = all_cards(s)
    assert len(cards) == len(set(cards)) == total
    assert all(CAT.cards[c].min_players <= seats for c in cards)
    assert len(s["deck"]) == deck


def expected_deal(seed: int, seats: int, first: int, k: int) -> tuple[list[list[str]], list[str]]:
    """F-1.4, F-R3, F-R4, F-1.7 recomputed independently from the rule text."""
    state = seed
    piles = {}
    for phase in (1, 2, 3):
        pile = [c.id for c in CAT.cards.values() if c.phase == phase and c.min_players <= seats]
        state = rngmod.shuffle(state, pile)
        piles[phase] = pile
    hands: list[list[str]] = [[] for _ in range(seats)]
    for phase, each in ((3, 2), (2, 2), (1, 1)):
        for i in range(seats):
            seat = (first + i) % seats
            hands[seat] += piles[phase][:each]
            piles[phase] = piles[phase][each:]
    return hands, piles[1] + piles[2] + piles[3]


@pytest.mark.parametrize(("seats", "first", "k"), [(2, 0, 5), (3, 2, 4), (4, 1, 6)])
def test_F_R3_F_R4_F_1_7_deal_deck_and_market(seats: int, first: int, k: int) -> None:
    s = fdp.new_game({"seats": seats, "seed": 77, "first_seat": first, "market_size": k})
    hands, rest = expected_deal(77, seats, first, k)
    assert [seat["hand"] for seat in s["seats"]] == hands
    assert s["market"] == rest[:k] and s["deck"] == rest[k:]
    for h in hands:  # F-1.5: 2 phase III, 2 phase II, 1 phase I
        assert sorted(CAT.cards[c].phase for c in h) == [1, 2, 2, 3, 3]
    phases = [CAT.cards[c].phase for c in rest]
    assert phases == sorted(phases)  # F-R4: phase I on top of II on top of III


def test_F_R5_first_seat_plays_first() -> None:
    s = fresh(3, first_seat=2)
    assert s["turn"]["seat"] == 2 and s["pending"]["seat"] == 2
    assert s["turn"]["number"] == 1 and s["pending"]["kind"] == "buy"


def test_F_1_9_same_seed_same_bytes_other_seed_other_deal() -> None:
    a, b, c = fresh(3, seed=5), fresh(3, seed=5), fresh(3, seed=6)
    assert canonical.dumps(a) == canonical.dumps(b)
    assert a["deck"] != c["deck"]


def test_F_1_4_piles_are_the_callers_own_whatever_the_seat_counts_asked_before() -> None:
    """The cards in use and the piles are read from the catalog once per seat count: the
    lists handed out are new each time (the deal empties them), and per seat count."""
    from engine.fora_de_prumo.setup import cards_in_use, piles

    first = piles(CAT, 3)
    first[1].clear()
    cards_in_use(CAT, 3).clear()
    assert piles(CAT, 2) != piles(CAT, 3)
    again = piles(CAT, 3)
    assert again[1] and again == {
        phase: [c for c in cards_in_use(CAT, 3) if CAT.cards[c].phase == phase]
        for phase in (1, 2, 3)
    }
    assert cards_in_use(CAT, 3) == [c for c, card in CAT.cards.items() if card.min_players <= 3]


def test_F_1_7_default_market_is_five() -> None:
    s = fdp.new_game({"seats": 2, "seed": 1})
    assert s["market_size"] == 5 and len(s["market"]) == 5


def test_F_1_every_setup_problem_listed() -> None:
    with pytest.raises(SetupError) as e:
        fdp.new_game_internal(
            {"seats": 5, "seed": -1, "market_size": 7, "first_seat": 9, "bogus": 1, "game": "x"}
        )
    got = {(p.code, p.pointer) for p in e.value.problems}
    assert got == {
        ("invalid_seat_count", "/seats"),
        ("invalid_seed", "/seed"),
        ("invalid_market_size", "/market_size"),
        ("invalid_first_seat", "/first_seat"),
        ("unknown_field", "/bogus"),
        ("wrong_game", "/game"),
    }


@pytest.mark.parametrize(
    "setup",
    [
        None,
        [],
        {"seats": True},
        {"seats": "2"},
        {"seats": 2.0},
        {"seed": 2**64},
        {"seed": [1]},
        {"market_size": False},
        {"first_seat": None},
        {"catalog": "nope"},
        {"catalog": 3},
        {"catalog": {"cards": []}},
        {"catalog": [[[]]]},
    ],
)
def test_F_1_hostile_setups_refused_with_a_code(setup: Any) -> None:
    # a custom catalog that is the set-up's only problem is its own error (as Architectura's)
    bad_catalog = isinstance(setup, dict) and isinstance(setup.get("catalog"), dict)
    if isinstance(setup, dict):  # the fields every set-up gives (seats, seed), and the bad one
        setup = {"seats": 2, "seed": 1, **setup}
    with pytest.raises(CatalogError if bad_catalog else SetupError) as e:
        fdp.new_game(setup)
    assert e.value.code and e.value.clause


def small_catalog(keep: int) -> dict[str, Any]:
    """The reference catalog with only `keep` two-player cards of each phase."""
    doc = copy.deepcopy(CAT.to_json())
    doc["id"] = "small"
    counts = {1: 0, 2: 0, 3: 0}
    cards = []
    for c in doc["cards"]:
        if counts[c["phase"]] < keep and c["min_players"] <= 2:
            counts[c["phase"]] += 1
            cards.append(c)
    doc["cards"] = cards
    return doc


def test_F_R3_setup_refused_when_a_pile_is_too_short() -> None:
    with pytest.raises(SetupError) as e:
        fdp.new_game({"seats": 2, "seed": 1, "catalog": small_catalog(3)})
    assert e.value.clause == "F-2.8"
    assert {p.code for p in e.value.problems} == {"pile_too_short"}
    assert {p.clause for p in e.value.problems} == {"F-R3"}


def test_F_R3_setup_refused_when_the_deck_cannot_fill_the_market() -> None:
    # 4 + 4 + 4 cards: the deal takes 2 + 4 + 4, leaving 2 for a market of 5
    with pytest.raises(SetupError) as e:
        fdp.new_game({"seats": 2, "seed": 1, "catalog": small_catalog(4)})
    assert [p.code for p in e.value.problems] == ["deck_too_short"]


def test_F_2_1_custom_catalog_travels_with_the_state() -> None:
    doc = small_catalog(8)
    s = fdp.new_game({"seats": 2, "seed": 1, "catalog": doc})
    assert s["catalog"]["id"] == "small"
    assert fdp.validate(s, doc) == []
    assert [p.code for p in fdp.validate(s)] == ["unknown_catalog"]


@pytest.mark.parametrize("variant", [None, "4", "6", "hard", "easy", "advanced"])
def test_tournament_setup_is_a_valid_setup(variant: str | None) -> None:
    setup = fdp.tournament_setup(3, 3, variant)
    g = fdp.new_game_internal(setup)
    assert g.n == 3 and g.market_size == {"4": 4, "hard": 4, "6": 6, "easy": 6}.get(
        variant or "", 5
    )


def test_the_package_is_the_registered_fora_de_prumo() -> None:
    """Its registration (the whole interface is tests/common/test_conformance.py's, per game)."""
    from engine.games import engine

    assert engine("fora-de-prumo") is fdp
    assert fdp.INFO.id == "fora-de-prumo" and fdp.RULES_VERSION == "fora-de-prumo-rules/1.0"


def test_F_1_seats_must_be_given_and_a_missing_seed_is_chosen() -> None:
    """As Architectura's (A-1.1, A-1.6): no silent 2 seats; a seed at random, never seed 0."""
    with pytest.raises(SetupError) as e:
        fdp.new_game({"game": "fora-de-prumo"})
    assert [(p.code, p.pointer, p.clause) for p in e.value.problems] == [
        ("missing_field", "/seats", "F-1.1"),
    ]
    setup = {"game": "fora-de-prumo", "seats": 2}
    decks = {str(fdp.new_game(setup)["deck"]) for _ in range(8)}
    assert len(decks) > 1
