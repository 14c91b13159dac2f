"""Fora de Prumo scoring (F-7, F-8): the worked examples of F-9 scored component by component,
each scoring rule and ruling on small works, and the standings (F-8.12)."""

from __future__ import annotations

import json
from typing import Any

from fdp_examples import CAT, STEPS_1, STEPS_2, STEPS_4, STEPS_5, build, work_1, work_2
from fdp_support import two_engineers_catalog

from engine.fora_de_prumo.catalog import load_catalog
from engine.fora_de_prumo.scoring import COMPONENTS, concept_met, score_works, standings
from engine.fora_de_prumo.work import Work


def components(b: dict[str, Any]) -> dict[str, int]:
    return {k: b[k] for k in (*COMPONENTS, "total")}


def test_F_9_1_player_1_scores_62() -> None:
    p1, _ = score_works(CAT, [work_1(), work_2()])
    assert components(p1) == {
        "qualified_connections": 15,  # 5 x 3
        "materials": 20,  # exteriores (2 + 4 + synergy 2) x 1, circulações 4 x 3
        "people": 2,
        "concepts": 20,  # Variada (3 + 1) x 5
        "projects": 5,  # As built 1 x 5 spaces
        "complete_projects": 0,
        "total": 62,
    }
    d = p1["details"]
    assert [(x["card"], x["qualifications"], x["points"]) for x in d["materials"]] == [
        ("MA01", 1, 2),
        ("MA05", 1, 4),
        ("MA07", 3, 12),
    ]
    assert d["synergy"] == [{"suit": "exteriores", "qualifications": 1, "points": 2}]
    assert [x["card"] for x in d["people"]] == ["PE05", "PE08"] and d["bonuses"] == []
    assert [(x["card"], x["met"], x["values"], x["per_connection"]) for x in d["concepts"]] == [
        ("CO01", False, [1, 2], 4),
        ("CO05", True, [3, 2], 4),
    ]
    assert d["trios"] == {"phase_counts": [0, 0, 1], "trios": 0}
    assert p1["measures"]["street_doors"] == 6


def test_F_9_2_player_2_scores_72() -> None:
    _, p2 = score_works(CAT, [work_1(), work_2()])
    assert components(p2) == {
        "qualified_connections": 9,  # 3 x 3
        "materials": 8,  # Madeira 4, cloned: 8 x 1 conforto qualification
        "people": 15,  # teórica, designer, urbanista + urbanista 2 x 6 street doors
        "concepts": 18,  # Minuciosa 3 x 6
        "projects": 12,  # (1 + 1 + 1) x 4 spaces; the face-down Levantamento is no project
        "complete_projects": 10,
        "total": 72,
    }
    d = p2["details"]
    assert d["materials"] == [
        {
            "card": "MA06",
            "suit": "conforto",
            "value": 4,
            "cloned": True,
            "qualifications": 1,
            "points": 8,
        }
    ]
    assert d["bonuses"] == [
        {"card": "PE07", "ability": "urbanista", "street_doors": 6, "points": 12}
    ]
    assert [x["card"] for x in d["projects"]] == ["PR01", "PR06", "PR10"]
    assert d["trios"] == {"phase_counts": [1, 1, 1], "trios": 1}


def test_F_9_3_concept_judgements() -> None:
    works = [work_1(), work_2()]
    assert not concept_met(CAT, works, 0, "CO01")  # atividades spaces 1 < 2
    assert concept_met(CAT, works, 0, "CO05")  # qualification types 3 > 2
    assert concept_met(CAT, works, 1, "CO06")  # project cards 3 > 1
    assert concept_met(CAT, works, 1, "CO01")  # the same objective, judged for player 2


def test_F_9_4_engenheiro_paisagista_urbanista() -> None:
    w = build([*STEPS_4, "PE02", "PE04", "PE07"])
    score = score_works(CAT, [w, Work()])[0]
    assert score["details"]["bonuses"] == [
        {"card": "PE02", "ability": "engenheiro", "rectangular": True, "area": 15, "points": 30},
        {"card": "PE04", "ability": "paisagista", "patio_cells": 1, "points": 9},
        {"card": "PE07", "ability": "urbanista", "street_doors": 8, "points": 16},
    ]
    assert score["people"] == 3 + 30 + 9 + 16
    assert score["total"] == score["people"]  # no qualification, nothing else in the site


def test_F_6_2_engenheiro_pays_nothing_if_not_rectangular() -> None:
    w = build([*STEPS_4[:-1], "PE02"])  # without the sala de aula: the box is not filled
    bonus = score_works(CAT, [w, Work()])[0]["details"]["bonuses"][0]
    assert (bonus["rectangular"], bonus["points"]) == (False, 0)


def test_F_9_5_projects_34() -> None:
    score = score_works(CAT, [build(STEPS_5), Work()])[0]
    assert components(score) == {
        "qualified_connections": 0,
        "materials": 0,
        "people": 0,
        "concepts": 0,
        "projects": 24,  # 4 projects x 6 spaces
        "complete_projects": 10,  # min(2, 1, 1)
        "total": 34,
    }
    assert score["details"]["trios"] == {"phase_counts": [2, 1, 1], "trios": 1}


def test_F_8_4_components_in_order_and_plain_json() -> None:
    works = [work_1(), work_2()]
    for b in score_works(CAT, works):
        assert list(b)[:7] == [*COMPONENTS, "total"]
        assert b["total"] == sum(b[k] for k in COMPONENTS)
        assert json.loads(json.dumps(b)) == b  # no tuples: the state round-trips exactly
    st = standings(CAT, works)
    assert json.loads(json.dumps(st)) == st


def test_F_8_12_standings_of_the_example() -> None:
    st = standings(CAT, [work_1(), work_2()])
    assert st["winners"] == [1] and st["decided_by"] == "score" and st["clause"] == "F-8.12"
    assert [(s["seat"], s["total"], s["connections"], s["spaces"]) for s in st["seats"]] == [
        (0, 62, 5, 5),
        (1, 72, 6, 4),
    ]


def test_F_R32_ties_connections_then_spaces_then_shared() -> None:
    two_conn = build(["SP11@0,0r0", "SP09@0,-1r0"])  # 2 connections, 1 qualification: 3
    one_conn = build(["SP05@0,0r0", "SP10@0,-1r0", "PR01", "PR06"])  # 1 connection; 2 x 2 = 4
    one_space = build(["SP05@0,0r0", "PR01", "PR02", "PR03", "PR11"])  # 4 x 1, no trio
    st = standings(CAT, [one_space, one_conn])
    assert [s["total"] for s in st["seats"]] == [4, 4]
    assert (st["winners"], st["decided_by"]) == ([1], "connections")
    three_spaces = build(["SP05@0,0r0", "SP10@0,-1r0", "SP03@0,1r0", "PE01", "PE03", "PE09"])
    st = standings(CAT, [two_conn, three_spaces])  # 3 = 3, 2 = 2 connections, 2 < 3 spaces
    assert [s["total"] for s in st["seats"]] == [3, 3]
    assert (st["winners"], st["decided_by"]) == ([1], "spaces")
    st = standings(CAT, [two_conn, two_conn.copy(), Work()])
    assert (st["winners"], st["decided_by"]) == ([0, 1], "shared")


def test_F_R31_no_space_scores_zero_but_still_has_values() -> None:
    nothing = build(["PE01", "PE02", "PR01", "PR06", "PR10"])
    other = build(["SP05@0,0r0", "CO06", "PR11"])
    a, b = score_works(CAT, [nothing, other])
    assert components(a) == dict.fromkeys((*COMPONENTS, "total"), 0)
    assert a["details"]["no_space"] and not b["details"]["no_space"]
    # its 3 project cards still beat the other seat's 1 for Minuciosa (F-8.11, F-7.2)
    assert b["details"]["concepts"][0]["values"] == [3, 1] and b["concepts"] == 0


def test_F_R24_strictly_more_and_never_zero() -> None:
    a = build(["SP05@0,0r0", "CO07"])  # 0 connections
    b = build(["SP03@0,0r0"])
    assert not concept_met(CAT, [a, b], 0, "CO07")  # 0 = 0: a 0 never meets
    a.site.append("PE09")  # even with the estagiário
    assert not concept_met(CAT, [a, b], 0, "CO07")
    c = build(["SP11@0,0r0", "SP09@0,-1r0", "CO07"])  # 2 connections
    d = build(["SP05@0,0r0", "SP10@0,-1r0", "SP03@0,1r0"])  # 2 connections
    assert not concept_met(CAT, [c, d], 0, "CO07")  # a tie is not enough


def test_F_6_9_estagiario_a_tie_is_enough() -> None:
    c = build(["SP11@0,0r0", "SP09@0,-1r0", "CO07", "PE09"])
    d = build(["SP05@0,0r0", "SP10@0,-1r0", "SP03@0,1r0"])
    assert concept_met(CAT, [c, d], 0, "CO07")
    e = build(["SP05@0,0r0", "SP10@0,-1r0", "SP03@0,1r0", "SP04@2,0r1"])  # 3 connections
    assert not concept_met(CAT, [c, e], 0, "CO07")  # less than the highest


def test_F_7_3_arquiteta_and_clone_double_a_concept() -> None:
    c = build(["SP11@0,0r0", "SP09@0,-1r0", "CO07", "PE08", "PE06", "clone:CO07:PR02"])
    line = score_works(CAT, [c, Work()])[0]["details"]["concepts"][0]
    assert (line["met"], line["per_connection"], line["cloned"]) == (True, 4, True)
    assert line["points"] == (3 + 1) * 2 * 2


def two_conforto_doors(extra: list[str]) -> Work:
    """Bar P (SP10#4) meets spa P (SP19#5): both conforto, so 2 conforto qualifications."""
    return build(["SP10@0,0r0", "SP19@0,1r1", *extra])


def test_F_R35_one_connection_qualified_twice_with_one_type_pays_twice() -> None:
    w = two_conforto_doors(["MA02", "MA06"])
    s = score_works(CAT, [w, Work()])[0]
    assert s["measures"]["connections"] == 1 and s["measures"]["qualifications"]["conforto"] == 2
    assert s["qualified_connections"] == 6
    assert s["materials"] == (2 + 4 + 2) * 2  # both materials and the synergy, per qualification


def test_F_R23_clone_doubles_the_material_not_the_synergy() -> None:
    w = two_conforto_doors(["MA02", "MA06", "PE06", "clone:MA06:PR03"])
    s = score_works(CAT, [w, Work()])[0]
    assert s["materials"] == (2 + 2 * 4 + 2) * 2


def test_F_R29_synergy_needs_both_phases() -> None:
    w = two_conforto_doors(["MA06"])
    s = score_works(CAT, [w, Work()])[0]
    assert s["details"]["synergy"] == [] and s["materials"] == 4 * 2


def test_F_8_9_cloned_project_and_F_R30_trios() -> None:
    w = build(["SP05@0,0r0", "SP10@0,-1r0", "PR01", "PR02", "PR06", "PR10", "PE06"])
    w.clones.append(("PR06", "PR11"))  # PR11 face down: no phase III project added (F-R23)
    s = score_works(CAT, [w, Work()])[0]
    assert s["projects"] == (1 + 1 + 2 * 1 + 1) * 2
    assert s["complete_projects"] == 10  # min(2, 1, 1)
    w.site += ["PR07", "PR12"]  # phase II and III: two of each phase, two trios (F-R30)
    assert score_works(CAT, [w, Work()])[0]["complete_projects"] == 20


def custom_catalog() -> Any:
    return load_catalog(two_engineers_catalog())


def test_F_R36_each_person_card_applies_its_ability() -> None:
    cat = custom_catalog()
    w = build([*STEPS_4, "PE02", "PE10"], cat)
    s = score_works(cat, [w, Work()])[0]
    assert [x["points"] for x in s["details"]["bonuses"]] == [30, 30]
    assert s["people"] == 2 + 60


def test_examples_need_their_site_cards() -> None:
    """Without the arquiteta, Variada pays 3 a connection; without the equipe the estação's
    door is obstructed and player 1 loses a connection and a qualification."""
    no_arq = build([s for s in STEPS_1 if s != "PE08"])
    assert score_works(CAT, [no_arq, work_2()])[0]["concepts"] == 3 * 5
    w = work_1()
    w.site.remove("PE05")
    s = score_works(CAT, [w, work_2()])[0]
    assert s["measures"]["connections"] == 4 and s["qualified_connections"] == 12
    unconverted = work_2()
    unconverted.converted.clear()
    assert score_works(CAT, [work_1(), unconverted])[1]["measures"]["connections"] == 3
    assert build(STEPS_2).converted == ["SP05"]
