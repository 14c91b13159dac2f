"""Hostile inputs of issue 7, item 4 ("bounded answers and no 500s"): one regression test per
finding, each of which failed on the code before the fix.

- 2 MiB of bad decisions gave a 96 MB 400 answer;
- a 1M-integer city stack gave a 220 MB answer and 1.3 GB of worker memory;
- a value nested 1000 arrays deep gave a 500 (RecursionError in `repr`);
- a custom catalog with a list where a string belongs gave a 500;
- custom catalogs had no size bounds;
- a chunked body and a Content-Length body of the same size were not treated alike;
- duplicate object keys were silently resolved (the last one won).

Answers must stay under 64 KiB whatever the input; memory is the rise of the process's
resident set while the request is handled (the body's own bytes excluded: they exist first).
"""

from __future__ import annotations

import copy
import io
import re
import sys
from collections.abc import Callable
from typing import Any

import orjson
import pytest
from http_support import POSTS, STATE_POSTS, check_response, make_app, mid_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.architectura as arch
from engine.architectura.catalog import builtin_catalogs, load_catalog
from engine.errors import CatalogError, EngineError

APP = make_app()
CLIENT = APP.test_client()
MAX_ANSWER = 64 * 1024
BODY_LIMIT = 2 * 1024 * 1024
STATE = arch.new_game({"seats": 2, "seed": 7})
SETUP_BODY = {"seats": 2, "seed": 1}
REFERENCE = builtin_catalogs()["reference"].to_json()


def post_raw(path: str, raw: bytes, client: Any = CLIENT) -> Any:
    return client.post(path, data=raw, content_type="application/json")


def refused(r: Any, path: str, status: int | None = None) -> dict[str, Any]:
    """A small documented 4xx problem with a code; its body."""
    assert 400 <= r.status_code < 500, (r.status_code, r.data[:300])
    if status is not None:
        assert r.status_code == status, r.data[:300]
    assert len(r.data) <= MAX_ANSWER, len(r.data)
    body: dict[str, Any] = check_response("POST", path, r)
    assert body["code"]
    return body


def found(body: dict[str, Any]) -> int:
    """How many problems an answer reports (problems_total is there when some are left off)."""
    return int(body.get("problems_total", len(body["problems"])))


def _rss_peak_kib() -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        return int(re.search(r"VmHWM:\s+(\d+) kB", f.read()).group(1))  # type: ignore[union-attr]


def peak_bytes(fn: Callable[[], Any]) -> tuple[Any, int]:
    """fn's result, and how far the process's resident memory rose above where it stood
    (its high-water mark is reset first, Linux's /proc/self/clear_refs). tracemalloc is no
    judge here: it loses track of orjson's buffers and reports hundreds of phantom MB."""
    with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
        f.write("5")
    before = _rss_peak_kib()
    out = fn()
    return out, (_rss_peak_kib() - before) * 1024


def deep(depth: int, leaf: Any = 1) -> Any:
    v = leaf
    for _ in range(depth):
        v = [v]
    return v


DEEP = "@@deep@@"


def with_deep(body: dict[str, Any], depth: int) -> bytes:
    """The body as JSON with each DEEP string replaced by a value nested `depth` arrays deep
    (written directly: the JSON encoders themselves refuse such depths)."""
    return orjson.dumps(body).replace(
        b'"' + DEEP.encode() + b'"', b"[" * depth + b"1" + b"]" * depth
    )


# -- problem lists are capped ----------------------------------------------------------------


@pytest.mark.parametrize("path", ["/v1/resolve", "/v1/replay"])
def test_two_mib_of_bad_decisions_give_a_small_answer(path: str) -> None:
    """Was: one problem per decision, a 96 MB answer for 1M decisions."""
    raw = orjson.dumps({"state": STATE, "decisions": [1] * 1_000_000})
    assert BODY_LIMIT - 200_000 < len(raw) < BODY_LIMIT
    r, peak = peak_bytes(lambda: post_raw(path, raw))
    body = refused(r, path, 400)
    limit = "MAX_DECISIONS" if path == "/v1/resolve" else "MAX_HISTORY"
    assert body["pointer"] == "/decisions" and limit in body["detail"]
    assert peak < 64 * 2**20, peak


@pytest.mark.parametrize("path", ["/v1/resolve", "/v1/replay"])
def test_problem_lists_keep_the_first_hundred_and_count_them_all(path: str) -> None:
    """MAX_DECISIONS decisions, each a 1 KB string instead of an object: 2 MiB of problems
    before the cap."""
    decisions = [f"{i:04d}" + "x" * 1000 for i in range(2000)]
    r = post_raw(path, orjson.dumps({"state": STATE, "decisions": decisions}))
    body = refused(r, path, 400)
    assert len(body["problems"]) == 100
    assert body["problems_total"] == 2000
    assert [p["pointer"] for p in body["problems"]] == [f"/decisions/{i}" for i in range(100)]
    assert "(and 1999 more)" in body["detail"]


def test_long_strings_in_problems_are_cut() -> None:
    """A 1.9 MB unknown key and a 1.9 MB card name: neither is echoed whole."""
    big = "k" * 1_900_000
    state = copy.deepcopy(STATE)
    state["seats"][0][big] = 1
    r = post_raw("/v1/legal-moves", orjson.dumps({"state": state}))
    body = refused(r, "/v1/legal-moves", 422)
    assert body["code"] == "invalid_state"
    # the pointer names the nearest container that fits: still a pointer into the body
    assert any(p["pointer"] == "/state/seats/0" for p in body["problems"])
    d = {"type": "play", "card": big, "cell": [1, 1]}
    r = post_raw("/v1/resolve", orjson.dumps({"state": STATE, "decisions": [d]}))
    body = refused(r, "/v1/resolve", 422)
    assert body["code"] == "unknown_card" and body["pointer"] == "/decisions/0/card"
    assert len(body["detail"]) < 300


def test_validate_report_is_capped() -> None:
    state = copy.deepcopy(STATE)
    for i in range(5000):
        state["seats"][0][f"x{i}"] = 0
    r = CLIENT.post("/v1/validate", json={"state": state})
    assert r.status_code == 200 and len(r.data) <= MAX_ANSWER
    report = check_response("POST", "/v1/validate", r)
    assert report["valid"] is False
    assert len(report["problems"]) == 100 and report["problems_total"] == 5000


# -- huge lists inside a state ----------------------------------------------------------------


def test_million_integer_city_stack_is_refused_cheaply() -> None:
    """Was: a 220 MB answer and 1.3 GB of worker memory."""
    state = copy.deepcopy(STATE)
    state["city"][0][0] = [0] * 1_000_000
    raw = orjson.dumps({"state": state})
    assert len(raw) < BODY_LIMIT
    r, peak = peak_bytes(lambda: post_raw("/v1/legal-moves", raw))
    body = refused(r, "/v1/legal-moves", 422)
    assert body["code"] == "invalid_state"
    assert body["problems"][0]["pointer"] == "/state/city/0/0"
    assert found(body) <= 5
    # the parsed list itself is 8 MB; nothing per element is kept
    assert peak < 40 * 2**20, peak


def _put(state: dict[str, Any], where: str, junk: list[Any]) -> str:
    """Put `junk` at `where` in the state (a few places where lists and maps live); the
    pointer it is refused at."""
    if where == "resolving":
        state["resolving"] = junk
        return "/state/resolving"
    if where == "fountains":
        state["fountains"] = junk
        return "/state/fountains"
    if where == "done":
        state["resolving"].append(
            {"k": "op", "seat": 0, "src": "blue.park", "def": "park", "i": 0, "n": 0}
        )
        state["resolving"][-1]["done"] = junk
        return "/state/resolving/1/done"
    if where == "queue":
        state["resolving"].append({"k": "lab", "seat": 0, "by": 1, "queue": junk})
        return "/state/resolving/1/queue"
    if where == "replacements":
        state["seats"][0]["replacements"] = {str(i): 0 for i in range(len(junk))}
        return "/state/seats/0/replacements"
    if where == "keys":
        state["seats"][0].update({f"k{i}": 0 for i in range(len(junk))})
        return "/state/seats/0"
    state["seats"][0][where] = junk
    return f"/state/seats/0/{where}"


@pytest.mark.parametrize(
    "where",
    [
        "hand",
        "deck",
        "graveyard",
        "removed",
        "outside",
        "fountains",
        "resolving",
        "done",
        "queue",
        "replacements",
        "keys",
    ],
)
def test_huge_lists_anywhere_in_a_state(where: str) -> None:
    state = copy.deepcopy(STATE)
    pointer = _put(state, where, ["blue.villa"] * 150_000)
    raw = orjson.dumps({"state": state, "decisions": [{"type": "pass"}]})
    r, peak = peak_bytes(lambda: post_raw("/v1/resolve", raw))
    body = refused(r, "/v1/resolve", 422)
    assert any(p["pointer"].startswith(pointer) for p in body["problems"]), body
    assert len(body["problems"]) <= 100
    assert peak < 48 * 2**20, peak


def _keys(n: int) -> dict[str, int]:
    return {f"k{i}": 0 for i in range(n)}


@pytest.mark.parametrize(
    ("path", "body", "status", "total"),
    [
        # more than 100 unknown set-up fields: the envelope's 400, unread (tests/http/test_envelope.py)
        ("/v1/games", {**SETUP_BODY, **_keys(150_000)}, 400, None),
        ("/v1/replay", {"setup": {**SETUP_BODY, **_keys(150_000)}, "decisions": []}, 400, None),
        # a seat's replacements: the engine's, refused whole, unread
        ("/v1/games", {**SETUP_BODY, "replacements": [_keys(150_000)]}, 422, None),
        ("/v1/games", {**SETUP_BODY, "catalog": {**REFERENCE, **_keys(150_000)}}, 422, 150_000),
    ],
    ids=["envelope", "nested set-up", "replacements", "catalog"],
)
def test_objects_of_many_keys(
    path: str, body: dict[str, Any], status: int, total: int | None
) -> None:
    """Was: a problem object built for each of 150,000 keys (marshmallow's unknown fields:
    a second and 60 MB per request); now the first hundred, and a count."""
    raw = orjson.dumps(body)
    r, peak = peak_bytes(lambda: post_raw(path, raw))
    p = refused(r, path, status)
    assert len(p["problems"]) <= 100
    if total is not None:
        assert found(p) == total
    else:
        assert "150000" in r.get_data(as_text=True)
    assert peak < 48 * 2**20, peak


# -- nesting depth ----------------------------------------------------------------------------


def _deep_bodies() -> list[tuple[str, str, dict[str, Any]]]:
    d = DEEP
    out: list[tuple[str, str, dict[str, Any]]] = []
    for key in ("hand", "colour", "replacements", "tokens", "junk"):
        s = copy.deepcopy(STATE)
        s["seats"][0][key] = d
        out.append((f"state seat {key}", "/v1/legal-moves", {"state": s}))
    for key in ("rng", "pending", "scores", "junk", "catalog"):
        s = copy.deepcopy(STATE)
        s[key] = d
        out.append((f"state {key}", "/v1/score", {"state": s}))
    for key in ("type", "seat", "card", "cell", "junk"):
        dec = {"type": "play", "card": "blue.villa", "cell": [1, 1], key: d}
        out.append((f"decision {key}", "/v1/resolve", {"state": STATE, "decisions": [dec]}))
        out.append((f"replay {key}", "/v1/replay", {"state": STATE, "decisions": [dec]}))
    for key in ("passive", "pregame", "name", "values", "kind", "id", "on_play"):
        cat = copy.deepcopy(REFERENCE)
        cat["id"] = "hostile"
        cat["cards"][0][key] = d
        out.append((f"catalog card {key}", "/v1/games", {"seats": 2, "seed": 1, "catalog": cat}))
    cat = copy.deepcopy(REFERENCE)
    cat["colours"] = d
    out.append(("catalog colours", "/v1/games", {"seats": 2, "seed": 1, "catalog": cat}))
    out.append(("setup colours", "/v1/games", {"seats": 2, "seed": 1, "colours": [d, d]}))
    out.append(("view seat", "/v1/view", {"state": STATE, "seat": d}))
    return out


@pytest.mark.parametrize(("name", "path", "body"), _deep_bodies(), ids=lambda x: str(x)[:30])
def test_nesting_1000_deep_anywhere_is_refused(name: str, path: str, body: dict[str, Any]) -> None:
    """Was: a 500 (RecursionError from repr in an error message)."""
    r = post_raw(path, with_deep(body, 1000))
    refused(r, path)


@pytest.mark.parametrize("path", POSTS)
def test_nesting_limit_is_a_malformed_body(path: str) -> None:
    body = {"seats": 2, "seed": 1, "state": {}, "pad": DEEP}
    p = refused(post_raw(path, with_deep(body, 300)), path, 400)
    assert p["code"] == "malformed_json" and "nested" in p["detail"]
    # a legitimate depth is read (and refused for its unknown field, not its depth)
    assert refused(post_raw(path, with_deep(body, 40)), path)["code"] != "malformed_json"


def test_engine_messages_never_recurse() -> None:
    """The engine's own face (no HTTP depth limit in front): deep values in a state, a
    decision and a catalog give typed errors with short details."""
    limit = sys.getrecursionlimit()
    d = deep(limit + 50)  # deeper than repr could ever format
    s = copy.deepcopy(STATE)
    s["seats"][0]["hand"] = [d]
    s["seats"][1]["replacements"] = {"museum": d}
    s["resolving"].append({"k": d})
    with pytest.raises(EngineError) as e1:
        arch.legal_decisions(s)
    assert all(len(p.detail) < 300 for p in e1.value.problems)
    for key in ("type", "seat", "card"):
        with pytest.raises(EngineError) as e2:
            arch.apply(STATE, {"type": "play", "card": "blue.villa", "cell": [1, 1], key: d})
        assert len(e2.value.detail) < 300
    cat = copy.deepcopy(REFERENCE)
    cat["cards"][0]["passive"] = d
    cat["cards"][1]["pregame"] = d
    cat["cards"][2]["on_play"] = [{"op": "rotate", "value": d, "name": d}]
    with pytest.raises(CatalogError):
        load_catalog(cat)


def test_short_repr_is_bounded() -> None:
    from engine.errors import short_repr

    assert short_repr("blue.villa") == "'blue.villa'"
    assert short_repr(None) == "null" and short_repr(3) == "3"  # JSON's names, as sent
    assert short_repr([None, True, {"a": False}]) == "[null, true, {'a': false}]"
    assert len(short_repr("x" * 10_000)) < 80
    assert len(short_repr(deep(100_000))) < 80
    assert len(short_repr(list(range(100_000)))) < 80
    assert len(short_repr({str(i): i for i in range(1000)})) < 80
    assert len(short_repr(10**5000)) < 80  # beyond int_max_str_digits: repr would raise


# -- custom catalogs --------------------------------------------------------------------------


def _catalog(**changes: Any) -> dict[str, Any]:
    cat = copy.deepcopy(REFERENCE)
    cat["id"] = "hostile"
    cat.update(changes)
    return cat


def _card_with(index: int, **fields: Any) -> dict[str, Any]:
    cat = _catalog()
    cat["cards"][index].update(fields)
    return cat


@pytest.mark.parametrize(
    ("catalog", "pointer"),
    [
        ({"cards": [{"passive": [[1]]}]}, "/catalog/cards/0"),
        (_card_with(0, passive=[[1]]), "/catalog/cards/0/passive"),
        (_card_with(0, passive=[{}]), "/catalog/cards/0/passive"),
        (_card_with(0, pregame=[]), "/catalog/cards/0/pregame"),
        (_card_with(0, pregame={}), "/catalog/cards/0/pregame"),
        (_catalog(colours=[[]]), "/catalog/colours"),
        (_catalog(colours=[[], [], [], []]), "/catalog/colours"),
        (_catalog(colours=[{}, {}, {}, {}]), "/catalog/colours"),
        (_card_with(0, id=[]), "/catalog/cards/0/id"),
        (_card_with(0, id={}), "/catalog/cards/0/id"),
        (_card_with(0, on_play=[{"op": "rotate", "value": []}]), "/catalog/cards/0/on_play/0"),
        (_card_with(0, on_play=[{"op": "rotate", "value": "x"}]), "/catalog/cards/0/on_play/0"),
        (_card_with(0, on_play=[{"op": "rotate", "name": [1]}]), "/catalog/cards/0/on_play/0"),
        (
            _card_with(0, on_play=[{"op": "rotate", "target": {"where": []}}]),
            "/catalog/cards/0/on_play/0/target/where",
        ),
        (
            _card_with(0, on_play=[{"op": "rotate", "target": {"owner": {}}}]),
            "/catalog/cards/0/on_play/0/target/owner",
        ),
        (_card_with(0, end_of_game=[{"score": []}]), "/catalog/cards/0/end_of_game/0/score"),
        (_card_with(0, end_of_game=[{"score": {}}]), "/catalog/cards/0/end_of_game/0/score"),
        (_card_with(0, cost={"remove": 1, "from": [[]]}), "/catalog/cards/0/cost"),
        (_card_with(0, cost={"remove": 1.5, "from": ["hand"]}), "/catalog/cards/0/cost"),
        (_card_with(0, names={"pt": []}), "/catalog/cards/0/names"),
        (_card_with(0, values=[1.5, 2]), "/catalog/cards/0/values"),
        (_card_with(0, basic=[]), "/catalog/cards/0/basic"),
        (_card_with(0, kind=[]), "/catalog/cards/0/kind"),
        (_card_with(0, placement=[]), "/catalog/cards/0/placement"),
        (_card_with(0, formula=[]), "/catalog/cards/0"),
    ],
)
def test_malformed_catalog_fields_are_422(catalog: dict[str, Any], pointer: str) -> None:
    """Was: a 500 for the first ones (TypeError: unhashable type in a set lookup)."""
    body = {"seats": 2, "seed": 1, "catalog": catalog}
    p = refused(CLIENT.post("/v1/games", json=body), "/v1/games", 422)
    assert p["code"] == "invalid_catalog"
    assert any(x["pointer"].startswith(pointer) for x in p["problems"]), p["problems"]


def _field_paths() -> list[tuple[Any, ...]]:
    """Every place of a catalog document a value can stand: each field present in the
    reference catalog, and each optional field of each kind of object."""
    out: list[tuple[Any, ...]] = []

    def walk(v: Any, path: tuple[Any, ...]) -> None:
        out.append(path)
        if isinstance(v, dict):
            for k, sub in v.items():
                walk(sub, (*path, k))
        elif isinstance(v, list):
            for i, sub in enumerate(v):
                walk(sub, (*path, i))

    walk(REFERENCE, ())
    card_fields = ["id", "name", "names", "kind", "values", "basic", "formula", "shield"]
    card_fields += ["replaces", "cost", "placement", "on_play", "end_of_game", "passive"]
    card_fields += ["pregame", "text", "unknown"]
    for i in (0, 6, 16, 20, 23, 24):
        out.extend(("cards", i, f) for f in card_fields)
        out.extend(("cards", i, "cost", f) for f in ("remove", "from"))
        for f in ("op", "may", "count", "steps", "per_owner", "value", "name", "target"):
            out.append(("cards", i, "on_play", 0, f))
        for f in ("where", "owner", "face", "value", "card"):
            out.append(("cards", i, "on_play", 0, "target", f))
            out.append(("cards", i, "end_of_game", 0, "target", f))
        out.extend(("cards", i, "end_of_game", 0, f) for f in ("score", "points", "target"))
    out.extend((f,) for f in ("format", "id", "name", "provenance", "colours", "cards", "x"))
    return sorted(set(out), key=repr)


FIELD_PATHS = _field_paths()

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from(
        ["all", "lower_than_source", "guesthouse", "obelisk", "smithy", "hand", "palace", "X+1"]
    ),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


def _set_path(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    node = doc
    for k in path[:-1]:
        if isinstance(node, dict):
            node = node.setdefault(k, {})
        elif isinstance(node, list) and isinstance(k, int) and k < len(node):
            node = node[k]
        else:
            return doc
        if not isinstance(node, dict | list):
            return doc
    last = path[-1]
    if isinstance(node, dict):
        node[last] = value
    elif isinstance(node, list) and isinstance(last, int):
        if last < len(node):
            node[last] = value
        else:
            node.append(value)
    return doc


@settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    changes=st.lists(st.tuples(st.sampled_from(FIELD_PATHS), JSON_VALUES), min_size=1, max_size=3)
)
def test_any_json_value_in_any_catalog_field_is_a_4xx(changes: list[tuple[Any, Any]]) -> None:
    cat: Any = copy.deepcopy(REFERENCE)
    for path, value in changes:
        cat = _set_path(cat, path, copy.deepcopy(value))
    r = CLIENT.post("/v1/games", json={"seats": 2, "seed": 1, "catalog": cat})
    assert r.status_code < 500, r.get_json()
    body = check_response("POST", "/v1/games", r)
    if r.status_code != 200:
        assert 400 <= r.status_code < 500 and body["code"]
    else:  # an accepted catalog plays: its state reads back with the catalog
        r = CLIENT.post("/v1/legal-moves", json={"state": body["state"], "catalog": cat})
        assert r.status_code == 200, r.get_json()


# -- catalog bounds ---------------------------------------------------------------------------


def _many_cards(n: int) -> dict[str, Any]:
    cat = _catalog()
    extra = copy.deepcopy(REFERENCE["cards"][20])
    cat["cards"] = cat["cards"] + [dict(extra, id=f"c{i}") for i in range(n)]
    return cat


@pytest.mark.parametrize(
    ("catalog", "pointer"),
    [
        (_many_cards(3000), "/catalog/cards"),
        (_card_with(0, on_play=[{"op": "rotate"}] * 5000), "/catalog/cards/0/on_play"),
        (
            _card_with(0, end_of_game=[{"score": "if_any", "points": 1}] * 5000),
            "/catalog/cards/0/end_of_game",
        ),
        (_card_with(0, text="t" * 1_000_000), "/catalog/cards/0/text"),
        (_card_with(0, name="n" * 1_000_000), "/catalog/cards/0/name"),
        (_card_with(0, passive=["graveyard"] * 100_000), "/catalog/cards/0/passive"),
        (_catalog(provenance="p" * 1_000_000), "/catalog/provenance"),
        (_catalog(cards=[1] * 500_000), "/catalog/cards"),
    ],
)
def test_custom_catalogs_are_bounded(catalog: dict[str, Any], pointer: str) -> None:
    body = {"seats": 2, "seed": 1, "catalog": catalog}
    raw = orjson.dumps(body)
    assert len(raw) < BODY_LIMIT
    r, peak = peak_bytes(lambda: post_raw("/v1/games", raw))
    p = refused(r, "/v1/games", 422)
    assert p["code"] == "invalid_catalog"
    assert any(x["pointer"] == pointer for x in p["problems"]), p["problems"][:5]
    assert found(p) <= 5, found(p)
    assert peak < 48 * 2**20, peak


def test_catalog_within_bounds_is_accepted() -> None:
    cat = _many_cards(60)
    r = CLIENT.post("/v1/games", json={"seats": 4, "seed": 1, "catalog": cat})
    assert r.status_code == 200, r.get_json()


# -- body limits: chunked and Content-Length alike --------------------------------------------


def _exact(n: int) -> bytes:
    """A valid /v1/games body of exactly n bytes (padded with JSON whitespace)."""
    core = b'{"seats": 2, "seed": 1}'
    return core[:-1] + b" " * (n - len(core)) + b"}"


@pytest.mark.parametrize("size", [999, 1000, 1001, 5000])
def test_chunked_and_content_length_bodies_are_limited_alike(size: int) -> None:
    """Was: a chunked body of exactly the limit was refused while the same body with a
    Content-Length was read."""
    client = make_app(MAX_CONTENT_LENGTH=1000).test_client()
    raw = _exact(size)
    sized = client.post("/v1/games", data=raw, content_type="application/json")
    chunked = client.post(
        "/v1/games",
        input_stream=io.BytesIO(raw),
        headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},
    )
    assert sized.status_code == chunked.status_code == (200 if size <= 1000 else 413)
    if size > 1000:
        assert sized.get_json()["code"] == chunked.get_json()["code"] == "body_too_large"


# -- duplicate keys ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "raw", "key"),
    [
        ("/v1/games", b'{"seats": 2, "seed": 1, "seats": 3}', "seats"),
        ("/v1/games", b'{"seats": 2, "seed": 1, "seed": 1}', "seed"),
        # compact, as orjson and JSON.stringify write (app/jsonio.py compares with its own)
        ("/v1/games", b'{"seats":2,"seed":1,"seed":1}', "seed"),
        ("/v1/view", b'{"state":{"a":{"b":1,"b":1}},"seat":0}', "b"),
        ("/v1/view", b'{"state": {"a": 1, "a": 1}, "seat": 0}', "a"),
        ("/v1/resolve", b'{"state": {}, "decisions": [{"type": "pass", "type": "play"}]}', "type"),
        # a colon escaped inside a string must not hide a duplicate
        ("/v1/games", b'{"seats": 2, "seed": 1, "x\\u003a": "\\u003a\\u003A", "seed": 1}', "seed"),
    ],
)
def test_duplicate_keys_are_refused(path: str, raw: bytes, key: str) -> None:
    """Was: accepted, the last value silently winning."""
    p = refused(post_raw(path, raw), path, 400)
    assert p["code"] == "duplicate_key"
    assert repr(key) in p["detail"]


def test_duplicate_key_deep_in_a_real_state() -> None:
    raw = orjson.dumps({"state": mid_game(), "decisions": [{"type": "pass"}]})
    i = raw.index(b'"tokens":')
    forged = raw[:i] + b'"tokens":3,' + raw[i:]
    p = refused(post_raw("/v1/resolve", forged), "/v1/resolve", 400)
    assert p["code"] == "duplicate_key" and "'tokens'" in p["detail"]


@pytest.mark.parametrize(
    "raw",
    [
        b'{"seats": 2, "seed": 1, "colours": ["a:b", "c:d"]}',
        b'{"seats": 2, "seed": 1, "colours": ["\\u003a", "\\u003A"]}',
        b'{"seats": 2, "seed": 1, "colours": ["x\\\\u003a", "y"]}',
    ],
)
def test_colons_in_strings_are_not_duplicates(raw: bytes) -> None:
    r = post_raw("/v1/games", raw)
    assert r.get_json()["code"] != "duplicate_key"


def test_every_state_endpoint_still_reads_a_real_state() -> None:
    """The checks in front of the engine leave legitimate bodies alone."""
    s = mid_game()
    for path in STATE_POSTS:
        body: dict[str, Any] = {"state": s}
        if path in ("/v1/resolve", "/v1/replay"):
            body["decisions"] = arch.legal_decisions(s)["options"][:1]
        if path == "/v1/view":
            body["seat"] = 0
        r = CLIENT.post(path, json=body)
        assert r.status_code == 200, (path, r.get_json())


def test_unknown_keys_of_mixed_types_are_listed_not_crashed() -> None:
    """A Python caller (not JSON) may mix key types; the unknown-field list sorts them as text."""
    from engine.errors import ProblemList, unknown_keys

    problems = ProblemList()
    unknown_keys(problems, {1: 2, "a": 3, (1, 2): 4}, ["x"], "")
    assert [p.pointer for p in problems] == ["/(1, 2)", "/1", "/a"]


def test_a_forged_history_of_unknown_cards_costs_few_full_comparisons(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Fora de Prumo state on a custom catalog of 500 cards whose ids are 40 characters
    alike but for their ends, its history 300 purchases of ids close to all of them: every
    refusal guessed "Did you mean" by comparing the id with 256 others in full (42 ms each),
    83 s of CPU for 2,000 decisions, on every endpoint that reads a state, before any gate
    (audit of 2026-11-29). Now the history's first GUESSED refusals guess, each comparing at
    most MAX_COMPARED ids in full; the answer still lists its problems and counts them all."""
    import difflib

    from fdp_support import big_catalog

    from app.history import GUESSED
    from engine.guesses import MAX_COMPARED

    catalog = big_catalog(500)
    for i, card in enumerate(catalog["cards"]):
        card["id"] = "s" * 35 + f"{i:05d}"
        card.pop("printed", None)
    client = make_app().test_client()
    setup = {"game": "fora-de-prumo", "seats": 4, "seed": 3, "catalog": catalog}
    state = client.post("/v1/games", json=setup).get_json()["state"]
    forged = [{"type": "buy", "card": "s" * 34 + f"x{i:05d}"} for i in range(300)]
    state["history"] = {"setup": state["history"]["setup"], "decisions": forged}
    full = [0]
    ratio = difflib.SequenceMatcher.ratio

    def counted(self: difflib.SequenceMatcher[str]) -> float:
        full[0] += 1
        return ratio(self)

    monkeypatch.setattr(difflib.SequenceMatcher, "ratio", counted)
    r = client.post("/v1/legal-moves", json={"state": state, "catalog": catalog})
    problem = check_response("POST", "/v1/legal-moves", r)
    assert r.status_code == 422 and problem["code"] == "invalid_history"
    assert problem["problems_total"] == 300
    assert "Did you mean" in problem["problems"][0]["detail"]
    assert "Did you mean" not in problem["problems"][-1]["detail"]
    assert 0 < full[0] <= GUESSED * MAX_COMPARED  # was 300 * 256


def test_a_custom_catalog_is_not_kept_after_its_request() -> None:
    """Audit of 2026-11-30: Architectura's instance tables were kept in a module-level table
    of 512 entries, each holding its catalog: a client sending large custom catalogs (2.75 MB
    kept each) grew every worker to 1.2 GB. The tables now live with their catalog, which
    dies with its request: 20 games of 20 custom catalogs leave none alive."""
    import gc

    from http_support import tripled_catalog

    from engine.architectura.catalog import Catalog

    def live() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if type(o) is Catalog)

    client = make_app().test_client()
    doc = tripled_catalog()
    client.post("/v1/games", json={"seats": 2, "seed": 0, "catalog": doc})  # warm up
    before = live()
    for i in range(20):
        custom = {**doc, "id": f"tripled_{i}"}
        r = client.post("/v1/games", json={"seats": 2, "seed": i, "catalog": custom})
        assert r.status_code == 200, r.get_json()
        assert r.get_json()["state"]["catalog"]["id"] == f"tripled_{i}"
    assert live() - before <= 1
