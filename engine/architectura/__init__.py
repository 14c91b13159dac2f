"""Architectura: rules engine (clauses A-1 to A-10 of docs/rules.md).

Two faces:
- JSON (for the HTTP layer, referees, clients): `new_game`, `legal_decisions`, `apply`,
  `apply_all`, `validate`, `player_view`, `score`, `replay`, catalogs.
- In-memory (for bots, OpenSpiel-style): `Game` with `legal_actions`, `apply_action`,
  `current_player`, `is_terminal`, `returns`, `WorldSampler` for determinization.
"""

from __future__ import annotations

from engine.architectura.api import (
    apply,
    apply_all,
    apply_internal,
    get_catalog,
    legal_decisions,
    load,
    new_game,
    new_game_internal,
    replay,
    require_decider,
    score,
    validate,
)
from engine.architectura.catalog import Catalog, builtin_catalogs, load_catalog
from engine.architectura.flow import deciding_seat as current_player
from engine.architectura.flow import options as legal_actions
from engine.architectura.flow import step as apply_action
from engine.architectura.model import RULES_VERSION, Action, Game
from engine.architectura.scoring import final_scores
from engine.architectura.serialize import action_to_json, game_to_json
from engine.architectura.setup import random_replacements
from engine.architectura.view import (
    WorldSampler,
    events_for_seat,
    game_view,
    player_view,
    sample_world,
)


def is_terminal(g: Game) -> bool:
    return g.over


def returns(g: Game) -> list[float]:
    """Per seat: 1 for a sole winner, 1/k for k sharing the win (A-8.2), else 0."""
    winners = final_scores(g)["winners"]
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(g.n)]


__all__ = [
    "RULES_VERSION",
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
    "current_player",
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
    "player_view",
    "random_replacements",
    "replay",
    "require_decider",
    "returns",
    "sample_world",
    "score",
    "validate",
]
