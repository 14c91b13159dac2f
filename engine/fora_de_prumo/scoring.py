"""End-of-game scoring (F-8.4 to F-8.12) and concept judgements (F-7).

Every function takes the catalog and the works of all seats (index = seat). The breakdown is
plain JSON (lists, dicts, ints, bools) so it can sit in a game state and round-trip exactly.
"""

from __future__ import annotations

from typing import Any

from engine.fora_de_prumo.building import Building, Measures, measure
from engine.fora_de_prumo.catalog import SUITS, Card, Catalog
from engine.fora_de_prumo.work import Work

# the rules' own numbers (F-2.1: not catalog data)
PER_QUALIFICATION = 3  # F-8.5
SYNERGY = 2  # F-8.6, per qualification of the type
PER_PERSON = 1  # F-8.7
ENGENHEIRO_PER_AREA = 2  # F-6.2
PAISAGISTA_PER_PATIO = 9  # F-6.4
URBANISTA_PER_STREET_DOOR = 2  # F-6.7
ARQUITETA_PER_CONNECTION = 1  # F-6.8
PER_TRIO = 10  # F-8.10 / F-R30

COMPONENTS = (
    "qualified_connections",
    "materials",
    "people",
    "concepts",
    "projects",
    "complete_projects",
)


def measure_work(cat: Catalog, work: Work, building: Building | None = None) -> Measures:
    """F-5 measures of the work's building, the equipe de obras counted however late (F-R21).
    `building`, if given, must be the work's building (saves rebuilding it)."""
    b = building if building is not None else work.built(cat)
    return measure(b, work.has_ability(cat, "equipe_de_obras"))


def _value(cat: Catalog, work: Work, m: Measures, name: str, param: str | None) -> int:
    """F-7.4: one measure of one work."""
    if name == "spaces":
        return m.spaces if param is None else m.spaces_of_suit[param]
    if name == "space_suits":
        return m.space_suits
    if name == "cards":  # face-up site cards only: a clone card has no type (F-R22)
        return sum(1 for c in work.site if cat.cards[c].type == param)
    if name == "connections":
        return m.connections
    if name == "qualified":
        return m.qualified if param is None else m.qualifications[param]
    if name == "qualified_types":
        return m.qualified_types
    if name == "street_doors":
        return m.street_doors
    if name == "patio_cells":
        return m.patio_cells
    raise ValueError(f"unknown measure {name!r}")  # the catalog loader admits none (F-2.8)


def _param(concept: Card) -> tuple[str, str | None]:
    obj = concept.objective or {}
    return obj["measure"], obj.get("suit", obj.get("type"))


def work_value(cat: Catalog, work: Work, measure_name: str, param: str | None = None) -> int:
    """F-7.4: the value of a measure (with its optional suit or type) for one work."""
    return _value(cat, work, measure_work(cat, work), measure_name, param)


def _judge(
    cat: Catalog, works: list[Work], ms: list[Measures], seat: int, concept: Card
) -> tuple[bool, list[int]]:
    """F-7.2 / F-R24: strictly more than every other work (at least as much with the
    estagiário), and never with a value of 0. Returns (met, every seat's value)."""
    name, param = _param(concept)
    values = [_value(cat, w, m, name, param) for w, m in zip(works, ms, strict=True)]
    own = values[seat]
    best_other = max((v for s, v in enumerate(values) if s != seat), default=0)
    if own <= 0:
        return False, values
    if works[seat].has_ability(cat, "estagiario"):
        return own >= best_other, values
    return own > best_other, values


def concept_met(cat: Catalog, works: list[Work], seat: int, concept: str | Card) -> bool:
    """F-7.2: is the objective of `concept` met by `seat`'s work, against all the works?"""
    card = cat.cards[concept] if isinstance(concept, str) else concept
    ms = [measure_work(cat, w) for w in works]
    return _judge(cat, works, ms, seat, card)[0]


def _measures_json(m: Measures) -> dict[str, Any]:
    return {
        "connections": m.connections,
        "qualifications": dict(m.qualifications),
        "qualified": m.qualified,
        "qualified_types": m.qualified_types,
        "street_doors": m.street_doors,
        "obstructed_doors": m.obstructed_doors,
        "patio_cells": m.patio_cells,
        "rectangular": m.rectangular,
        "area": m.area,
        "spaces": m.spaces,
        "spaces_of_suit": dict(m.spaces_of_suit),
        "space_suits": m.space_suits,
    }


def _score_one(cat: Catalog, works: list[Work], ms: list[Measures], seat: int) -> dict[str, Any]:
    work, m = works[seat], ms[seat]
    cards = cat.cards
    site = [cards[c] for c in work.site]
    cloned = work.cloned()
    factor = {c.id: 2 if c.id in cloned else 1 for c in site}  # F-6.6: the card scores double
    quals = m.qualifications

    # F-8.5
    qualified = PER_QUALIFICATION * m.qualified
    # F-8.6, F-R29, F-R35
    materials = [c for c in site if c.type == "material"]
    mat_lines: list[dict[str, Any]] = []
    for c in materials:
        assert c.suit is not None
        pts = c.value * factor[c.id] * quals[c.suit]
        mat_lines.append(
            {
                "card": c.id,
                "suit": c.suit,
                "value": c.value,
                "cloned": c.id in cloned,
                "qualifications": quals[c.suit],
                "points": pts,
            }
        )
    syn_lines: list[dict[str, Any]] = []
    for s in SUITS:
        phases = {c.phase for c in materials if c.suit == s}
        if 2 in phases and 3 in phases:
            syn_lines.append({"suit": s, "qualifications": quals[s], "points": SYNERGY * quals[s]})
    materials_pts = sum(x["points"] for x in mat_lines) + sum(x["points"] for x in syn_lines)
    # F-8.7 and the people's bonuses; each person card applies its ability (F-R36)
    people = [c for c in site if c.type == "person"]
    person_lines: list[dict[str, Any]] = [
        {"card": c.id, "ability": c.ability, "points": PER_PERSON} for c in people
    ]
    bonus_lines: list[dict[str, Any]] = []
    for c in people:
        if c.ability == "engenheiro":
            pts = ENGENHEIRO_PER_AREA * m.area if m.rectangular else 0
            bonus_lines.append(
                {
                    "card": c.id,
                    "ability": "engenheiro",
                    "rectangular": m.rectangular,
                    "area": m.area,
                    "points": pts,
                }
            )
        elif c.ability == "paisagista":
            bonus_lines.append(
                {
                    "card": c.id,
                    "ability": "paisagista",
                    "patio_cells": m.patio_cells,
                    "points": PAISAGISTA_PER_PATIO * m.patio_cells,
                }
            )
        elif c.ability == "urbanista":
            bonus_lines.append(
                {
                    "card": c.id,
                    "ability": "urbanista",
                    "street_doors": m.street_doors,
                    "points": URBANISTA_PER_STREET_DOOR * m.street_doors,
                }
            )
    people_pts = sum(x["points"] for x in person_lines) + sum(x["points"] for x in bonus_lines)
    # F-8.8 / F-7.3; each arquiteta card adds its +1 (F-R36)
    arquitetas = sum(1 for c in people if c.ability == "arquiteta")
    concept_lines: list[dict[str, Any]] = []
    for c in site:
        if c.type != "concept":
            continue
        met, values = _judge(cat, works, ms, seat, c)
        name, param = _param(c)
        per = c.points + ARQUITETA_PER_CONNECTION * arquitetas
        line: dict[str, Any] = {"card": c.id, "measure": name}
        if param is not None:
            line["param"] = param
        line.update(
            {
                "values": values,
                "met": met,
                "per_connection": per,
                "connections": m.connections,
                "cloned": c.id in cloned,
                "points": per * m.connections * factor[c.id] if met else 0,
            }
        )
        concept_lines.append(line)
    concepts_pts = sum(x["points"] for x in concept_lines)
    # F-8.9
    projects = [c for c in site if c.type == "project"]
    project_lines: list[dict[str, Any]] = [
        {
            "card": c.id,
            "phase": c.phase,
            "value": c.value,
            "cloned": c.id in cloned,
            "spaces": m.spaces,
            "points": c.value * factor[c.id] * m.spaces,
        }
        for c in projects
    ]
    projects_pts = sum(x["points"] for x in project_lines)
    # F-8.10 / F-R30 / F-R23 (a clone adds no project card)
    by_phase = [sum(1 for c in projects if c.phase == p) for p in (1, 2, 3)]
    trios = min(by_phase)
    breakdown: dict[str, Any] = {
        "qualified_connections": qualified,
        "materials": materials_pts,
        "people": people_pts,
        "concepts": concepts_pts,
        "projects": projects_pts,
        "complete_projects": PER_TRIO * trios,
    }
    no_space = m.spaces == 0
    if no_space:  # F-R31: without a space nothing scores
        breakdown = dict.fromkeys(COMPONENTS, 0)
    breakdown["total"] = sum(breakdown[k] for k in COMPONENTS)
    breakdown["details"] = {
        "no_space": no_space,
        "qualified_connections": {
            "qualifications": m.qualified,
            "per_qualification": PER_QUALIFICATION,
        },
        "materials": mat_lines,
        "synergy": syn_lines,
        "people": person_lines,
        "bonuses": bonus_lines,
        "concepts": concept_lines,
        "projects": project_lines,
        "trios": {"phase_counts": by_phase, "trios": trios},
    }
    breakdown["measures"] = _measures_json(m)
    return breakdown


def score_works(
    cat: Catalog, works: list[Work], buildings: list[Building] | None = None
) -> list[dict[str, Any]]:
    """F-8.4: one breakdown per seat, components in the text's order, then total, details and
    measures. `buildings`, if given, are the works' buildings (saves rebuilding them)."""
    ms = [
        measure_work(cat, w, None if buildings is None else buildings[s])
        for s, w in enumerate(works)
    ]
    return [_score_one(cat, works, ms, s) for s in range(len(works))]


def standings(
    cat: Catalog, works: list[Work], buildings: list[Building] | None = None
) -> dict[str, Any]:
    """F-8.12 / F-R32: highest total; ties to more connections, then more spaces, else shared."""
    scores = score_works(cat, works, buildings)
    seats = [
        {
            "seat": s,
            "total": b["total"],
            "connections": b["measures"]["connections"],
            "spaces": b["measures"]["spaces"],
            **b,
        }
        for s, b in enumerate(scores)
    ]
    tied = list(range(len(seats)))
    decided_by = "shared"
    for key in ("total", "connections", "spaces"):
        best = max(seats[s][key] for s in tied)
        tied = [s for s in tied if seats[s][key] == best]
        if len(tied) == 1:
            decided_by = "score" if key == "total" else key
            break
    return {"seats": seats, "winners": tied, "decided_by": decided_by, "clause": "F-8.12"}
