"""Illegal decisions: the right code and clause, nothing applied, the input never mutated;
apply_all is all-or-nothing; replay reports the first illegal decision."""

from __future__ import annotations

import copy

import pytest
import scenario as S
from scenario import build, illegal

import engine.architectura as arch
from engine.canonical import dumps
from engine.errors import (
    MAX_PROBLEMS,
    EngineError,
    IllegalDecision,
    Problem,
    ProblemList,
    unknown_keys,
)


def start() -> S.State:
    return build(
        2,
        hands={0: ["blue.palace", "blue.park"], 1: ["green.well"]},
        city={(1, 1): "green.market"},
    )


def test_A_3_2_card_not_in_hand() -> None:
    e = illegal(start(), {"seat": 0, "type": "play", "card": "blue.temple", "cell": [1, 2]})
    assert (e.code, e.clause, e.pointer) == ("card_not_in_hand", "A-3.2", "/decisions/0/card")


def test_A_3_2_opponents_card_is_not_in_hand() -> None:
    e = illegal(start(), {"seat": 0, "type": "play", "card": "green.well", "cell": [1, 2]})
    assert e.code == "card_not_in_hand"


def test_not_your_decision() -> None:
    e = illegal(start(), {"seat": 1, "type": "play", "card": "green.well", "cell": [1, 2]})
    assert (e.code, e.clause, e.pointer) == ("not_your_decision", "A-3", "/decisions/0/seat")


def test_seat_may_be_omitted() -> None:
    s2, _ = arch.apply(start(), {"type": "play", "card": "blue.palace", "cell": [1, 2]})
    assert S.top_card(s2, (1, 2)) == "blue.palace"


def test_unknown_card_and_unknown_type_and_malformed() -> None:
    s = start()
    e = illegal(s, {"seat": 0, "type": "play", "card": "blue.castle", "cell": [1, 2]})
    assert (e.code, e.clause) == ("unknown_card", "A-1.3")
    e = illegal(s, {"seat": 0, "type": "fly"})
    assert (e.code, e.pointer) == ("unknown_decision_type", "/decisions/0/type")
    e = illegal(s, {"seat": 0, "type": "play", "card": "blue.palace", "cell": [1, 2], "x": 1})
    assert (e.code, e.pointer) == ("malformed_decision", "/decisions/0/x")
    e = illegal(s, {"seat": 0, "type": "play", "card": "blue.palace", "cell": "1,2"})
    assert (e.code, e.clause) == ("invalid_cell", "A-1.2")
    before = copy.deepcopy(s)
    with pytest.raises(IllegalDecision) as err:
        arch.apply(s, "play")
    assert err.value.code == "malformed_decision" and s == before


def test_wrong_decision_type_for_the_pending_decision() -> None:
    e = illegal(start(), {"seat": 0, "type": "rotate", "target": "green.market", "steps": 1})
    assert (e.code, e.clause) == ("wrong_decision_type", "A-3")


def test_illegal_target_of_an_effect() -> None:
    s = build(
        2,
        hands={0: ["blue.park"], 1: ["green.well"]},
        city={(1, 1): "green.palace", (1, 2): "green.temple"},
    )
    s2, _ = S.play(s, "blue.park", (2, 1))
    e = illegal(s2, {"seat": 0, "type": "rotate", "target": "green.temple", "steps": 1})
    assert (e.code, e.clause, e.pointer) == ("illegal_target", "A-7.2", "/decisions/0/target")


def test_apply_all_is_all_or_nothing_and_names_the_failing_index() -> None:
    s = start()
    before = copy.deepcopy(s)
    with pytest.raises(IllegalDecision) as e:
        arch.apply_all(
            s,
            [
                {"seat": 0, "type": "play", "card": "blue.palace", "cell": [1, 2]},
                {"seat": 1, "type": "play", "card": "green.well", "cell": [1, 9]},
            ],
        )
    assert e.value.index == 1 and e.value.code == "invalid_cell"
    assert e.value.pointer == "/decisions/1/cell"
    assert e.value.to_json()["index"] == 1
    assert s == before


def test_apply_all_applies_in_order_and_tags_events() -> None:
    s = start()
    s2, ev = arch.apply_all(
        s,
        [
            {"seat": 0, "type": "play", "card": "blue.palace", "cell": [1, 2]},
            {"seat": 1, "type": "play", "card": "green.well", "cell": [1, 3]},
        ],
    )
    step1, _ = arch.apply(s, {"seat": 0, "type": "play", "card": "blue.palace", "cell": [1, 2]})
    step2, _ = arch.apply(step1, {"seat": 1, "type": "play", "card": "green.well", "cell": [1, 3]})
    assert dumps(s2) == dumps(step2)
    assert {e["decision"] for e in ev} == {0, 1}


def test_replay_reports_the_first_illegal_decision() -> None:
    out = arch.replay(
        {"setup": {"seats": 2, "seed": 9}},
        [{"type": "mulligan"}, {"type": "mulligan"}],
    )
    assert out["ok"] is False and out["applied"] == 1
    assert out["error"]["index"] == 1 and out["error"]["code"] == "wrong_decision_type"
    good = arch.replay({"setup": {"seats": 2, "seed": 9}}, [{"type": "mulligan"}])
    assert good["ok"] is True and good["applied"] == 1
    assert good["state"]["seats"][0]["mulligan_used"] is True


def test_legal_decisions_do_not_mutate_and_every_option_applies() -> None:
    s = arch.new_game({"seats": 3, "seed": 4})
    before = copy.deepcopy(s)
    out = arch.legal_decisions(s)
    assert s == before
    assert out["pending"]["options"] == out["options"]
    for o in out["options"]:
        s2, _ = arch.apply(s, o)
        assert s2 != s
    assert s == before


def test_validate_and_score_do_not_mutate() -> None:
    s = start()
    before = copy.deepcopy(s)
    assert arch.validate(s) == []
    arch.score(s)
    arch.player_view(s, 1)
    assert s == before


def test_an_error_keeps_the_first_problems_and_counts_all_even_past_append() -> None:
    """Code compiled by mypyc that knows a ProblemList only as a `list` appends to it with
    the list's own append, past ProblemList.append's limit and count (docs/compiled.md). The
    error still answers the first MAX_PROBLEMS and the true total (pure Python stand-in)."""
    problems = ProblemList()
    for i in range(MAX_PROBLEMS + 50):
        list.append(problems, Problem("catalog_value", f"bad {i}", f"/cards/{i}"))
    e = EngineError("invalid_catalog", "bad", "A-10", "", problems)
    assert (len(e.problems), e.problems_total) == (MAX_PROBLEMS, MAX_PROBLEMS + 50)
    out = e.to_json()
    assert len(out["problems"]) == MAX_PROBLEMS
    assert out["problems"][-1]["pointer"] == f"/cards/{MAX_PROBLEMS - 1}"
    assert out["problems_total"] == MAX_PROBLEMS + 50


def test_counted_problems_and_direct_appends_add_up() -> None:
    """Problems only counted (past the limit) and problems appended afterwards with the
    list's own append (compiled code) are all counted; the first MAX_PROBLEMS are kept."""
    problems = ProblemList()
    unknown_keys(problems, {f"k{i}": 1 for i in range(MAX_PROBLEMS + 50)}, (), "", "unknown_field")
    for i in range(3):
        list.append(problems, Problem("invalid_seed", f"bad {i}", "/seed"))
    e = EngineError("invalid_setup", "bad", "A-1", "", problems)
    assert (len(e.problems), e.problems_total) == (MAX_PROBLEMS, MAX_PROBLEMS + 53)
    assert e.to_json()["problems_total"] == MAX_PROBLEMS + 53
