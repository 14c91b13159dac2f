"""The service's settings read from the environment (docs/http.md, docs/trust.md).

`config_from_env()` gives the settings `create_app` starts from; the blueprints that have
settings of their own (app/jobs.py, app/suggest.py, app/body_timeout.py) read them with
`env_int` as they are installed. This module imports nothing of the app: every other module
may import it.
"""

from __future__ import annotations

import os
from typing import Any

DEFAULT_MAX_BODY_BYTES = 2 * 1024 * 1024
DEFAULT_MAX_DECISIONS = 2000
# the most decisions a game's history, record and replay hold: above the longest Fora de Prumo
# game any set-up allows (18,020 decisions, 500 cards and 4 seats, engine/fora_de_prumo/flow.py
# `longest_game`), so that games keep their record (Architectura's take a few dozen)
DEFAULT_MAX_HISTORY = 20_000


def env_int(name: str, default: int) -> int:
    """A positive integer from the environment, `default` when unset or blank."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"environment variable {name} must be an integer, not {raw!r}") from None
    if value <= 0:
        raise ValueError(f"environment variable {name} must be positive, not {value}")
    return value


def env_flag(name: str) -> bool:
    """An on/off setting from the environment (off when unset)."""
    raw = os.environ.get(name, "").strip().lower()
    if raw in ("", "0", "false", "no", "off"):
        return False
    if raw in ("1", "true", "yes", "on"):
        return True
    raise ValueError(f"environment variable {name} must be 1 or 0, not {raw!r}")


def origins(raw: str | None) -> list[str] | None:
    """CORS_ORIGINS as a list (None: CORS off)."""
    listed = [o.strip() for o in (raw or "").split(",") if o.strip()]
    return listed or None


def config_from_env() -> dict[str, Any]:
    """The settings read from the environment (documented in docs/http.md, docs/trust.md)."""
    return {
        "MAX_CONTENT_LENGTH": env_int("MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES),
        "MAX_DECISIONS": env_int("MAX_DECISIONS", DEFAULT_MAX_DECISIONS),
        "MAX_HISTORY": env_int("MAX_HISTORY", DEFAULT_MAX_HISTORY),
        "LOG_LEVEL": os.environ.get("LOG_LEVEL", "INFO").upper(),
        "REDIS_URL": os.environ.get("REDIS_URL") or None,
        # the position cache's own Redis (docs/scale.md): an in-process cache when unset
        "CACHE_REDIS_URL": os.environ.get("CACHE_REDIS_URL") or None,
        "CACHE_TTL_S": env_int("CACHE_TTL_S", 3600),
        "CACHE_MAX_ENTRIES": env_int("CACHE_MAX_ENTRIES", 10_000),
        "CACHE_MAX_CHARS": env_int("CACHE_MAX_CHARS", 32 << 20),
        # app/limits.py: browser origins allowed (comma-separated), requests per client
        "CORS_ORIGINS": origins(os.environ.get("CORS_ORIGINS")),
        "RATE_LIMIT": os.environ.get("RATE_LIMIT") or None,
        "TRUSTED_PROXY_HOPS": int(os.environ.get("TRUSTED_PROXY_HOPS") or 0),
        # sealed states (app/seal.py): a secret, old secrets still accepted (comma-separated)
        "STATE_SECRET": os.environ.get("STATE_SECRET") or None,
        "STATE_SECRETS_OLD": os.environ.get("STATE_SECRETS_OLD", ""),
        "STATE_ENCRYPT": env_flag("STATE_ENCRYPT"),
        "STATE_ANTI_ROLLBACK": env_flag("STATE_ANTI_ROLLBACK"),
        "STATE_ROLLBACK_TTL_S": env_int("STATE_ROLLBACK_TTL_S", 30 * 86400),
        "STATE_ROLLBACK_REDIS_URL": os.environ.get("STATE_ROLLBACK_REDIS_URL") or None,
        "STATE_PLAY_COMPOSED": env_flag("STATE_PLAY_COMPOSED"),
    }
