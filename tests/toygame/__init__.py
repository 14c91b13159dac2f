"""Toy Match: a game written only for the tests (tests/toygame/rules.md), registered exactly as
a real game registers itself (engine.registry.register_game at the end of its package), from
outside engine/: `import toygame` registers it. tests/common/test_conformance.py runs the whole
conformance suite, the HTTP endpoints and a bot match over it, with every game of engine/."""

from __future__ import annotations

import sys

from engine.registry import GameInfo, register_game
from toygame.game import (
    CATALOG_CLAUSE,
    CHANCE_EVENTS,
    DECISION_FIELDS,
    GAME_ID,
    RULES_VERSION,
    SEATS_CLAUSE,
    SETUP_KEYS,
    Catalog,
    Game,
    WorldSampler,
    action_to_json,
    apply,
    apply_action,
    apply_all,
    apply_internal,
    builtin_catalogs,
    current_player,
    decision_from_notation,
    decision_notation,
    events_for_seat,
    final_scores,
    game_to_json,
    game_view,
    get_catalog,
    is_terminal,
    legal_actions,
    legal_decisions,
    load,
    load_catalog,
    new_game,
    new_game_internal,
    parse_decision,
    player_view,
    replay,
    require_decider,
    returns,
    score,
    state_cards,
    tournament_setup,
    validate,
)

__all__ = [
    "CATALOG_CLAUSE",
    "CHANCE_EVENTS",
    "DECISION_FIELDS",
    "GAME_ID",
    "INFO",
    "RULES_VERSION",
    "SEATS_CLAUSE",
    "SETUP_KEYS",
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
    "replay",
    "require_decider",
    "returns",
    "score",
    "tournament_setup",
    "validate",
]

INFO = GameInfo(
    id=GAME_ID,
    name="Toy Match",
    rules_version=RULES_VERSION,
    min_seats=2,  # TM-1.1
    max_seats=4,
    clause_prefix="TM",
    catalog_clause=CATALOG_CLAUSE,
    seats_clause=SEATS_CLAUSE,
    rule_documents=("tests/toygame/rules.md",),
    ruling_documents=(),
    play_decision="play",  # TM-3.1
    renderer="toygame.render",
    state_cards=state_cards,
)

register_game(INFO, sys.modules[__name__])
