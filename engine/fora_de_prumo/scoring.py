"""End-of-game scoring (F-8.4 to F-8.12) and concept judgements (F-7).

Every function takes the catalog and the works of all seats (index = seat). The breakdown is
plain JSON (lists, dicts, ints, bools) so it can sit in a game state and round-trip exactly.
"""

from __future__ import annotations

from collections.abc import Callable
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


class _Seat:
    """One seat's work as the F-8 clauses read it: its face-up site cards by type, the
    measures of every work (F-7.2 compares them) and the clone factor of each card (F-6.6)."""

    __slots__ = ("cat", "cloned", "factor", "m", "ms", "seat", "types", "works")

    def __init__(
        self,
        cat: Catalog,
        works: list[Work],
        ms: list[Measures],
        seat: int,
        m: Measures,
        types: dict[str, list[Card]],  # the site's cards by type, in site order
        cloned: set[str],
        factor: dict[str, int],
    ) -> None:
        self.cat = cat
        self.works = works
        self.ms = ms
        self.seat = seat
        self.m = m
        self.types = types
        self.cloned = cloned
        self.factor = factor

    def of_type(self, kind: str) -> list[Card]:
        return self.types.get(kind) or []


# One clause's score: (the seat, the details to add to in the breakdown's order, or None
# when only the points are wanted: a search's tally) -> points.
Details = dict[str, Any] | None
Clause = Callable[[_Seat, Details], int]


def _qualified_connections(s: _Seat, details: Details) -> int:
    """F-8.5: PER_QUALIFICATION points per qualified connection."""
    m = s.m
    if details is not None:
        details["qualified_connections"] = {
            "qualifications": m.qualified,
            "per_qualification": PER_QUALIFICATION,
        }
    return PER_QUALIFICATION * m.qualified


def _suit(c: Card) -> str:
    assert c.suit is not None  # a material has a suit (F-1.2; the catalog loader checks it)
    return c.suit


def _materials(s: _Seat, details: Details) -> int:
    """F-8.6 / F-R29 / F-R35: each material's value times its suit's qualifications (double
    when cloned, F-6.6), and SYNERGY per qualification of a suit with phases 2 and 3."""
    quals = s.m.qualifications
    materials = s.of_type("material")
    points = [c.value * s.factor[c.id] * quals[_suit(c)] for c in materials]
    synergies = [
        (suit, SYNERGY * quals[suit])
        for suit in SUITS
        if {2, 3} <= {c.phase for c in materials if c.suit == suit}
    ]
    if details is not None:
        details["materials"] = [
            {
                "card": c.id,
                "suit": c.suit,
                "value": c.value,
                "cloned": c.id in s.cloned,
                "qualifications": quals[_suit(c)],
                "points": pts,
            }
            for c, pts in zip(materials, points, strict=True)
        ]
        details["synergy"] = [
            {"suit": suit, "qualifications": quals[suit], "points": pts} for suit, pts in synergies
        ]
    return sum(points) + sum(pts for _, pts in synergies)


def _engenheiro(m: Measures) -> dict[str, Any]:
    """F-6.2: ENGENHEIRO_PER_AREA per cell of a rectangular building's area."""
    pts = ENGENHEIRO_PER_AREA * m.area if m.rectangular else 0
    return {"rectangular": m.rectangular, "area": m.area, "points": pts}


def _paisagista(m: Measures) -> dict[str, Any]:
    """F-6.4: PAISAGISTA_PER_PATIO per patio cell."""
    return {"patio_cells": m.patio_cells, "points": PAISAGISTA_PER_PATIO * m.patio_cells}


def _urbanista(m: Measures) -> dict[str, Any]:
    """F-6.7: URBANISTA_PER_STREET_DOOR per door on the street."""
    return {"street_doors": m.street_doors, "points": URBANISTA_PER_STREET_DOOR * m.street_doors}


# The person abilities that score a bonus at the end (F-8.7), each applied per card (F-R36).
PERSON_BONUSES: dict[str, Callable[[Measures], dict[str, Any]]] = {
    "engenheiro": _engenheiro,
    "paisagista": _paisagista,
    "urbanista": _urbanista,
}


def _people(s: _Seat, details: Details) -> int:
    """F-8.7: PER_PERSON per person card, and the people's bonuses (PERSON_BONUSES); each
    person card applies its ability (F-R36)."""
    people = s.of_type("person")
    bonus_lines: list[dict[str, Any]] = []
    for c in people:
        bonus = PERSON_BONUSES.get(c.ability) if c.ability is not None else None
        if bonus is not None:
            bonus_lines.append({"card": c.id, "ability": c.ability, **bonus(s.m)})
    if details is not None:
        details["people"] = [
            {"card": c.id, "ability": c.ability, "points": PER_PERSON} for c in people
        ]
        details["bonuses"] = bonus_lines
    pts: int = PER_PERSON * len(people) + sum(x["points"] for x in bonus_lines)
    return pts


def _concepts(s: _Seat, details: Details) -> int:
    """F-8.8 / F-7.3: a met concept's points (each arquiteta card adds its +1, F-6.8 /
    F-R36) per connection, double when cloned (F-6.6)."""
    m = s.m
    arquitetas = sum(1 for c in s.of_type("person") if c.ability == "arquiteta")
    concept_lines: list[dict[str, Any]] = []
    total = 0
    for c in s.of_type("concept"):
        met, values = _judge(s.cat, s.works, s.ms, s.seat, c)
        per = c.points + ARQUITETA_PER_CONNECTION * arquitetas
        pts = per * m.connections * s.factor[c.id] if met else 0
        total += pts
        if details is None:
            continue
        name, param = _param(c)
        line: dict[str, Any] = {"card": c.id, "measure": name}
        if param is not None:
            line["param"] = param
        line.update(
            {
                "values": values,
                "met": met,
                "per_connection": per,
                "connections": m.connections,
                "cloned": c.id in s.cloned,
                "points": pts,
            }
        )
        concept_lines.append(line)
    if details is not None:
        details["concepts"] = concept_lines
    return total


def _projects(s: _Seat, details: Details) -> int:
    """F-8.9: each project's value per space, double when cloned (F-6.6)."""
    spaces = s.m.spaces
    projects = s.of_type("project")
    points = [c.value * s.factor[c.id] * spaces for c in projects]
    if details is not None:
        details["projects"] = [
            {
                "card": c.id,
                "phase": c.phase,
                "value": c.value,
                "cloned": c.id in s.cloned,
                "spaces": spaces,
                "points": pts,
            }
            for c, pts in zip(projects, points, strict=True)
        ]
    return sum(points)


def _complete_projects(s: _Seat, details: Details) -> int:
    """F-8.10 / F-R30: PER_TRIO per trio of projects of phases 1, 2 and 3 (a clone adds no
    project card, F-R23)."""
    projects = s.of_type("project")
    by_phase = [sum(1 for c in projects if c.phase == p) for p in (1, 2, 3)]
    trios = min(by_phase)
    if details is not None:
        details["trios"] = {"phase_counts": by_phase, "trios": trios}
    return PER_TRIO * trios


# F-8.4: the components in the text's order, each scored by its clause's function.
SCORING: tuple[tuple[str, Clause], ...] = (
    ("qualified_connections", _qualified_connections),
    ("materials", _materials),
    ("people", _people),
    ("concepts", _concepts),
    ("projects", _projects),
    ("complete_projects", _complete_projects),
)
COMPONENTS = tuple(name for name, _ in SCORING)


def _score_one(
    cat: Catalog, works: list[Work], ms: list[Measures], seat: int, explain: bool = True
) -> dict[str, Any]:
    """F-8.4: one seat's breakdown (SCORING's components, total, and when `explain`, details
    and measures); F-R31: without a space nothing scores."""
    work, m = works[seat], ms[seat]
    cards = cat.cards
    cloned = work.cloned()
    types: dict[str, list[Card]] = {}
    factor: dict[str, int] = {}
    for cid in work.site:
        c = cards[cid]
        types.setdefault(c.type, []).append(c)
        factor[cid] = 2 if cid in cloned else 1  # F-6.6: the card scores double
    s = _Seat(cat, works, ms, seat, m, types, cloned, factor)
    no_space = m.spaces == 0
    breakdown: dict[str, Any] = {}
    details: Details = {"no_space": no_space} if explain else None
    for name, clause in SCORING:
        pts = clause(s, details)
        breakdown[name] = 0 if no_space else pts
    breakdown["total"] = sum(breakdown[k] for k in COMPONENTS)
    if explain:
        breakdown["details"] = details
        breakdown["measures"] = _measures_json(m)
    return breakdown


def _measures(cat: Catalog, works: list[Work], buildings: list[Building] | None) -> list[Measures]:
    return [
        measure_work(cat, w, None if buildings is None else buildings[s])
        for s, w in enumerate(works)
    ]


def score_works(
    cat: Catalog, works: list[Work], buildings: list[Building] | None = None
) -> list[dict[str, Any]]:
    """F-8.4: one breakdown per seat, components in the text's order, then total, details and
    measures. `buildings`, if given, are the works' buildings (saves rebuilding them)."""
    ms = _measures(cat, works, buildings)
    return [_score_one(cat, works, ms, s) for s in range(len(works))]


def standings(
    cat: Catalog, works: list[Work], buildings: list[Building] | None = None, explain: bool = True
) -> dict[str, Any]:
    """F-8.12 / F-R32: highest total; ties to more connections, then more spaces, else shared.
    Without `explain`, each seat's breakdown lacks its details and measures: the same totals
    and winners for a fraction of the work (a search's tally)."""
    ms = _measures(cat, works, buildings)
    seats = [
        {
            "seat": s,
            "total": b["total"],
            "connections": ms[s].connections,
            "spaces": ms[s].spaces,
            **b,
        }
        for s, b in enumerate(_score_one(cat, works, ms, s, explain) for s in range(len(works)))
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
