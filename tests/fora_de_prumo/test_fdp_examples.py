"""F-9: the worked examples, built THROUGH LEGAL DECISIONS from a set-up state (hands arranged
before play, the arranged state validated), then scored exactly, component by component."""

from __future__ import annotations

from typing import Any

from fdp_examples import STEPS_4 as RECTANGLE  # F-9.4: the engenheiro's rectangle
from fdp_support import PASS, SKIP, State, arrange, fresh, lay, parse_compact, play, refused

import engine.fora_de_prumo as fdp
from engine.fora_de_prumo import scoring

P1_SPACES = ["SP11@0,0r0", "SP12@0,1r0", "SP09@0,-1r0", "SP02@2,-1r0"]
P1_SITE = ["MA01", "MA05", "MA07", "PE08", "CO01", "CO05", "PR11"]
P2_SPACES = ["SP05@0,0r0", "SP10@0,-1r0", "SP03@0,1r0", "SP04@2,0r1"]
P2_SITE = ["PE03", "PE06", "PE07", "MA06", "CO06", "PR01", "PR06", "PR10"]


def card_of(d: dict[str, Any]) -> str:
    return str(d["card"])


def run(state: State, plans: dict[int, list[dict[str, Any]]], checkpoint: Any = None) -> State:
    """Each seat, in turn, skips its purchase and makes its next planned lay-step decision
    (or passes once its plan is done); then everyone passes until the game is over."""
    plans = {s: list(p) for s, p in plans.items()}
    while any(plans.values()):
        seat = state["pending"]["seat"]
        plan = plans.get(seat, [])
        state = play(state, SKIP, plan.pop(0) if plan else PASS)
        if checkpoint is not None:
            checkpoint(state)
    while not state["game_over"]:
        kind = state["pending"]["kind"]
        state = play(state, *([SKIP, PASS] if kind == "buy" else [PASS]))
    return state


def example_game() -> tuple[State, list[State]]:
    p1 = [parse_compact(t) for t in P1_SPACES] + [lay("PE05"), parse_compact("SP17@-1,0r1")]
    p1 += [lay(c) for c in P1_SITE]
    p2 = [parse_compact(t) for t in P2_SPACES] + [lay(c) for c in P2_SITE]
    p2 += [
        {"type": "convert", "designer": "PE03", "target": "SP05"},
        {"type": "clone", "card": "PR02", "target": "MA06"},
    ]
    hands = {0: [card_of(d) for d in p1], 1: [card_of(d) for d in p2[:-2]] + ["PR02"]}
    start = arrange(fresh(2, seed=9), hands=hands)
    seen: list[State] = []
    return run(start, {0: p1, 1: p2}, seen.append), seen


def seat_scores(state: State) -> list[dict[str, Any]]:
    assert state["game_over"]
    seats: list[dict[str, Any]] = state["scores"]["seats"]
    return seats


COMPONENTS = (*scoring.COMPONENTS, "total")  # F-8.4 order


def components(b: dict[str, Any]) -> tuple[int, ...]:
    return tuple(b[k] for k in COMPONENTS)


def scored(seat: int, expected: tuple[int, ...], **measures: int) -> dict[str, Any]:
    """The example game's final score of `seat`, checked: its components (F-8.4 order, then the
    total) are `expected` and its measures include `measures`."""
    state, _ = example_game()
    b = seat_scores(state)[seat]
    assert components(b) == expected
    assert {k: b["measures"][k] for k in measures} == measures
    return b


def test_F_9_1_player_one_scores_62_component_by_component() -> None:
    b = scored(0, (15, 20, 2, 20, 5, 0, 62), connections=5, qualified=5, street_doors=6)
    m = b["measures"]
    assert m["qualifications"] == {
        "circulacoes": 3,
        "conforto": 1,
        "exteriores": 1,
        "atividades": 0,
    }
    mats = {x["card"]: x["points"] for x in b["details"]["materials"]}
    assert mats == {"MA01": 2, "MA05": 4, "MA07": 12}  # exteriores 2 + 4, circulações 4 x 3
    assert b["details"]["synergy"] == [{"suit": "exteriores", "qualifications": 1, "points": 2}]
    concepts = {x["card"]: (x["met"], x["points"]) for x in b["details"]["concepts"]}
    assert concepts == {"CO01": (False, 0), "CO05": (True, 20)}  # (3 + 1 arquiteta) x 5
    assert [x["points"] for x in b["details"]["projects"]] == [5]


def test_F_9_2_player_two_scores_72_component_by_component() -> None:
    b = scored(1, (9, 8, 15, 18, 12, 10, 72), connections=6, qualified=3, street_doors=6)
    m = b["measures"]
    assert m["qualifications"]["conforto"] == 1 and m["qualifications"]["atividades"] == 2
    mats = {x["card"]: (x["cloned"], x["points"]) for x in b["details"]["materials"]}
    assert mats == {"MA06": (True, 8)}  # Madeira 4, cloned: 8 x 1 conforto qualification
    bonuses = {x["ability"]: x["points"] for x in b["details"]["bonuses"]}
    assert bonuses == {"urbanista": 12}  # 2 x 6 street doors
    assert len(b["details"]["people"]) == 3
    assert [(x["card"], x["met"], x["points"]) for x in b["details"]["concepts"]] == [
        ("CO06", True, 18)
    ]
    # the face-down Levantamento is no project (F-R22): 3 projects x 4 spaces, one trio
    assert sorted(x["card"] for x in b["details"]["projects"]) == ["PR01", "PR06", "PR10"]
    assert b["details"]["trios"]["trios"] == 1


def test_F_9_2_before_the_conversion_three_connections_no_qualification() -> None:
    """The first picture of F-9.2: checked on the state reached just before the designer acts."""
    _, states = example_game()
    before = next(
        s
        for s in states
        if len(s["seats"][1]["work"]["building"]) == 4
        and len(s["seats"][1]["work"]["site"]) == len(P2_SITE)
        and not s["seats"][1]["work"]["converted"]
    )
    m = fdp.score(before)["seats"][1]["measures"]
    assert (m["connections"], m["qualified"], m["obstructed_doors"]) == (3, 0, 3)


def test_F_9_3_concept_judgements_compare_both_works() -> None:
    state, _ = example_game()
    lines = {
        x["card"]: (x["values"], x["met"])
        for b in seat_scores(state)
        for x in b["details"]["concepts"]
    }
    assert lines == {
        "CO01": ([1, 2], False),  # atividades spaces: 1 < 2
        "CO05": ([3, 2], True),  # types of qualification
        "CO06": ([1, 3], True),  # project cards
    }


def test_F_9_equipe_needed_for_the_estacao() -> None:
    """F-9.1: the estação is legal only once the equipe de obras is in the work."""
    hands = {0: ["SP11", "SP12", "SP17", "PE05"]}
    s = arrange(fresh(2, seed=3), hands=hands)
    s = play(s, SKIP, parse_compact("SP11@0,0r0"), SKIP, PASS)
    s = play(s, SKIP, parse_compact("SP12@0,1r0"), SKIP, PASS)
    s = play(s, SKIP)
    estacao = {"seat": 0, **parse_compact("SP17@-1,0r1")}
    assert estacao not in s["pending"]["options"]
    e = refused(s, estacao)
    assert (e.code, e.clause, e.pointer) == ("no_connection", "F-4.3", "/decisions/0/x")
    s = play(s, lay("PE05"), SKIP, PASS, SKIP)
    assert estacao in s["pending"]["options"]


def test_F_9_4_rectangle_with_a_patio() -> None:
    plan = [parse_compact(t) for t in RECTANGLE] + [lay(c) for c in ("PE02", "PE04", "PE07")]
    start = arrange(fresh(2, seed=4), hands={0: [card_of(d) for d in plan]})
    b = seat_scores(run(start, {0: plan}))[0]
    m = b["measures"]
    assert (m["rectangular"], m["area"], m["patio_cells"]) == (True, 15, 1)
    assert (m["connections"], m["qualified"], m["obstructed_doors"]) == (8, 0, 2)
    assert m["street_doors"] == 8
    bonuses = {x["ability"]: x["points"] for x in b["details"]["bonuses"]}
    assert bonuses == {"engenheiro": 30, "paisagista": 9, "urbanista": 16}
    assert b["people"] == 3 + 30 + 9 + 16


def test_F_9_5_projects_and_one_trio_make_34() -> None:
    plan = [parse_compact(t) for t in RECTANGLE[:6]]
    plan += [lay(c) for c in ("PR01", "PR02", "PR06", "PR10")]
    start = arrange(fresh(2, seed=5), hands={0: [card_of(d) for d in plan]})
    b = seat_scores(run(start, {0: plan}))[0]
    assert b["measures"]["spaces"] == 6
    assert (b["projects"], b["complete_projects"]) == (24, 10)
    assert b["projects"] + b["complete_projects"] == 34
