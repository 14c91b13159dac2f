"""The worked examples of F-9 as Works, each built in the order given with every space checked
by `placement_error` (and found by `legal_placements`) before it is laid."""

from __future__ import annotations

from engine.fora_de_prumo.building import legal_placements, parse_compact, placement_error
from engine.fora_de_prumo.catalog import Catalog, builtin_catalogs
from engine.fora_de_prumo.work import Work

CAT: Catalog = builtin_catalogs()["reference"]


def build(steps: list[str], cat: Catalog = CAT) -> Work:
    """Steps: 'SP11@0,0r0' lays a space, 'PE05' a site card, 'convert:SP05' converts a space
    (F-6.3, needs a designer in the site), 'clone:MA06:PR02' lays PR02 face down on MA06."""
    w = Work()
    for step in steps:
        equipe = w.has_ability(cat, "equipe_de_obras")
        if step.startswith("convert:"):
            target = step.split(":")[1]
            designer = next(c for c in w.site if cat.cards[c].ability == "designer_de_interiores")
            assert designer not in w.spent and target not in w.converted
            assert target in {p.card for p in w.building}
            w.converted.append(target)
            w.spent.append(designer)
        elif step.startswith("clone:"):
            _, target, card = step.split(":")
            assert w.has_ability(cat, "teorica") and target in w.site
            w.clones.append((target, card))
        elif "@" in step:
            p = parse_compact(step)
            assert p is not None
            b = w.built(cat)
            assert placement_error(b, p.card, p.x, p.y, p.r, equipe) is None, step
            assert p in legal_placements(b, p.card, equipe), step
            w.building.append(p)
        else:
            assert cat.cards[step].type != "space"
            w.site.append(step)
    return w


# F-9.1: player 1 (62 points)
STEPS_1 = [
    "MA01", "MA05", "CO01", "CO05",
    "SP11@0,0r0", "SP12@0,1r0", "SP09@0,-1r0", "SP02@2,-1r0",
    "PE05",  # the equipe de obras, laid before the estação that needs it
    "SP17@-1,0r1",
    "MA07", "PE08", "PR11",
]  # fmt: skip
# F-9.2: player 2 (72 points); the corredor is converted into the text's "coringa" (F-R33)
STEPS_2_BEFORE = [
    "PE03", "PE06", "MA06", "CO06", "PR01",
    "SP05@0,0r0", "SP10@0,-1r0", "SP03@0,1r0", "SP04@2,0r1",
]  # fmt: skip
STEPS_2 = [*STEPS_2_BEFORE, "convert:SP05", "clone:MA06:PR02", "PE07", "PR06", "PR10"]
# F-9.4: the engenheiro's rectangle with a patio
STEPS_4 = [
    "SP05@0,0r2",
    "SP12@-1,2r3",
    "SP09@1,2r2",
    "SP20@2,1r2",
    "SP10@1,0r0",
    "SP01@2,2r0",
    "SP03@3,1r3",
]
# F-9.5: four projects and six spaces (the first six spaces of F-9.4: no qualification)
STEPS_5 = [*STEPS_4[:6], "PR01", "PR02", "PR06", "PR10"]


def work_1() -> Work:
    return build(STEPS_1)


def work_2() -> Work:
    return build(STEPS_2)
