"""Architectura: rules engine (clauses A-1 to A-10 of docs/architectura/rules.md).

Two faces:
- JSON (for the HTTP layer, referees, clients): `new_game`, `legal_decisions`, `apply`,
  `apply_all`, `validate`, `player_view`, `score`, `replay`, catalogs.
- In-memory (for bots, OpenSpiel-style): `Game` with `legal_actions`, `apply_action`,
  `current_player`, `is_terminal`, `returns`, `WorldSampler` for determinization.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.architectura.api import (
    apply,
    apply_all,
    apply_internal,
    get_catalog,
    legal_decisions,
    load,
    new_game,
    new_game_internal,
    parse_decision,
    replay,
    require_decider,
    returns,
    score,
    validate,
)
from engine.architectura.catalog import Catalog, builtin_catalogs, load_catalog
from engine.architectura.features import NAMES as FEATURE_NAMES
from engine.architectura.features import position_features
from engine.architectura.flow import CHANCE_EVENTS
from engine.architectura.flow import deciding_seat as current_player
from engine.architectura.flow import options as legal_actions
from engine.architectura.flow import step as apply_action
from engine.architectura.model import RULES_VERSION, Action, Game
from engine.architectura.notation import from_notation as decision_from_notation
from engine.architectura.notation import to_notation as decision_notation
from engine.architectura.position import position_of, state_from_position
from engine.architectura.scoring import final_scores, tally
from engine.architectura.serialize import DECISION_TYPES as DECISION_FIELDS
from engine.architectura.serialize import action_to_json, game_to_json
from engine.architectura.setup import SETUP_KEYS, random_replacements
from engine.architectura.view import (
    WorldSampler,
    events_for_seat,
    game_view,
    player_view,
    sample_world,
)
from engine.protocol import is_terminal
from engine.registry import GameInfo, PositionFeatures, register_game


def tournament_setup(seed: int, seats: int, variant: str | None = None) -> dict[str, Any]:
    """A seeded set-up for bot matches: the advanced game draws random A-1.5 replacements."""
    setup: dict[str, Any] = {"seats": seats, "seed": seed, "variant": variant or "basic"}
    if setup["variant"] == "advanced":
        setup["replacements"] = random_replacements(
            builtin_catalogs()["reference"], random.Random(seed), seats
        )
    return setup


def state_cards(state: Mapping[str, Any]) -> list[str]:
    """Every card instance a state holds, once each (A-1.3): each seat's deck, hand, cards
    outside the city, beside the Graveyard and removed, every card of the city's stacks, and
    a card being paid for (a `pay` step of `resolving`)."""
    out: list[str] = []
    for s in state["seats"]:
        for zone in ("deck", "hand", "outside", "graveyard", "removed"):
            out += s[zone]
    out += [e["card"] for street in state["city"] for cell in street for e in cell]
    return out + [t["card"] for t in state["resolving"] if t.get("k") == "pay"]


def card_kind(card: str) -> str:
    """A card's kind: the cards are per colour (blue.tavern), one kind for every colour."""
    return card.split(".", 1)[1] if "." in card else card


__all__ = [
    "CHANCE_EVENTS",
    "DECISION_FIELDS",
    "INFO",
    "RULES_VERSION",
    "SETUP_KEYS",
    "Action",
    "Catalog",
    "Game",
    "WorldSampler",
    "action_to_json",
    "apply",
    "apply_action",
    "apply_all",
    "apply_internal",
    "builtin_catalogs",
    "card_kind",
    "current_player",
    "decision_from_notation",
    "decision_notation",
    "events_for_seat",
    "final_scores",
    "game_to_json",
    "game_view",
    "get_catalog",
    "is_terminal",
    "legal_actions",
    "legal_decisions",
    "load",
    "load_catalog",
    "new_game",
    "new_game_internal",
    "parse_decision",
    "player_view",
    "position_of",
    "random_replacements",
    "replay",
    "require_decider",
    "returns",
    "sample_world",
    "score",
    "state_cards",
    "state_from_position",
    "tally",
    "tournament_setup",
    "validate",
]

INFO = GameInfo(
    id="architectura",
    name="Architectura",
    rules_version=RULES_VERSION,
    min_seats=2,
    max_seats=4,
    clause_prefix="A",
    catalog_clause="A-10",
    seats_clause="A-1.1",  # the clause that numbers the seats
    view_clause="A-R13",  # what a seat sees
    rule_documents=("docs/architectura/rules.md",),
    ruling_documents=("docs/rulings.md",),
    play_decision="play",
    card_name=card_kind,
    setup_order=SETUP_KEYS,
    setup_defaults={"variant": "basic", "first_seat": 0, "catalog": "reference"},
    cell_name="street {0}, block {1}",  # a city of streets, each of blocks
    setup_choices={"variant": ("basic", "advanced")},
    bot_prior=(1.0, 10),  # easy only: docs/bots.md, "Tried: a greedy prior at the root"
    renderer="engine.architectura.render",
    state_cards=state_cards,
    features=PositionFeatures(
        FEATURE_NAMES, position_features, Path(__file__).parent / "data" / "model.json"
    ),
)
register_game(INFO, sys.modules[__name__])
