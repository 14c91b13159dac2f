"""Helpers for the HTTP tests: the app, real game states, and checking a response against
the operation it answers in openapi.yaml (status documented, media type, body schema)."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jsonschema
import jsonschema_rs
import yaml
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

import engine.architectura as arch
from app import create_app

ROOT = Path(__file__).resolve().parent.parent
SPEC_URI = "urn:architectura:openapi"


@cache
def spec() -> dict[str, Any]:
    with open(ROOT / "openapi.yaml", encoding="utf-8") as f:
        data: dict[str, Any] = yaml.safe_load(f)
    return data


@cache
def _registry() -> Registry:  # type: ignore[type-arg]
    return Registry().with_resource(SPEC_URI, Resource(spec(), DRAFT202012))  # type: ignore[call-arg,arg-type]


class ContractValidator:
    """The schema at a pointer of openapi.yaml. jsonschema-rs (compiled) decides: it reads a
    whole game state in a fraction of a millisecond where python-jsonschema takes a tenth of
    a second, and the suite checks thousands of answers. python-jsonschema explains a
    refusal (its messages name the path), and must find one: a value one refuses and the
    other accepts fails the test (tests/http/test_app_contract.py compares the two on every
    example of the document, as it is and spoiled)."""

    def __init__(self, pointer: str) -> None:
        self.pointer = pointer
        self.fast = jsonschema_rs.Draft202012Validator(
            {**spec(), "$ref": "#" + quote(pointer, safe="/~")}, validate_formats=True
        )
        self.slow = jsonschema.Draft202012Validator(
            {"$ref": f"{SPEC_URI}#{pointer}"},
            registry=_registry(),
            format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER,
        )

    def iter_errors(self, value: Any) -> Iterator[jsonschema.ValidationError]:
        if self.fast.is_valid(value):
            return iter(())
        errors = list(self.slow.iter_errors(value))
        assert errors, f"jsonschema-rs refuses what python-jsonschema accepts at {self.pointer}"
        return iter(errors)


@cache
def validator(pointer: str) -> ContractValidator:
    """A validator for the schema at `pointer` in openapi.yaml ("/components/schemas/X")."""
    return ContractValidator(pointer)


def schema_errors(name: str, value: Any) -> list[str]:
    v = validator(f"/components/schemas/{name}")
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in v.iter_errors(value)]


def resolve_ref(obj: dict[str, Any]) -> dict[str, Any]:
    """Follow `$ref`s within openapi.yaml to the object they name."""
    while "$ref" in obj:
        node: Any = spec()
        for part in obj["$ref"].lstrip("#/").split("/"):
            node = node[part]
        obj = node
    return obj


def check_response(method: str, path_template: str, resp: Any) -> Any:
    """Assert `resp` (a Flask test response) is what openapi.yaml documents for the operation;
    return its JSON body."""
    op = spec()["paths"][path_template][method.lower()]
    status = str(resp.status_code)
    assert status in op["responses"], (
        f"{method} {path_template}: undocumented status {status}: {resp.data[:500]!r}"
    )
    doc = resolve_ref(op["responses"][status])
    assert "X-Request-ID" in resp.headers
    content = doc.get("content", {})
    mimetype = resp.mimetype
    assert mimetype in content, f"{method} {path_template} {status}: media type {mimetype}"
    if not mimetype.endswith("json"):  # YAML, SVG, HTML: text, no JSON schema to check
        return resp.get_data(as_text=True)
    body = resp.get_json()
    pointer = "/paths/" + path_template.replace("~", "~0").replace("/", "~1")
    pointer += f"/{method.lower()}/responses/{status}"
    if "$ref" in op["responses"][status]:
        pointer = op["responses"][status]["$ref"].lstrip("#")
    errors = [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in validator(f"{pointer}/content/{mimetype.replace('/', '~1')}/schema").iter_errors(
            body
        )
    ]
    assert not errors, f"{method} {path_template} {status} breaks the contract: {errors[:5]}"
    return body


def json_paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON document (keys and indexes), the document's own `()` first."""
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(json_paths(v, (*prefix, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(json_paths(v, (*prefix, i)))
    return out


def post(client: Any, path: str, body: Any, **kw: Any) -> Any:
    """`body` posted as JSON to `path` by a Flask test client."""
    return client.post(path, json=body, **kw)


def ok(resp: Any) -> dict[str, Any]:
    """The JSON body of a 200 answer (anything else fails, showing the body)."""
    assert resp.status_code == 200, resp.get_json()
    body: dict[str, Any] = resp.get_json()
    return body


def flush_redis(server: Any) -> None:
    """Forget everything a throw-away redis-server (ai/redis_server.py) holds."""
    import redis

    conn = redis.Redis.from_url(server.url)
    try:
        conn.flushdb()
    finally:
        conn.close()


def make_app(**config: Any) -> Any:
    cfg = {"TESTING": True, "LOG_LEVEL": "WARNING"}
    cfg.update(config)
    return create_app(cfg)


def advanced_setup(seats: int, seed: int) -> dict[str, Any]:
    """An advanced set-up where every seat replaces a few basic cards (A-1.5)."""
    from engine.architectura.catalog import replaceable

    cat = arch.builtin_catalogs()["reference"]
    rnd = random.Random(seed)
    additional = sorted(c.id for c in cat.cards.values() if c.kind == "additional")
    reps = []
    for _ in range(seats):
        chosen: dict[str, str] = {}
        for add in rnd.sample(additional, len(additional)):
            for basic in cat.basic_ids:
                if basic not in chosen.values() and replaceable(cat, add, basic):
                    chosen[add] = basic
                    break
            if len(chosen) == 4:
                break
        reps.append(chosen)
    return {"seats": seats, "seed": seed, "variant": "advanced", "replacements": reps}


def play_random(
    state: dict[str, Any], decisions: int, seed: int = 0
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play up to `decisions` random legal decisions with the engine; (state, log)."""
    rnd = random.Random(seed)
    log: list[dict[str, Any]] = []
    for _ in range(decisions):
        if state["game_over"]:
            break
        d = rnd.choice(arch.legal_decisions(state)["options"])
        state, _ = arch.apply(state, d)
        log.append(d)
    return state, log


def mid_game(seats: int = 4, seed: int = 3, decisions: int = 24) -> dict[str, Any]:
    state, _ = play_random(arch.new_game({"seats": seats, "seed": seed}), decisions, seed)
    assert not state["game_over"]
    return state


def finished_game(seats: int = 2, seed: int = 5) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    start = arch.new_game({"seats": seats, "seed": seed})
    state, log = play_random(start, 10_000, seed)
    assert state["game_over"]
    return state, log


# Every POST endpoint except /v1/suggest (covered by its own tests); the first takes a set-up,
# the others carry a state.
POSTS = [
    "/v1/games",
    "/v1/legal-moves",
    "/v1/resolve",
    "/v1/validate",
    "/v1/view",
    "/v1/score",
    "/v1/replay",
]
STATE_POSTS = POSTS[1:]


def random_game(eng: Any, setup: dict[str, Any], seed: int) -> list[dict[str, Any]]:
    """A complete game of seeded random options: its decisions as objects."""
    g = eng.new_game_internal(setup)
    rnd = random.Random(seed)
    out = []
    while not g.over:
        opts = eng.legal_actions(g)
        a = opts[rnd.randrange(len(opts))]
        out.append(eng.action_to_json(g, eng.current_player(g), a))
        eng.apply_action(g, a)
    return out


def tripled_catalog() -> dict[str, Any]:
    """Architectura's reference catalog document as a custom catalog: every value tripled."""
    doc = copy.deepcopy(
        make_app().test_client().get("/v1/catalogs/reference").get_json()["catalog"]
    )
    doc["id"], doc["name"] = "tripled", "Tripled"
    for card in doc["cards"]:
        if "values" in card:
            card["values"] = [v * 3 for v in card["values"]]
            if isinstance(card.get("basic"), int):
                card["basic"] *= 3
    return doc
