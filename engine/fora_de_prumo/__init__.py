"""Fora de Prumo: rules engine (clauses F-1 to F-10 of
docs/fora-de-prumo/rules.md, rulings F-R… of docs/fora-de-prumo/rulings.md).

Two faces, the same as Architectura's (engine.games.GameModule):
- JSON (for the HTTP layer, referees, clients): `new_game`, `legal_decisions`, `apply`,
  `apply_all`, `validate`, `player_view`, `score`, `replay`, catalogs.
- In-memory (for bots, OpenSpiel-style): `Game` with `legal_actions`, `apply_action`,
  `current_player`, `is_terminal`, `returns`, `WorldSampler` for determinization.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.fora_de_prumo.api import (
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
    tournament_setup,
    validate,
)
from engine.fora_de_prumo.building import SLOT_SIDE, Placement, cells_of, measure
from engine.fora_de_prumo.catalog import Catalog, builtin_catalogs, load_catalog
from engine.fora_de_prumo.features import NAMES as FEATURE_NAMES
from engine.fora_de_prumo.features import position_features
from engine.fora_de_prumo.flow import CHANCE_EVENTS, final_scores, tally
from engine.fora_de_prumo.flow import deciding_seat as current_player
from engine.fora_de_prumo.flow import options as legal_actions
from engine.fora_de_prumo.flow import step as apply_action
from engine.fora_de_prumo.model import GAME_ID, RULES_VERSION, Action, Game
from engine.fora_de_prumo.notation import from_notation as decision_from_notation
from engine.fora_de_prumo.notation import to_notation as decision_notation
from engine.fora_de_prumo.position import position_of, state_from_position
from engine.fora_de_prumo.serialize import DECISION_FIELDS, action_to_json, game_to_json
from engine.fora_de_prumo.setup import SETUP_KEYS
from engine.fora_de_prumo.view import (
    WorldSampler,
    events_for_seat,
    game_view,
    player_view,
    sample_world,
)
from engine.protocol import is_terminal
from engine.registry import GameInfo, PositionFeatures, register_game


def state_cards(state: Mapping[str, Any]) -> list[str]:
    """Every card a state holds, once each (F-1.3): the hands, the works (the building's
    spaces, the site, the clone cards), the deck and the market."""
    out: list[str] = []
    for s in state["seats"]:
        work = s["work"]
        out += s["hand"] + [p["card"] for p in work["building"]] + work["site"]
        out += [c["card"] for c in work["clones"]]
    out += state["deck"]
    out += state["market"]
    return out


__all__ = [
    "CHANCE_EVENTS",
    "DECISION_FIELDS",
    "INFO",
    "RULES_VERSION",
    "SETUP_KEYS",
    "SLOT_SIDE",
    "Action",
    "Catalog",
    "Game",
    "Placement",
    "WorldSampler",
    "action_to_json",
    "apply",
    "apply_action",
    "apply_all",
    "apply_internal",
    "builtin_catalogs",
    "cells_of",
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
    "measure",
    "new_game",
    "new_game_internal",
    "parse_decision",
    "player_view",
    "position_of",
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
    id=GAME_ID,
    name="Fora de Prumo",
    rules_version=RULES_VERSION,
    min_seats=2,  # F-1.1
    max_seats=4,
    clause_prefix="F",
    catalog_clause="F-10",  # the catalog (format F-2.1, refusals F-2.8, reference catalog F-10)
    seats_clause="F-1.1",  # the clause that numbers the seats
    view_clause="F-R6",  # what a seat sees
    rule_documents=("docs/fora-de-prumo/rules.md",),
    ruling_documents=("docs/fora-de-prumo/rulings.md",),
    play_decision="lay",  # F-3.3
    renderer="engine.fora_de_prumo.render",
    state_cards=state_cards,
    bot_prior=(2.0, 40),  # easy and medium: docs/bots.md, "Tried: a greedy prior at the root"
    features=PositionFeatures(
        FEATURE_NAMES, position_features, Path(__file__).parent / "data" / "model.json"
    ),
)
register_game(INFO, sys.modules[__name__])
