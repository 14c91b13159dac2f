"""Sealed states: the service recognises the states it issued (docs/trust.md).

With `STATE_SECRET` set, every state the service answers carries a top-level `seal`: an
HMAC-SHA256 (itsdangerous' `Signer`) over the canonical JSON (engine/canonical.py) of the
rest of the state. Every endpoint that reads a state opens it here first (`open_state`, called
by endpoint.read_body): a missing or wrong seal is a 422 `state_tampered`, before the engine
reads anything. Nothing here knows a game: a state is an opaque JSON object.

Options, each needing the secret:
- `STATE_SECRETS_OLD`: older secrets still accepted (key rotation); answers are sealed with
  the current one.
- `STATE_ENCRYPT`: the whole state travels as `{"game", "sealed", "seal"}`, where `sealed` is
  a Fernet token (AES-128-CBC + HMAC-SHA256, `cryptography`) of the state, with a key derived
  from the secret by HKDF-SHA256. Nothing but the game id is readable by the holder.
- `STATE_ANTI_ROLLBACK` (with `REDIS_URL`): a `lineage` {"id", "seq"} inside the sealed part;
  Redis keeps the highest `seq` issued per game id, and a state can be advanced only once:
  advancing an older state (a rollback, a fork) is a 409 `stale_state`. Reading an older state
  stays allowed: it shows nothing its holder did not already have.
- `STATE_PLAY_COMPOSED`: a seal means "dealt and played by the rules", so a state composed
  from a position (app/history.py, `composed`) cannot be advanced (403 `composed_state`,
  `require_dealt`) unless this is set, for a deployment that serves puzzles or analysis.

With encryption, what a state hides stays hidden on every endpoint: a running game's position
and record (which name every hidden card and the seed) are refused (403
`encrypted_running_game`, `require_readable`) until the game is over.

Without a secret nothing here runs: states are passed through untouched, and a `seal` (or
`lineage`, `sealed`) field is what it was before, an unknown field the engine refuses.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import secrets
from collections.abc import Iterable
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, cast

import orjson
import redis
from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import Flask, current_app
from itsdangerous import Signer, want_bytes
from itsdangerous.signer import HMACAlgorithm

from app import history
from app.errors import ApiError
from app.jsonio import Written
from engine.canonical import dumps_utf8
from engine.messages import Msg, msg

log = logging.getLogger("app.seal")

EXTENSION = "state_seal"
SEAL = "seal"  # the MAC, top level of every issued state
SEALED = "sealed"  # the Fernet token of an encrypted state
LINEAGE = "lineage"  # {"id", "seq"} for anti-rollback, inside the sealed part
SEAL_PREFIX = "v1."  # the format of the seal, so that a later one can be told apart
SIGNER_SALT = b"referee/state-seal/v1"  # domain separation of the MAC key
HKDF_INFO = b"referee/state-encrypt/v1"  # ... and of the encryption key
MIN_SECRET_CHARS = 32
ROLLBACK_PREFIX = "referee:lineage:"
REDIS_TIMEOUT_S = 1.0
RETRY_AFTER_S = "5"
SORTED = orjson.OPT_SORT_KEYS

# Redis: record `seq` as the highest issued for the game unless one as high or higher was
# already issued (another answer derived from the same state won the race): atomic.
_ADVANCE_LUA = """
local h = tonumber(redis.call('GET', KEYS[1]))
if h and h >= tonumber(ARGV[1]) then return h end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return -1
"""


def tampered(detail: Msg) -> ApiError:
    return ApiError(422, "state_tampered", detail, "/state/seal")


def composed() -> ApiError:
    return ApiError(
        403,
        "composed_state",
        msg(
            "This state was composed from a position (POST /v1/position), not dealt from "
            "a set-up and played by the rules, and this service plays on dealt games "
            "only. Start the game with POST /v1/games, or set STATE_PLAY_COMPOSED=1 on "
            "the service to play on positions (puzzles, analysis)."
        ),
        "/state",
    )


def hidden_while_running() -> ApiError:
    return ApiError(
        403,
        "encrypted_running_game",
        msg(
            "This game is encrypted and not over: its position and its record name every "
            "hidden card and the seed, which encryption keeps from whoever holds the "
            "state. Ask again once the game is over, or ask POST /v1/view for a seat's "
            "view."
        ),
        "/state",
    )


@dataclass(frozen=True)
class Lineage:
    """A game's identity and the position of one state in it (anti-rollback)."""

    id: str
    seq: int

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "seq": self.seq}


class RollbackGuard:
    """The highest sequence number issued per game id, in Redis, with a TTL."""

    def __init__(self, url: str, ttl_s: int) -> None:
        self.ttl_s = ttl_s
        self._client = redis.Redis.from_url(
            url, socket_timeout=REDIS_TIMEOUT_S, socket_connect_timeout=REDIS_TIMEOUT_S
        )
        self._advance = self._client.register_script(_ADVANCE_LUA)
        self._down = False  # logged once per outage, not once per request

    def _unavailable(self, e: redis.RedisError) -> ApiError:
        # fail closed: without Redis the service cannot tell whether a state was played on
        if not self._down:
            self._down = True
            log.warning("anti-rollback store unavailable: %s: %s", type(e).__name__, e)
        return ApiError(
            503,
            "anti_rollback_unavailable",
            msg(
                "The store that records how far each game has gone (Redis) is unavailable; "
                "no game can advance now. Retry later."
            ),
            "",
            headers={"Retry-After": RETRY_AFTER_S},
        )

    def advance(self, game_id: str, seq: int) -> int | None:
        """Record `seq` as issued; None when done, else the higher sequence already issued."""
        try:
            got = int(
                cast(int, self._advance(keys=[ROLLBACK_PREFIX + game_id], args=[seq, self.ttl_s]))
            )
        except redis.RedisError as e:
            raise self._unavailable(e) from None
        if self._down:
            self._down = False
            log.warning("anti-rollback store available again")
        return None if got < 0 else got

    def check(self) -> tuple[str, bool, str]:
        try:
            self._client.ping()
        except redis.RedisError as e:
            return "anti_rollback", False, f"redis unavailable ({type(e).__name__}: {e})"
        return "anti_rollback", True, "redis: connected"


def stale(seq: int, highest: int) -> ApiError:
    return ApiError(
        409,
        "stale_state",
        msg(
            (
                "This state has already been played on: the service has issued state "
                "{highest} of this game, and this is state {seq}. Continue from the latest "
                "state."
            ),
            highest=highest,
            seq=seq,
        ),
        "/state",
    )


def _fernet_key(secret: str) -> bytes:
    raw = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=HKDF_INFO).derive(
        secret.encode("utf-8")
    )
    return base64.urlsafe_b64encode(raw)


def _payload(value: Any) -> bytes:
    # surrogatepass: a lone surrogate that reached us in a string is hashed, not a crash
    return dumps_utf8(value, "surrogatepass")


class _HmacSha256(HMACAlgorithm):
    """itsdangerous' HMAC-SHA256, the same bytes computed in one C call (`hmac.digest`)
    rather than through an `hmac.HMAC` object."""

    def __init__(self) -> None:
        super().__init__(hashlib.sha256)

    def get_signature(self, key: bytes, value: bytes) -> bytes:
        return hmac.digest(key, value, "sha256")


class _Signer(Signer):
    """itsdangerous' Signer with each secret's derived key computed once, not per call (an
    HMAC of the salt: the same key every time)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._keys: dict[bytes, bytes] = {}

    def derive_key(self, secret_key: str | bytes | None = None) -> bytes:
        raw = self.secret_keys[-1] if secret_key is None else want_bytes(secret_key)
        key = self._keys.get(raw)
        if key is None:
            key = self._keys[raw] = super().derive_key(raw)
        return key


class Sealer:
    """Seals the states the service issues and opens the ones it is sent."""

    def __init__(
        self,
        secret: str,
        old_secrets: Iterable[str] = (),
        *,
        encrypt: bool = False,
        guard: RollbackGuard | None = None,
        play_composed: bool = False,
    ) -> None:
        keys = [*old_secrets, secret]  # itsdangerous signs with the last, verifies with any
        self._signer = _Signer(
            keys,
            salt=SIGNER_SALT,
            key_derivation="hmac",
            digest_method=hashlib.sha256,
            algorithm=_HmacSha256(),
        )
        # MultiFernet encrypts with the first key and decrypts with any
        self._fernet = MultiFernet([Fernet(_fernet_key(k)) for k in reversed(keys)])
        self.encrypt = encrypt
        self.guard = guard
        self.play_composed = play_composed

    def seal(self, document: dict[str, Any]) -> dict[str, Any]:
        """`document` (which has no seal) with its seal, made with the current secret."""
        return {**document, SEAL: self._seal_of(_payload(document))}

    def _seal_of(self, payload: bytes) -> str:
        return SEAL_PREFIX + self._signer.get_signature(payload).decode("ascii")

    def issue(self, state: dict[str, Any], lineage: Lineage | None) -> dict[str, Any] | Written:
        """The state as answered: with its lineage, encrypted if so configured, sealed.
        Written once (`sealed_json`) where orjson can write it, else as a sealed object."""
        body = state if lineage is None else {**state, LINEAGE: lineage.to_json()}
        if self.encrypt:
            token = self._fernet.encrypt(_payload(body)).decode("ascii")
            body = {"game": state.get("game"), SEALED: token}
        return self.sealed_json(body)

    def sealed_json(self, document: dict[str, Any]) -> dict[str, Any] | Written:
        """`document` sealed, as the JSON the answer embeds: its sorted, compact bytes (the
        bytes the seal is made of) with the seal written after them, so that an answer writes
        a state once, not once for the MAC and again for the body. A value orjson refuses
        (an integer beyond 64 bits, a lone surrogate) is sealed over the standard library's
        canonical bytes and answered as an object (`seal`)."""
        try:
            payload = orjson.dumps(document, option=SORTED)
        except TypeError:
            return self.seal(document)
        # The MAC is of orjson's sorted bytes, floats written as orjson writes them: a state
        # read back from this answer writes the same bytes (`_verifies` tries them first).
        tail = b'"' + SEAL.encode() + b'":"' + self._seal_of(payload).encode("ascii") + b'"}'
        return Written(payload[:-1] + (b"," if len(payload) > 2 else b"") + tail)

    def open(self, document: dict[str, Any]) -> tuple[dict[str, Any], Lineage | None]:
        """The engine's state inside a sealed document, and its lineage (None when it was
        sealed without one). Raises a 422 `state_tampered` ApiError."""
        seal = document.get(SEAL)
        if seal is None:
            raise tampered(
                msg(
                    "The state has no seal. This service only accepts states it issued itself: "
                    "send back the state exactly as the service returned it."
                )
            )
        rest = {k: v for k, v in document.items() if k != SEAL}
        if not (
            isinstance(seal, str) and seal.startswith(SEAL_PREFIX) and self._verifies(rest, seal)
        ):
            raise tampered(
                msg(
                    "The state does not match its seal: it was changed after the service issued "
                    "it, or it was sealed with a secret this service no longer accepts."
                )
            )
        if SEALED in rest:
            rest = self._decrypt(rest[SEALED])
        raw_lineage = rest.pop(LINEAGE, None)
        lineage = None
        if isinstance(raw_lineage, dict):  # authentic: we wrote it (its shape is ours)
            lineage = Lineage(str(raw_lineage["id"]), int(raw_lineage["seq"]))
        return rest, lineage

    def _verifies(self, rest: dict[str, Any], seal: str) -> bool:
        """Whether `seal` is the MAC of `rest`'s canonical JSON. Tried first on orjson's
        bytes without looking for floats: bytes the service MACed parse back to the value it
        sealed, so equal bytes are an equal state; where they are not the canonical JSON's
        (a float), the canonical bytes are tried next, so every seal that verified before
        still does."""
        sig = seal[len(SEAL_PREFIX) :]
        with suppress(TypeError):  # beyond orjson (a 64-bit overflow, a lone surrogate)
            if self._signer.verify_signature(orjson.dumps(rest, option=SORTED), sig):
                return True
        try:
            payload = _payload(rest)
        except (ValueError, RecursionError):  # unserializable: not a state we issued
            return False
        return self._signer.verify_signature(payload, sig)

    def _decrypt(self, token: Any) -> dict[str, Any]:
        try:
            inner = json.loads(self._fernet.decrypt(str(token).encode("ascii")))
        except (InvalidToken, ValueError):
            # authentic seal but an undecryptable body: the secret that encrypted it is gone
            raise tampered(
                msg(
                    "The state's encrypted part cannot be decrypted with the secrets this "
                    "service accepts."
                )
            ) from None
        if not isinstance(inner, dict):  # pragma: no cover - we only encrypt objects
            raise tampered(msg("The state's encrypted part is not a state."))
        return inner


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [s.strip() for s in value.split(",") if s.strip()]
    return [str(s) for s in value]


def _check_secret(name: str, secret: str) -> None:
    if len(secret) < MIN_SECRET_CHARS:
        raise ValueError(
            f"{name} must have at least {MIN_SECRET_CHARS} characters (e.g. the output of "
            "`python -c 'import secrets; print(secrets.token_urlsafe(32))'`)"
        )


def from_config(config: Any) -> Sealer | None:
    """The sealer the settings ask for (None without STATE_SECRET). Inconsistent settings
    raise ValueError at start-up rather than run with less protection than configured."""
    secret = config.get("STATE_SECRET") or None
    old = _as_list(config.get("STATE_SECRETS_OLD"))
    encrypt = bool(config.get("STATE_ENCRYPT"))
    anti_rollback = bool(config.get("STATE_ANTI_ROLLBACK"))
    play_composed = bool(config.get("STATE_PLAY_COMPOSED"))
    if secret is None:
        for name, on in (
            ("STATE_SECRETS_OLD", bool(old)),
            ("STATE_ENCRYPT", encrypt),
            ("STATE_ANTI_ROLLBACK", anti_rollback),
            ("STATE_PLAY_COMPOSED", play_composed),
        ):
            if on:
                raise ValueError(f"{name} needs STATE_SECRET")
        return None
    _check_secret("STATE_SECRET", str(secret))
    for s in old:
        _check_secret("each of STATE_SECRETS_OLD", s)
    guard = None
    if anti_rollback:
        url = config.get("REDIS_URL")
        if not url:
            raise ValueError("STATE_ANTI_ROLLBACK needs REDIS_URL")
        guard = RollbackGuard(str(url), int(config.get("STATE_ROLLBACK_TTL_S", 30 * 86400)))
    return Sealer(str(secret), old, encrypt=encrypt, guard=guard, play_composed=play_composed)


def init_app(app: Flask) -> Sealer | None:
    """Attach the sealer (if configured) and, with anti-rollback, its Redis readiness check.
    The check is not critical: without Redis no game can advance (503), but every reading
    endpoint still answers, so the instance stays in service ("degraded")."""
    sealer = from_config(app.config)
    app.extensions[EXTENSION] = sealer
    if sealer is not None and sealer.guard is not None:
        guard = sealer.guard

        def anti_rollback_check() -> tuple[str, bool, str]:
            return guard.check()

        app.extensions.setdefault("readiness_checks", []).append(anti_rollback_check)
    return sealer


def _sealer() -> Sealer | None:
    return cast(Sealer | None, current_app.extensions.get(EXTENSION))


@dataclass(frozen=True)
class Opened:
    """A request's state document, opened: the engine's state inside it, whether a seal proved
    the service wrote it, whether it came encrypted, and its lineage (anti-rollback)."""

    state: dict[str, Any]
    authentic: bool = False
    encrypted: bool = False
    lineage: Lineage | None = None


def open_state(document: dict[str, Any]) -> Opened:
    """A state from a request body, checked (unchanged when the service has no secret)."""
    sealer = _sealer()
    if sealer is None:
        return Opened(document)
    state, lineage = sealer.open(document)
    return Opened(state, True, SEALED in document, lineage)


def require_dealt(origin: history.Origin) -> None:
    """/v1/resolve and /v1/replay from a state: with a secret, a composed state (history.py)
    is not played on unless STATE_PLAY_COMPOSED allows it (403 `composed_state`)."""
    sealer = _sealer()
    if origin.composed and sealer is not None and not sealer.play_composed:
        raise composed()


def require_readable(opened: Opened | None, state: dict[str, Any]) -> None:
    """/v1/position and /v1/record of a state: an encrypted state's hidden cards and seed are
    not written out while its game runs (403 `encrypted_running_game`)."""
    if opened is not None and opened.encrypted and state.get("game_over") is not True:
        raise hidden_while_running()


def issue_state(
    state: dict[str, Any], origin: history.Origin, parent: Opened | None = None
) -> dict[str, Any] | Written:
    """A state to answer: its origin written on it (app/history.py: the seal covers it,
    encryption hides it), then sealed (and encrypted, with a lineage) as configured. A state
    derived from the request's state (`parent`) continues its lineage; any other starts one.
    With anti-rollback, the new sequence number is claimed atomically: of two answers derived
    from the same state, only the first is issued (the second is a 409)."""
    state = history.attach(state, origin)
    sealer = _sealer()
    if sealer is None:
        return state
    lineage = None
    if sealer.guard is not None:
        before = parent.lineage if parent is not None else None
        if before is None:
            lineage = Lineage(secrets.token_hex(16), 0)  # a new game: nothing to claim
        else:
            lineage = Lineage(before.id, before.seq + 1)
            higher = sealer.guard.advance(lineage.id, lineage.seq)
            if higher is not None:
                raise stale(before.seq, higher)
    return sealer.issue(state, lineage)
