"""A player's work (F-4.1): the building's placements and the site, as recorded (F-2.7)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.fora_de_prumo.building import Building, Placement
from engine.fora_de_prumo.catalog import Catalog


@dataclass(slots=True)
class Work:
    """Everything laid, in order; cards never leave it (F-R9).

    `site` holds the face-up site cards (F-3.5); a clone card (F-6.6) is recorded only in
    `clones` as (target id, clone card id) and counts for nothing (F-R22).
    """

    building: list[Placement] = field(default_factory=list)
    converted: list[str] = field(default_factory=list)
    site: list[str] = field(default_factory=list)
    clones: list[tuple[str, str]] = field(default_factory=list)
    spent: list[str] = field(default_factory=list)

    def copy(self) -> Work:
        return Work(
            self.building[:], self.converted[:], self.site[:], self.clones[:], self.spent[:]
        )

    def has_ability(self, cat: Catalog, key: str) -> bool:
        """A face-up person with this ability is in the site (F-6)."""
        cards = cat.cards
        return any(cards[c].ability == key for c in self.site)

    def ability_count(self, cat: Catalog, key: str) -> int:
        cards = cat.cards
        return sum(1 for c in self.site if cards[c].ability == key)

    def all_cards(self) -> list[str]:
        """Every card in the work: spaces, site cards and clone cards (F-4.1)."""
        return [p.card for p in self.building] + self.site + [c for _, c in self.clones]

    def cloned(self) -> set[str]:
        """Ids of the site cards that carry a clone card (F-6.6)."""
        return {t for t, _ in self.clones}

    def built(self, cat: Catalog) -> Building:
        """The building these records describe (conversions applied, F-6.3)."""
        return Building(cat, self.building, self.converted)
