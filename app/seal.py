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
- `STATE_ANTI_ROLLBACK` (with `REDIS_URL`): a dealt game's line of play is its `history`
  (its set-up and every decision since): a `lineage` {"id", "seq"} inside the sealed part names
  it (the id a keyed digest of the set-up, `seq` the decisions applied), and Redis keeps the
  head of each game's line (its `seq` and a keyed digest of the whole history). A state is
  advanced only from the head: advancing an older state or another line of the same set-up
  (a rollback, a fork, a game rebuilt from its set-up) is a 409 `stale_state`; the same
  decisions again give the same successor, so a lost answer can be asked for again. Reading
  an older state stays allowed: it shows nothing its holder did not already have.
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
import re
import secrets
from collections.abc import Iterable
from contextlib import suppress
from dataclasses import dataclass, replace
from typing import Any, cast

import orjson
import redis
from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import Flask
from itsdangerous import Signer, want_bytes
from itsdangerous.signer import HMACAlgorithm

from ai.taskqueue import evicting
from app import current, history
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
# a seal as the service writes it: the prefix and the MAC's 32 bytes in unpadded URL-safe
# base64; anything else (padding, the standard alphabet, stray characters that a lenient
# base64 decoder would skip) is refused before the MAC is checked: one state, one seal
# (its last character carries the MAC's last 4 bits and 2 unused ones, which must be 0)
SEAL_FORMAT = re.compile(r"v1\.[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]")
LINEAGE_SALT = b"referee/lineage/v1"  # domain separation of the lineage digests' key
LINEAGE_ID = re.compile(r"[0-9a-f]{32}")
SIGNER_SALT = b"referee/state-seal/v1"  # domain separation of the MAC key
HKDF_INFO = b"referee/state-encrypt/v1"  # ... and of the encryption key
MIN_SECRET_CHARS = 32
MIN_SECRET_DISTINCT = 10  # a token_urlsafe(32) has some 30
ROLLBACK_PREFIX = "referee:lineage:"
REDIS_TIMEOUT_S = 1.0
RETRY_AFTER_S = "5"
SORTED = orjson.OPT_SORT_KEYS
# an encrypted state's plaintext is a whole number of these bytes (`_padded`): more than
# the hidden cards can change a state's size by (a Fora de Prumo hand's options, some KiB)
PAD_BLOCK = 8192

# Redis, atomic. A dealt game (its line's head known, "seq:digest"): move the head from the
# parent's (ARGV[1]) to the successor's (ARGV[2]) unless it is elsewhere; the successor's own
# head again is a retry of the same decisions, which computes the same state. A successor
# without a history (composed, or a dealt game past MAX_HISTORY; ARGV[2] empty): record `seq`
# (ARGV[3]) as the highest issued unless one as high was; from a dealt game's head only from
# that head itself (else a line rebuilt from the set-up and pushed past the limit overtook
# the game's own: audit of 2026-11-30). Returns false when done, else what is recorded.
_ADVANCE_LUA = """
local cur = redis.call('GET', KEYS[1])
if cur then
  if ARGV[2] == '' then
    if string.find(cur, ':', 1, true) then
      if cur ~= ARGV[1] then return cur end
    else
      local h = tonumber(string.match(cur, '^%d+'))
      if h == nil or h >= tonumber(ARGV[3]) then return cur end
    end
  elseif cur ~= ARGV[1] and cur ~= ARGV[2] then
    return cur
  end
end
redis.call('SET', KEYS[1], ARGV[2] == '' and ARGV[3] or ARGV[2], 'EX', ARGV[4])
return false
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
    """A game's identity and the position of one state in it (anti-rollback): for a dealt
    game, derived from its history (`Sealer.lineage_of`: `head` a digest of it); for a
    composed one, a random id numbered from 0, without a head."""

    id: str
    seq: int
    head: str | None = None  # derived, never written: the history it digests is in the state
    carried: bool = False  # the state carried one (an instance without the guard carries it on)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "seq": self.seq}

    def record(self) -> str:
        """How Redis records this state as its line's head ("" without one)."""
        return f"{self.seq}:{self.head}" if self.head is not None else ""


class RollbackGuard:
    """Each game's head in Redis, with a TTL: "seq:digest" of its latest state for a dealt
    game, the highest sequence number issued for a composed one (`_ADVANCE_LUA`)."""

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
        return rollback_unavailable()

    def advance(self, before: Lineage, after: Lineage) -> None:
        """Record `after` as issued from `before` (module doc; `_ADVANCE_LUA`); a 409
        `stale_state` when the game's line has gone elsewhere."""
        args: list[str | int] = [before.record(), after.record(), after.seq, self.ttl_s]
        try:
            got = self._advance(keys=[ROLLBACK_PREFIX + after.id], args=args)
        except redis.RedisError as e:
            raise self._unavailable(e) from None
        if self._down:
            self._down = False
            log.warning("anti-rollback store available again")
        if got is not None:  # what Redis records: "seq:digest", or a composed game's seq
            issued = (got.decode() if isinstance(got, bytes) else str(got)).partition(":")[0]
            raise stale(before.seq, int(issued) if issued.isdecimal() else before.seq)

    def check(self) -> tuple[str, bool, str]:
        try:
            self._client.ping()
            try:
                policy = evicting(self._client)
            except redis.ResponseError:  # INFO refused (an ACL): the ping answered
                return "anti_rollback", True, "redis: connected (its eviction policy unknown)"
        except redis.RedisError as e:
            # the error's class only: its text names the store's address (an open endpoint)
            return "anti_rollback", False, f"redis unavailable ({type(e).__name__})"
        if policy is not None:  # an evicted head lets that game's old states play again
            return "anti_rollback", False, f"redis evicts keys (maxmemory-policy {policy})"
        return "anti_rollback", True, "redis: connected"


def rollback_unavailable() -> ApiError:
    """503: no game can advance here now (its store is down, or this instance has none)."""
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


def stale(seq: int, highest: int) -> ApiError:
    """409 `stale_state`: the game has gone further (`highest`, the decisions its head has
    applied), or, as far or less far, along another line (a fork of a rebuilt game)."""
    if highest > seq:
        detail = msg(
            (
                "This state has already been played on: the service has issued state "
                "{highest} of this game, and this is state {seq}. Continue from the latest "
                "state."
            ),
            highest=highest,
            seq=seq,
        )
    else:
        detail = msg(
            (
                "This state is not on its game's line of play: the service has issued state "
                "{highest} of this game by other decisions (a game rebuilt from its set-up "
                "continues the same game). Continue from the latest state."
            ),
            highest=highest,
        )
    return ApiError(409, "stale_state", detail, "/state")


def _fernet_key(secret: str) -> bytes:
    raw = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=HKDF_INFO).derive(
        secret.encode("utf-8")
    )
    return base64.urlsafe_b64encode(raw)


def _payload(value: Any) -> bytes:
    # surrogatepass: a lone surrogate that reached us in a string is hashed, not a crash
    return dumps_utf8(value, "surrogatepass")


def _padded(payload: bytes) -> bytes:
    """`payload` and spaces (which JSON ignores) up to a whole number of PAD_BLOCK bytes:
    an encrypted state's length then tells which block its size reached, not how many
    options the deciding seat's hidden hand gives it (audit of 2026-11-30: Fernet hides
    lengths to 16 bytes only, which told 2 to 3 bits of a hand a state in Fora de Prumo)."""
    return payload + b" " * (-len(payload) % PAD_BLOCK)


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
        # the lineage digests' key: the current secret's, so that a game's Redis key and head
        # say nothing of its set-up (its seed) to whoever reads the store
        self._lineage_key = hmac.digest(secret.encode("utf-8"), LINEAGE_SALT, "sha256")
        self.play_composed = play_composed

    def seal(self, document: dict[str, Any]) -> dict[str, Any]:
        """`document` (which has no seal) with its seal, made with the current secret."""
        return {**document, SEAL: self._seal_of(_payload(document))}

    def _seal_of(self, payload: bytes) -> str:
        return SEAL_PREFIX + self._signer.get_signature(payload).decode("ascii")

    def issue(
        self, state: dict[str, Any], lineage: Lineage | None, encrypted: bool = False
    ) -> dict[str, Any] | Written:
        """The state as answered: with its lineage, encrypted if so configured or when it
        derives from an encrypted state (`encrypted`), sealed. Written once (`sealed_json`)
        where orjson can write it, else as a sealed object."""
        body = state if lineage is None else {**state, LINEAGE: lineage.to_json()}
        if self.encrypt or encrypted:
            token = self._fernet.encrypt(_padded(_payload(body))).decode("ascii")
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
            isinstance(seal, str)
            and SEAL_FORMAT.fullmatch(seal) is not None
            and self._verifies(rest, seal)
        ):
            raise tampered(
                msg(
                    "The state does not match its seal: it was changed after the service issued "
                    "it, or it was sealed with a secret this service no longer accepts. Send back "
                    "the latest state the service returned, unchanged."
                )
            )
        if SEALED in rest:
            rest = self._decrypt(rest[SEALED])
        lineage = self._lineage_in(rest.pop(LINEAGE, None), rest.get(history.HISTORY))
        return rest, lineage

    def _lineage_in(self, written: Any, hist: Any) -> Lineage | None:
        """An opened state's lineage: a dealt game's derived from its history (authentic: the
        seal covers it), whatever the state says; else the one written on it, of the shape
        the service writes (a secret's holder could seal another: refused, not a 500)."""
        if written is None and self.guard is None:
            return None  # nothing to carry on, nothing to claim: no digest to compute
        dealt = isinstance(hist, dict) and isinstance(hist.get("setup"), dict)
        if dealt and isinstance(hist.get("decisions"), list):
            derived = self.lineage_of(hist)
            return replace(derived, carried=written is not None)
        if written is None:
            return None
        if (
            isinstance(written, dict)
            and written.keys() == {"id", "seq"}
            and isinstance(written["id"], str)
            and LINEAGE_ID.fullmatch(written["id"]) is not None
            and type(written["seq"]) is int
            and 0 <= written["seq"] < 2**53
        ):
            return Lineage(written["id"], written["seq"], carried=True)
        raise tampered(
            msg(
                "The state's lineage is not one the service writes. Send back the state "
                "exactly as the service returned it."
            )
        )

    def lineage_of(self, hist: dict[str, Any], parent: Lineage | None = None) -> Lineage:
        """A dealt game's lineage, a function of its history (app/history.py): the id a keyed
        digest of its set-up (the same set-up is the same game, however rebuilt), `seq` its
        decisions, `head` a keyed digest of the whole history (the line of play). A dealt
        `parent` (the state this one was played on from: the same set-up) gives its id, so
        the set-up is digested once a move, not twice."""
        if parent is not None and parent.head is not None:
            game_id = parent.id
        else:
            setup = _payload(hist["setup"])
            game_id = hmac.digest(self._lineage_key, b"setup:" + setup, "sha256").hex()[:32]
        whole = _payload(hist)
        head = hmac.digest(self._lineage_key, b"history:" + whole, "sha256").hex()[:32]
        return Lineage(game_id, len(hist["decisions"]), head)

    def _verifies(self, rest: dict[str, Any], seal: str) -> bool:
        """Whether `seal` is the MAC of `rest`'s canonical JSON. Tried first on orjson's
        bytes without looking for floats: bytes the service MACed parse back to the value it
        sealed, so equal bytes are an equal state; where they are not the canonical JSON's
        (a float), the canonical bytes are tried next, so every seal that verified before
        still does. A state sent back as it was issued has its keys in the sorted order they
        were written in, at every level: written in its own order it is those bytes, without
        the sort (a quarter of the write); sorted bytes are tried when they differ."""
        sig = seal[len(SEAL_PREFIX) :]
        with suppress(TypeError):  # beyond orjson (a 64-bit overflow, a lone surrogate)
            as_sent = orjson.dumps(rest)
            if self._signer.verify_signature(as_sent, sig):
                return True
            ordered = orjson.dumps(rest, option=SORTED)
            if ordered != as_sent and self._signer.verify_signature(ordered, sig):
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
                    "service accepts. Send back the latest state the service returned, "
                    "unchanged; a game sealed with a retired secret is rebuilt from its record "
                    "(POST /v1/replay)."
                )
            ) from None
        if not isinstance(inner, dict):  # pragma: no cover - we only encrypt objects
            raise tampered(
                msg(
                    "The state's encrypted part is not a state. Send back the state exactly as "
                    "the service returned it."
                )
            )
        return inner


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [s.strip() for s in value.split(",") if s.strip()]
    return [str(s) for s in value]


def _check_secret(name: str, secret: str) -> None:
    """Long enough, and not one character or a few repeated ('a' * 32 was taken, and anyone
    who guesses it can seal any state: deployment audit of 2026-11-30). What else a secret
    is made of no check can tell: the docs say to generate it."""
    if len(secret) < MIN_SECRET_CHARS or len(set(secret)) < MIN_SECRET_DISTINCT:
        raise ValueError(
            f"{name} must have at least {MIN_SECRET_CHARS} characters, {MIN_SECRET_DISTINCT} "
            "of them different (e.g. the output of "
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
        # a Redis of its own where clients' jobs share REDIS_URL's (docs/trust.md)
        url = config.get("STATE_ROLLBACK_REDIS_URL") or config.get("REDIS_URL")
        if not url:
            raise ValueError("STATE_ANTI_ROLLBACK needs REDIS_URL (or STATE_ROLLBACK_REDIS_URL)")
        guard = RollbackGuard(str(url), int(config.get("STATE_ROLLBACK_TTL_S", 30 * 86400)))
    elif encrypt:
        # a holder could play a copy of its game to the end and read the seed from its
        # record, or go back and try moves to read draws (audit of 2026-11-30)
        raise ValueError(
            "STATE_ENCRYPT needs STATE_ANTI_ROLLBACK: without it a holder can play a copy "
            "of an encrypted game to its end and read the seed from its record"
        )
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
    return cast(Sealer | None, current.app().extensions.get(EXTENSION))


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
    """/v1/resolve, /v1/replay and /v1/record from a state: with a secret, a composed state
    (history.py) is not played on unless STATE_PLAY_COMPOSED allows it (403 `composed_state`)."""
    sealer = _sealer()
    if origin.composed and sealer is not None and not sealer.play_composed:
        raise composed()


def require_readable(opened: Opened | None, state: dict[str, Any]) -> None:
    """/v1/position and /v1/record of a state: an encrypted state's hidden cards and seed are
    not written out while its game runs (403 `encrypted_running_game`)."""
    if opened is not None and opened.encrypted and state.get("game_over") is not True:
        raise hidden_while_running()


def require_readable_record(opened: Opened | None, body: dict[str, Any]) -> None:
    """/v1/replay of an encrypted running game's state with a game record's header: the
    header is checked against what the decisions give before anything is issued, so its
    refusal (where it points) would tell whether a decision past a draw is legal, that is
    which hidden card was drawn, with nothing committed and from an old state as well. No
    such record is ever written (/v1/record refuses the game while it runs): 403
    `encrypted_running_game`."""
    state = body.get("state")
    if "record" not in body or not isinstance(state, dict):
        return
    if opened is not None and opened.encrypted and state.get("game_over") is not True:
        raise ApiError(
            403,
            "encrypted_running_game",
            msg(
                "This game is encrypted and not over: a game record is checked against what "
                "its decisions give before any of them is committed, which would tell the "
                "hidden cards they draw. Send the decisions without the record, or the "
                "record once the game is over."
            ),
            "/record",
        )


def decided_before_chance(
    opened: Opened | None, chance: frozenset[str], clause: str, events: list[Any], count: int
) -> None:
    """/v1/resolve of an encrypted state: a batch of `count` decisions may not go on past a
    decision that dealt, drew or revealed cards no seat had seen (one of the game's
    `chance` event types, among the `events` of the decisions applied). Answered alike
    whether what follows is legal or not, so that no answer tells what the chance brought
    before it is committed (issued, and with anti-rollback claimed): else a refused
    [mulligan, play X] tells whether X would be in the new hand, and the same state can then
    be played otherwise (403 `decision_after_chance`)."""
    if opened is None or not opened.encrypted:
        return
    first = min((ev["decision"] for ev in events if ev.get("type") in chance), default=None)
    if first is None or first >= count - 1:
        return
    raise ApiError(
        403,
        "decision_after_chance",
        msg(
            "This game is encrypted, and decision {drew} dealt, drew or revealed cards that "
            "no seat had seen: what follows it is decided on the state it brings. Send the "
            "decisions up to that one alone, then the rest with the state answered.",
            drew=first,
        ),
        f"/decisions/{first + 1}",
        clause,
        index=first + 1,
    )


def issue_state(
    state: dict[str, Any], origin: history.Origin, parent: Opened | None = None
) -> dict[str, Any] | Written:
    """A state to answer: its origin written on it (app/history.py: the seal covers it,
    encryption hides it), then sealed (and encrypted, with a lineage) as configured. A state
    derived from the request's state (`parent`) continues its lineage (a dealt one's is its
    history's, `Sealer.lineage_of`, so a game rebuilt from its set-up continues it too). With
    anti-rollback, the successor is claimed atomically as its line's head: of two answers
    derived from the same state by different decisions, only the first is issued (the second
    is a 409); the same decisions again answer the same state."""
    state = history.attach(state, origin)
    sealer = _sealer()
    if sealer is None:
        return state
    encrypted = parent is not None and parent.encrypted
    if encrypted and sealer.guard is None:
        # encryption needs anti-rollback (`from_config`): an instance with the secret but
        # without it would let a holder fork an encrypted game (review of 2026-11-30);
        # another instance may answer
        log.warning("an encrypted game reached an instance without anti-rollback")
        raise rollback_unavailable()
    before = parent.lineage if parent is not None else None
    lineage = None
    if origin.history is not None:  # dealt: its lineage is its history's
        if sealer.guard is not None or (before is not None and before.carried):
            lineage = sealer.lineage_of(origin.history, before)
    elif before is not None:  # composed (or past the history's limit): numbered on
        lineage = Lineage(before.id, before.seq + 1)
    elif sealer.guard is not None:
        lineage = Lineage(secrets.token_hex(16), 0)  # a new composed game: nothing to claim
    # an instance without the guard carries a lineage on unclaimed: a guarded one still sees
    # where the state stands (a dealt one's is its history anyway)
    if sealer.guard is not None and before is not None and lineage is not None:
        sealer.guard.advance(before, lineage)
    # a game encrypted stays so: an instance without STATE_ENCRYPT but with the secret
    # answered its next state in clear, every hand and the seed (audit of 2026-11-30)
    return sealer.issue(state, lineage, encrypted=encrypted)
