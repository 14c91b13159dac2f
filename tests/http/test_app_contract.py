"""openapi.yaml: a valid document, its examples true, and a bounded schemathesis run
against the app with every check but positive_data_acceptance (no 5xx but documented 503s
with Retry-After, every response as documented, schema-invalid requests refused)."""

from __future__ import annotations

import copy
import importlib.util
import random
import re
from types import SimpleNamespace
from typing import Any

import pytest
import schemathesis
from http_support import ROOT, check_response, make_app, resolve_ref, spec, validator
from openapi_spec_validator import validate as validate_spec
from readers_oracle import mutated
from schemathesis.checks import CHECKS as CHECKS_REGISTRY
from schemathesis.checks import load_all_checks
from schemathesis.config import SchemathesisConfig
from schemathesis_checks import documented_503_only
from schemathesis_lazy import LazySchema


def test_document_is_valid_openapi_3_1() -> None:
    validate_spec(spec())
    assert spec()["openapi"].startswith("3.1")


def test_every_route_is_documented_and_every_path_routed(app: Any) -> None:
    routed = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)  # <x> and <path:x> -> {x}
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            routed.add((method.lower(), path))
    documented = {(m, p) for p, ops in spec()["paths"].items() for m in ops if m != "parameters"}
    assert routed == documented


def test_every_post_documents_what_reading_its_body_can_answer() -> None:
    """Any body can be malformed (400), stall (408 body_timeout, app/body_timeout.py), be too
    large (413) or not JSON (415), whatever the operation."""
    for path, ops in spec()["paths"].items():
        if "post" in ops:
            missing = {"400", "408", "413", "415"} - set(ops["post"]["responses"])
            assert not missing, f"POST {path} does not document {sorted(missing)}"


def _examples() -> list[tuple[str, str, str, str, Any, str]]:
    """(path, method, where, name, value, schema pointer) for every example in the document."""
    out = []
    for path, ops in spec()["paths"].items():
        for method, op in ops.items():
            base = "/paths/" + path.replace("/", "~1") + f"/{method}"
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            for name, ex in body.get("examples", {}).items():
                out.append(
                    (
                        path,
                        method,
                        "request",
                        name,
                        resolve_ref(ex)["value"],
                        f"{base}/requestBody/content/application~1json/schema",
                    )
                )
            for status, resp in op["responses"].items():
                pointer = f"{base}/responses/{status}"
                if "$ref" in resp:
                    pointer = resp["$ref"].lstrip("#")
                for mt, content in resolve_ref(resp).get("content", {}).items():
                    for name, ex in content.get("examples", {}).items():
                        out.append(
                            (
                                path,
                                method,
                                status,
                                name,
                                resolve_ref(ex)["value"],
                                f"{pointer}/content/{mt.replace('/', '~1')}/schema",
                            )
                        )
    return out


def test_there_are_examples_for_every_post() -> None:
    have = {(p, m) for p, m, where, *_ in _examples() if where == "request"}
    posts = {(p, "post") for p, ops in spec()["paths"].items() if "post" in ops}
    assert posts <= have


@pytest.mark.parametrize(
    ("path", "method", "where", "name", "value", "pointer"),
    _examples(),
    ids=lambda x: x if isinstance(x, str) and not x.startswith("/paths") else "",
)
def test_examples_match_their_schemas(
    path: str, method: str, where: str, name: str, value: Any, pointer: str
) -> None:
    errors = [e.message for e in validator(pointer).iter_errors(value)]
    assert not errors, f"{method} {path} {where} example {name}: {errors[:3]}"


def test_the_fast_validator_agrees_with_python_jsonschema() -> None:
    """The tests' contract checks decide with jsonschema-rs (tests/http_support.py): on every
    example of the document, as it is and spoiled three ways (a field dropped, a wrong type,
    a number out of range...), it accepts exactly what python-jsonschema accepts."""
    rnd, refused = random.Random(5), 0
    for path, method, where, name, value, pointer in _examples():
        v = validator(pointer)
        for doc in [value] + [mutated(value, rnd) for _ in range(3)]:
            slow = not any(True for _ in v.slow.iter_errors(doc))
            assert v.fast.is_valid(doc) == slow, (method, path, where, name, doc)
            refused += not slow
    assert refused >= 100  # the spoiled values did reach refusals


def test_request_examples_give_the_documented_responses(client: Any) -> None:
    """Post every request example; where a 200 example of the same name exists the live
    answer must equal it (the examples are real, and current)."""
    examples = _examples()
    for path, method, where, name, value, _ in examples:
        if where != "request":
            continue
        r = client.open(path, method=method.upper(), json=value)
        body = check_response(method.upper(), path, r)
        expected = [
            v
            for p, m, w, n, v, _ in examples
            if (p, m, n) == (path, method, name) and w != "request"
        ]
        for exp in expected:
            got = dict(body)
            got.pop("request_id", None)
            assert got == exp, f"{method} {path} example {name} is stale"


def test_generated_examples_are_current() -> None:
    spec_path = ROOT / "scripts" / "openapi_examples.py"
    loader = importlib.util.spec_from_file_location("openapi_examples", spec_path)
    assert loader is not None and loader.loader is not None
    module = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(module)
    assert module.build() == spec()["components"]["examples"], (
        "run .venv/bin/python scripts/openapi_examples.py"
    )


# -- schemathesis -----------------------------------------------------------------------------
# Positive and negative cases, with the document's examples (real states) as seeds, a fixed seed
# (`deterministic`) and a bounded number of examples per operation. Every check schemathesis has
# is named below, on, but `positive_data_acceptance`: a request can match the schema and still
# be refused by the rules (a random object is not a consistent game state), and that refusal is
# a documented 422; what JSON Schema can say of a request (required fields, bounds, lengths) the
# document says, so only such rules are left to the engine. Plus the project's own check
# (tests/schemathesis_checks.py): a 5xx is only ever a 503 the operation documents, with
# Retry-After.

APP = make_app()
# A schema-violating body over MAX_BODY_BYTES (2001 generated decisions, say) is rightly
# refused with 413 before it is read: a rejection like the default 4xx list.
REJECTED = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429"]
# A ceiling that catches a hang, not a slow CI core (the largest answers, a /v1/suggest search
# or a replay of MAX_DECISIONS, take well under a second here).
MAX_RESPONSE_TIME_S = 30.0
CHECKS: dict[str, Any] = {
    # a documented 503 is not a crash (a busy search slot, say); status_code_conformance
    # still requires each 503 to be documented, and documented_503_only that it be
    # documented for its operation and carry Retry-After
    "not_a_server_error": {"enabled": True, "expected-statuses": ["2xx", "3xx", "4xx", "503"]},
    "status_code_conformance": {"enabled": True},
    "content_type_conformance": {"enabled": True},
    "response_headers_conformance": {"enabled": True},
    "response_schema_conformance": {"enabled": True},
    "negative_data_rejection": {"enabled": True, "expected-statuses": REJECTED},
    "positive_data_acceptance": {"enabled": False},
    "missing_required_header": {"enabled": True},
    "unsupported_method": {"enabled": True},
    "allow_header_conformance": {"enabled": True},
    "use_after_free": {"enabled": True},
    "ensure_resource_availability": {"enabled": True},
    "ignored_auth": {"enabled": True},
    "object_level_authorization": {"enabled": True},
    "max_response_time": MAX_RESPONSE_TIME_S,
    documented_503_only.__name__: {"enabled": True},
}
CONFIG = SchemathesisConfig.from_dict(
    {
        "generation": {"max-examples": 40, "mode": "all", "deterministic": True},
        "checks": CHECKS,
    }
)
SCHEMA = schemathesis.openapi.from_wsgi("/openapi.yaml", APP, config=CONFIG)
# Over WSGI schemathesis reads an answer's raw bytes and does not undo a Content-Encoding, so
# it asks for none (compressed answers: tests/http/test_compression.py; over HTTP, a client
# such as requests decodes them itself).
UNCOMPRESSED = {"Accept-Encoding": "identity"}
# schemathesis leaves out the operation that served the document it loaded unless a filter
# names it: GET /openapi.yaml is tested on its own, with the same checks.
DOCUMENT_SCHEMA = SCHEMA.include(path="/openapi.yaml")


def test_every_builtin_check_is_named() -> None:
    """A schemathesis upgrade that adds a check makes this fail: name it in CHECKS (on)."""
    load_all_checks()
    builtin = {c.__name__ for c in CHECKS_REGISTRY.get_all() if not isinstance(c, type)}
    assert builtin - {documented_503_only.__name__} <= set(CHECKS)
    assert [n for n, c in CHECKS.items() if isinstance(c, dict) and not c["enabled"]] == [
        "positive_data_acceptance"
    ]


def test_documented_503_only_refuses_other_server_errors() -> None:
    on = SimpleNamespace(
        operation=SimpleNamespace(
            label="POST /x", definition=SimpleNamespace(raw={"responses": {"503": {}}})
        )
    )
    off = SimpleNamespace(
        operation=SimpleNamespace(
            label="POST /y", definition=SimpleNamespace(raw={"responses": {}})
        )
    )

    def answer(status: int, code: str = "suggest_busy", **headers: str) -> Any:
        body = {"code": code}
        return SimpleNamespace(
            status_code=status, headers={k: [v] for k, v in headers.items()}, json=lambda: body
        )

    documented_503_only(None, answer(503, **{"retry-after": "1"}), on)
    documented_503_only(None, answer(422), off)
    for status, code, case, headers in (
        # a service without a job store answers 422 (issue 29): a 503 always says when
        (503, "jobs_unavailable", on, {}),
        (500, "suggest_busy", on, {}),
        (503, "suggest_busy", off, {"retry-after": "1"}),
        (503, "suggest_busy", on, {}),
        (503, "jobs_queue_full", on, {}),
    ):
        with pytest.raises(AssertionError):
            documented_503_only(None, answer(status, code, **headers), case)


def call_and_validate(case: Any) -> None:
    case.call_and_validate(headers=UNCOMPRESSED)


# built when each test runs, not at collection (tests/schemathesis_lazy.py)
CONTRACT = LazySchema(SCHEMA)
DOCUMENT = LazySchema(DOCUMENT_SCHEMA)


@pytest.mark.parametrize("label", CONTRACT.labels())
def test_schemathesis(label: str) -> None:
    assert CONTRACT.run(label, call_and_validate) > 0


@pytest.mark.parametrize("label", DOCUMENT.labels())
def test_schemathesis_document(label: str) -> None:
    assert DOCUMENT.run(label, call_and_validate) > 0


# -- schemathesis on Fora de Prumo bodies -------------------------------------------------------
# The same app and the same checks, with the request schemas narrowed to Fora de Prumo: a state
# shaped like ForaDePrumoState (`pending` and `scores` optional, as on input), decisions shaped
# like ForaDePrumoDecision (`seat` optional) and its set-up, seeded with the document's Fora de
# Prumo examples (real states). Generated bodies thus reach the engine's strict reader instead of
# stopping at the envelope. The responses are checked against the document as published.
# Bounded for time: one endpoint per request shape (/v1/view and /v1/score read the state as
# /v1/legal-moves does; /v1/validate answers 200 with the problems of any object; /v1/suggest's
# budgets are the bots' business: tests/fora_de_prumo/test_fdp_http.py covers them), and no coverage phase
# (its boundary cases of every field of a whole state cost seconds per endpoint).
FDP_PATHS = ("/v1/games", "/v1/legal-moves", "/v1/resolve", "/v1/replay")


def _fora_de_prumo_requests() -> dict[str, Any]:
    doc = copy.deepcopy(spec())
    schemas = doc["components"]["schemas"]
    state = copy.deepcopy(schemas["ForaDePrumoState"])
    state["required"] = [k for k in state["required"] if k not in ("pending", "scores")]
    schemas["StateInput"] = state
    decisions = []
    for ref in schemas["ForaDePrumoDecision"]["oneOf"]:
        d = copy.deepcopy(resolve_ref(ref))
        d["required"] = [k for k in d["required"] if k != "seat"]
        decisions.append(d)
    schemas["DecisionInput"] = {"oneOf": decisions}
    # requests set up Fora de Prumo; a state's history (in the answers) still names either game's
    schemas["AnyGameSetup"] = schemas["GameSetup"]
    for alternative in schemas["History"]["properties"]["setup"]["anyOf"]:
        if alternative == {"$ref": "#/components/schemas/GameSetup"}:
            alternative["$ref"] = "#/components/schemas/AnyGameSetup"
    schemas["GameSetup"] = {"$ref": "#/components/schemas/ForaDePrumoSetup"}
    doc["paths"] = {p: ops for p, ops in doc["paths"].items() if p in FDP_PATHS}
    for ops in doc["paths"].values():
        body = ops["post"]["requestBody"]["content"]["application/json"]
        examples = body.get("examples", {})
        body["examples"] = {
            k: resolve_ref(v) for k, v in examples.items() if k.startswith("fora_de_prumo")
        }
    return doc


FDP_CONFIG = SchemathesisConfig.from_dict(
    {
        "generation": {"max-examples": 8, "mode": "all", "deterministic": True},
        "checks": CHECKS,
        # A set-up that breaks ForaDePrumoSetup (no `game`, say) can be a good Architectura
        # one, rightly accepted: negative set-ups are the main run's, against the whole contract.
        "operations": [
            {"include-path": path, "checks": {"negative_data_rejection": {"enabled": False}}}
            for path in ("/v1/games", "/v1/replay")
        ],
        "phases": {"coverage": {"enabled": False}},
        "suppress-health-check": ["too_slow"],  # whole states are big to draw on a busy CI core
    }
)
FDP_SCHEMA = schemathesis.openapi.from_dict(_fora_de_prumo_requests(), config=FDP_CONFIG)
FDP_SCHEMA.app = APP


FDP = LazySchema(FDP_SCHEMA)


@pytest.mark.parametrize("label", FDP.labels())
def test_schemathesis_fora_de_prumo(label: str) -> None:
    assert FDP.run(label, call_and_validate) > 0
