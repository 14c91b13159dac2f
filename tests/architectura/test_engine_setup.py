"""A-1 set-up (2, 3, 4 players; basic and advanced with A-1.5 replacements) and A-10 catalogs."""

from __future__ import annotations

import copy
import json
import time
from typing import Any

import pytest
import scenario as S

import engine.architectura as arch
from engine.canonical import dumps
from engine.errors import CatalogError, SetupError


def all_cards(seat: dict[str, Any]) -> list[str]:
    return seat["deck"] + seat["hand"]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_A_1_1_A_1_2_A_1_3_basic_setup(seats: int) -> None:
    s = arch.new_game({"seats": seats, "seed": 7})
    assert s["variant"] == "basic"
    assert [x["colour"] for x in s["seats"]] == list(S.COLOURS[:seats])
    # streets = players, 8 blocks, all empty
    assert len(s["city"]) == seats
    assert all(len(row) == 8 and all(c == [] for c in row) for row in s["city"])
    for i, seat in enumerate(s["seats"]):
        col = S.COLOURS[i]
        # 12-card deck of their colour, 3 drawn, 2 tokens
        assert sorted(all_cards(seat)) == sorted(f"{col}.{b}" for b in S.basic_ids())
        assert len(seat["hand"]) == 3 and len(seat["deck"]) == 9
        assert seat["tokens"] == 2
        assert seat["hand_limit"] == 3
        assert seat["mulligan_used"] is False and seat["first_turn_taken"] is False
        assert seat["outside"] == seat["graveyard"] == seat["removed"] == []
    assert s["fountains"] == []
    assert s["turn"] == {"seat": 0, "number": 1}
    assert s["pending"]["seat"] == 0 and s["pending"]["kind"] == "play"
    assert s["game_over"] is False and s["scores"] is None


def test_A_1_3_decks_are_shuffled_independently() -> None:
    s = arch.new_game({"seats": 4, "seed": 3})
    orders = [[c.split(".")[1] for c in all_cards(x)] for x in s["seats"]]
    assert len({tuple(o) for o in orders}) > 1
    # the catalog order is not kept for every seat
    assert any(o != S.basic_ids() for o in orders)


def test_A_1_1_invalid_seat_count_refused() -> None:
    for n in (1, 5, "2", True):
        with pytest.raises(SetupError) as e:
            arch.new_game({"seats": n, "seed": 1})
        assert e.value.code == "invalid_seat_count" and e.value.clause == "A-1.1"


@pytest.mark.parametrize("first", [0, 1, 2])
def test_A_1_4_first_seat(first: int) -> None:
    s = arch.new_game({"seats": 3, "seed": 1, "first_seat": first})
    assert s["turn"]["seat"] == first
    assert s["pending"]["seat"] == first
    assert s["resolving"] == [{"k": "turn", "seat": first}]


def test_A_1_4_A_1_1_bad_first_seat_and_colours_all_listed() -> None:
    with pytest.raises(SetupError) as e:
        arch.new_game(
            {
                "seats": 2,
                "seed": 1,
                "first_seat": 2,
                "colours": ["blue", "blue"],
                "variant": "basic",
                "replacements": [{"museum": "well"}],
            }
        )
    codes = {(p.code, p.pointer, p.clause) for p in e.value.problems}
    assert codes == {
        ("invalid_first_seat", "/first_seat", "A-1.4"),
        ("invalid_colours", "/colours", "A-1.1"),
        ("replacements_in_basic_game", "/replacements", "A-1.5"),
    }


def test_A_1_1_custom_colours() -> None:
    s = arch.new_game({"seats": 2, "seed": 1, "colours": ["red", "green"]})
    assert [x["colour"] for x in s["seats"]] == ["red", "green"]
    assert all(c.startswith("red.") for c in all_cards(s["seats"][0]))


def test_A_1_6_same_seed_same_game_other_seed_other_game() -> None:
    a = arch.new_game({"seats": 3, "seed": 42})
    b = arch.new_game({"seats": 3, "seed": 42})
    c = arch.new_game({"seats": 3, "seed": 43})
    assert dumps(a) == dumps(b)
    assert dumps(a) != dumps(c)
    assert len(a["rng"]) == 16


def test_A_1_6_bad_seed_refused() -> None:
    for seed in (-1, 2**64, "1", 1.5):
        with pytest.raises(SetupError) as e:
            arch.new_game({"seats": 2, "seed": seed})
        assert e.value.code == "invalid_seed" and e.value.clause == "A-1.6"


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_A_1_5_advanced_setup_with_legal_replacements(seats: int) -> None:
    reps: list[dict[str, str]] = [
        {"museum": "well", "fountain": "market", "city_hall": "palace"},
        {"guesthouse": "market", "graveyard": "park", "smithy": "watchtower"},
        {"magic_academy": "palace", "obelisk": "temple", "arsenal": "barracks"},
        {"statue": "tavern", "library": "school", "laboratory": "theatre"},
    ][:seats]
    s = arch.new_game({"seats": seats, "seed": 5, "variant": "advanced", "replacements": reps})
    assert s["variant"] == "advanced"
    for i, seat in enumerate(s["seats"]):
        col = S.COLOURS[i]
        assert seat["replacements"] == reps[i]  # public
        names = {c.split(".")[1] for c in all_cards(seat)}
        assert len(all_cards(seat)) == 12
        for add, basic in reps[i].items():
            assert add in names and basic not in names
        assert all(c.startswith(col + ".") for c in all_cards(seat))


def test_A_1_5_no_replacement_at_all_is_allowed() -> None:
    s = arch.new_game({"seats": 2, "seed": 5, "variant": "advanced", "replacements": [{}, {}]})
    assert s["variant"] == "advanced"
    assert sorted(c.split(".")[1] for c in all_cards(s["seats"][0])) == sorted(S.basic_ids())


def test_A_1_5_every_reference_additional_card_replaces_its_basic() -> None:
    """Each of the 14 additional cards is accepted in place of its A-10 basic card."""
    table = {
        "museum": "well",
        "fountain": "market",
        "guesthouse": "market",
        "greenhouse": "park",
        "graveyard": "park",
        "statue": "tavern",
        "manufactory": "tavern",
        "library": "school",
        "smithy": "watchtower",
        "laboratory": "theatre",
        "arsenal": "barracks",
        "obelisk": "temple",
        "city_hall": "palace",
        "magic_academy": "palace",
    }
    for add, basic in table.items():
        assert S.default_replaces(add) == basic
        s = arch.new_game(
            {"seats": 2, "seed": 1, "variant": "advanced", "replacements": [{add: basic}, {}]}
        )
        assert f"blue.{add}" in all_cards(s["seats"][0])


def test_A_1_5_illegal_replacements_refused_with_every_problem_listed() -> None:
    setup = {
        "seats": 3,
        "seed": 1,
        "variant": "advanced",
        "replacements": [
            # museum has basic value 1, park 3; two cards for one palace
            {"museum": "park", "city_hall": "palace", "magic_academy": "palace"},
            # graveyard (3) cannot replace well (1); 'foo' is no card; city hall names palace
            {"graveyard": "well", "foo": "park", "city_hall": "temple"},
            # a basic card cannot replace a basic card
            {"palace": "palace", "fountain": "market", "guesthouse": "market"},
        ],
    }
    with pytest.raises(SetupError) as e:
        arch.new_game(setup)
    bad = "0/museum 0/magic_academy 1/graveyard 1/foo 1/city_hall 2/palace 2/guesthouse"
    assert {(p.code, p.pointer, p.clause) for p in e.value.problems} == {
        ("illegal_replacement", f"/replacements/{where}", "A-1.5") for where in bad.split()
    }


def test_A_1_5_replacements_refused_in_basic_game() -> None:
    with pytest.raises(SetupError) as e:
        arch.new_game({"seats": 2, "seed": 1, "replacements": [{"museum": "well"}, {}]})
    assert e.value.code == "replacements_in_basic_game" and e.value.clause == "A-1.5"


def test_A_1_5_replacements_must_be_one_object_per_seat() -> None:
    with pytest.raises(SetupError) as e:
        arch.new_game({"seats": 2, "seed": 1, "variant": "advanced", "replacements": [{}, {}, {}]})
    assert e.value.code == "invalid_replacements"
    with pytest.raises(SetupError) as e:
        arch.new_game({"seats": 2, "seed": 1, "variant": "advanced", "replacements": [["x"]]})
    assert e.value.code == "invalid_replacements" and e.value.pointer == "/replacements/0"


def test_A_1_variant_must_be_known() -> None:
    with pytest.raises(SetupError) as e:
        arch.new_game({"seats": 2, "seed": 1, "variant": "expert"})
    assert e.value.code == "invalid_variant"


def test_A_1_unknown_fields_refused_with_the_other_problems() -> None:
    """As Fora de Prumo refuses them (F-1): unknown_field naming A-1, listed first."""
    with pytest.raises(SetupError) as e:
        arch.new_game({"seats": 2, "seed": 1, "first_seat": 2, "bogus": 1, "a/b": 2})
    assert (e.value.code, e.value.clause, e.value.pointer) == ("unknown_field", "A-1", "/a~1b")
    assert [(p.code, p.pointer, p.clause) for p in e.value.problems] == [
        ("unknown_field", "/a~1b", "A-1"),
        ("unknown_field", "/bogus", "A-1"),
        ("invalid_first_seat", "/first_seat", "A-1.4"),
    ]
    with pytest.raises(SetupError) as e:  # a custom catalog's problems point into it
        arch.new_game({"seats": 2, "seed": 1, "bogus": 1, "catalog": {"format": 1}})
    assert e.value.problems[0].code == "unknown_field"
    assert {p.pointer for p in e.value.problems[1:]} >= {"/catalog/format"}
    assert e.value.problems_total == len(e.value.problems)


def test_A_1_the_set_up_fields_are_those_the_http_schema_checks() -> None:
    from app.schemas import SETUP
    from engine.architectura.setup import SETUP_KEYS

    assert set(SETUP_KEYS) == set(SETUP.fields)


# -- A-10 catalogs -------------------------------------------------------------------------


def test_A_10_reference_catalog_is_builtin_and_matches_the_rule_table() -> None:
    cat = arch.builtin_catalogs()["reference"]
    assert cat.id == "reference"
    # the A-10 table as the rule text prints it: side values ascending, `*` on the basic value
    table = {
        "well": "1* 2 3 5",
        "market": "1 2* 3 4",
        "park": "2 3* 4 5",
        "tavern": "2 4* 5 6",
        "school": "3 5* 6 7",
        "watchtower": "6*",
        "theatre": "5 7* 8 9",
        "barracks": "4 6 8* 9",
        "temple": "7 8 9* 10",
        "palace": "8 9 10* 11",
        "museum": "1* 2 3 4",
        "fountain": "1 2* 3 4",
        "guesthouse": "1 2* 4 5",
        "greenhouse": "2 3* 4 5",
        "graveyard": "3*",
        "statue": "3 4* 5 6",
        "manufactory": "2 4* 5 6",
        "library": "3 5* 6 7",
        "smithy": "4 6* 7 8",
        "laboratory": "5 7* 8 9",
        "arsenal": "5 6 8* 9",
        "obelisk": "7 9* 10 11",
        "city_hall": "9 11* 12 13",
        "magic_academy": "10 12* 13 14",
    }
    for cid, printed in table.items():
        card = cat.cards[cid]
        assert list(card.values) == [int(v.rstrip("*")) for v in printed.split()], cid
        assert [card.basic_value] == [int(v[:-1]) for v in printed.split() if v[-1] == "*"], cid
    assert cat.cards["villa"].formula == "X" and cat.cards["villa"].offset == 2
    assert cat.cards["bridge"].formula == "No." and cat.cards["bridge"].offset == 0
    assert {c for c in cat.cards if cat.cards[c].shield} == {
        "watchtower",
        "graveyard",
        "magic_academy",
    }
    assert len(cat.basic_ids) == 12
    assert set(cat.cards) == set(table) | {"villa", "bridge"}


def test_A_10_catalog_hash_is_stable() -> None:
    cat = arch.builtin_catalogs()["reference"]
    again = arch.load_catalog(copy.deepcopy(S.reference_raw()))
    assert again.hash == cat.hash
    assert cat.hash.startswith("sha256:") and len(cat.hash) == 7 + 64
    # key order in the document does not change the hash (canonical JSON)
    shuffled = json.loads(json.dumps(S.reference_raw(), sort_keys=True))
    assert arch.load_catalog(shuffled).hash == cat.hash
    # any content change does
    changed = copy.deepcopy(S.reference_raw())
    changed["name"] = "other"
    assert arch.load_catalog(changed).hash != cat.hash
    s = arch.new_game({"seats": 2, "seed": 1})
    assert s["catalog"] == {"id": "reference", "hash": cat.hash}


def test_A_10_bad_catalog_refused_with_every_problem_listed() -> None:
    doc = copy.deepcopy(S.reference_raw())
    doc["format"] = "other/1"
    doc["extra"] = 1
    doc["cards"][0]["values"] = [3, 2, 1]  # not ascending
    doc["cards"][1]["basic"] = 9  # not one of its values
    doc["cards"][2]["on_play"][0]["op"] = "explode"
    doc["cards"][3]["colour"] = "blue"  # unknown field
    doc["cards"][4]["formula"] = "Y+1"  # both values and a bad formula
    with pytest.raises(CatalogError) as e:
        arch.load_catalog(doc)
    got = {(p.code, p.pointer) for p in e.value.problems}
    assert ("catalog_format", "/format") in got
    assert ("catalog_unknown_field", "/extra") in got
    assert ("catalog_value", "/cards/0/values") in got
    assert ("catalog_value", "/cards/1/basic") in got
    assert ("catalog_value", "/cards/2/on_play/0/op") in got
    assert ("catalog_unknown_field", "/cards/3/colour") in got
    assert ("catalog_value", "/cards/4/formula") in got
    assert e.value.code == "invalid_catalog" and e.value.clause == "A-10"


def test_A_10_catalog_references_checked() -> None:
    doc = copy.deepcopy(S.reference_raw())
    ids = [c["id"] for c in doc["cards"]]
    doc["cards"][ids.index("city_hall")]["replaces"] = "nothing"
    doc["cards"][ids.index("statue")]["end_of_game"][0]["target"]["card"] = "fountainx"
    doc["cards"].append(copy.deepcopy(doc["cards"][0]))  # duplicate id 'well'
    with pytest.raises(CatalogError) as e:
        arch.load_catalog(doc)
    got = {(p.code, p.pointer) for p in e.value.problems}
    assert ("catalog_reference", f"/cards/{ids.index('city_hall')}/replaces") in got
    assert (
        "catalog_reference",
        f"/cards/{ids.index('statue')}/end_of_game/0/target/card",
    ) in got
    assert ("catalog_duplicate", f"/cards/{len(ids)}/id") in got


def test_A_10_catalog_needs_12_basic_cards() -> None:
    doc = copy.deepcopy(S.reference_raw())
    doc["cards"] = [c for c in doc["cards"] if c["id"] != "bridge"]
    with pytest.raises(CatalogError) as e:
        arch.load_catalog(doc)
    assert [p.code for p in e.value.problems] == ["catalog_value"]
    assert "12 basic cards" in e.value.problems[0].detail


def test_A_10_custom_catalog_game_and_state_resolution() -> None:
    """An official catalog in the same format plays without code changes; its states load
    when the catalog is sent with them."""
    doc = copy.deepcopy(S.reference_raw())
    doc["id"] = "custom"
    doc["name"] = "Custom"
    ids = [c["id"] for c in doc["cards"]]
    doc["cards"][ids.index("palace")]["values"] = [8, 9, 10, 12]
    s = arch.new_game({"seats": 2, "seed": 1, "catalog": doc})
    assert s["catalog"]["id"] == "custom"
    assert s["catalog"]["hash"] == arch.load_catalog(doc).hash
    assert arch.validate(s, catalog=doc) == []
    out = arch.legal_decisions(s, catalog=doc)
    assert out["options"]


def test_A_10_unknown_builtin_catalog_refused() -> None:
    with pytest.raises(SetupError) as e:
        arch.new_game({"seats": 2, "seed": 1, "catalog": "official"})
    assert e.value.code == "unknown_catalog" and e.value.clause == "A-10"


# -- every value of a set-up is read here, as sent ----------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "code", "clause"),
    [
        ("seats", None, "invalid_seat_count", "A-1.1"),
        ("seats", [2], "invalid_seat_count", "A-1.1"),
        ("seed", None, "invalid_seed", "A-1.6"),
        ("seed", True, "invalid_seed", "A-1.6"),
        ("first_seat", None, "invalid_first_seat", "A-1.4"),
        ("first_seat", True, "invalid_first_seat", "A-1.4"),
        ("first_seat", "0", "invalid_first_seat", "A-1.4"),
        ("variant", None, "invalid_variant", "A-1.5"),
        ("variant", ["basic"], "invalid_variant", "A-1.5"),
        ("colours", None, "invalid_colours", "A-1.1"),
        ("replacements", None, "invalid_replacements", "A-1.5"),
        ("game", "fora-de-prumo", "wrong_game", "A-1"),
    ],
)
def test_A_1_a_bad_value_of_any_kind_is_its_fields_problem(
    field: str, value: Any, code: str, clause: str
) -> None:
    """null is no value (a field left out takes its default; one sent as null is refused),
    and a boolean is no integer: each is its field's problem, as Fora de Prumo's are."""
    with pytest.raises(SetupError) as e:
        arch.new_game({"seats": 2, "seed": 1, field: value})
    assert [(p.code, p.pointer, p.clause) for p in e.value.problems] == [
        (code, f"/{field}", clause)
    ]


def test_A_1_seats_must_be_given_and_a_missing_seed_is_chosen() -> None:
    """Seats have no default (A-1.1); a set-up without a seed gets one at random (A-1.6)."""
    with pytest.raises(SetupError) as e:
        arch.new_game({})
    assert [(p.code, p.pointer, p.clause) for p in e.value.problems] == [
        ("missing_field", "/seats", "A-1.1"),
    ]
    decks = {str(arch.new_game({"seats": 2})["seats"][0]["deck"]) for _ in range(8)}
    assert len(decks) > 1  # not one fixed seed


def test_A_1_every_problem_of_a_set_up_is_listed_in_field_order() -> None:
    """Not the first one only (seats and seed were raised alone), the catalog's beside them."""
    with pytest.raises(SetupError) as e:
        arch.new_game({"seats": 5, "seed": -1, "first_seat": 4, "variant": "x", "catalog": "nope"})
    assert [(p.code, p.pointer) for p in e.value.problems] == [
        ("invalid_seat_count", "/seats"),
        ("invalid_seed", "/seed"),
        ("invalid_first_seat", "/first_seat"),
        ("invalid_variant", "/variant"),
        ("unknown_catalog", "/catalog"),
    ]
    with pytest.raises(SetupError) as e:  # a known catalog: the colours and replacements too
        arch.new_game({"seats": "x", "seed": 1, "colours": "red", "replacements": 1})
    assert [p.pointer for p in e.value.problems] == ["/seats", "/colours", "/replacements"]


def test_A_1_huge_colours_and_replacements_are_refused_unread() -> None:
    """A list of a million colours, a seat's object of 100,000 replacements: one problem
    each, found without reading them (the HTTP schema bounded them before)."""
    many = {f"k{i}": "well" for i in range(100_000)}
    setup = {"seats": 2, "seed": 1, "variant": "advanced", "colours": ["red"] * 10**6}
    start = time.thread_time()  # this thread's CPU: a loaded machine's waits do not count
    with pytest.raises(SetupError) as e:
        arch.new_game({**setup, "replacements": [many, {}]})
    assert time.thread_time() - start < 0.05
    assert [(p.code, p.pointer) for p in e.value.problems] == [
        ("invalid_colours", "/colours"),
        ("invalid_replacements", "/replacements/0"),
    ]
    assert "100000 replacements; at most 12" in e.value.problems[1].detail


def test_A_1_problems_beyond_the_kept_ones_are_all_counted() -> None:
    """150 unknown fields fill the kept problems; the bad values after them are counted too
    (the compiled build appends those past the list's own count: docs/compiled.md)."""
    unknown = {f"x{i}": 1 for i in range(150)}
    with pytest.raises(SetupError) as e:
        arch.new_game({"seats": 2, "seed": -1, "first_seat": 9, "variant": 3, **unknown})
    assert (len(e.value.problems), e.value.problems_total) == (100, 153)
    assert {p.code for p in e.value.problems} == {"unknown_field"}
