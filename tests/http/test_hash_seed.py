"""Same body, same answer, in every process: an answer must not follow the process's string
hashing (PYTHONHASHSEED), or two servers, or one restarted, answer one request differently.

Each case runs in two subprocesses with different hash seeds; their answers must be the
same bytes (less the request id). marshmallow finds a body's unknown fields as a set, whose
order follows the hashing: a 400 naming several came out in another order, its `pointer`
another field (audit of 2026-11-29)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# each: a path and a body with several unknown fields, at the top and nested
CASES = [
    ("/v1/view", {"state": {}, "seat": 0, "zz": 1, "aa": 2, "mm": 3}),
    ("/v1/suggest", {"stat": {}, "levle": "x", "bto": "y", "qq": 1}),
    ("/v1/suggest", "STATE+budget"),
    ("/v1/render", "STATE+abc"),
    ("/v1/review", "STATE+abc"),
    ("/v1/position", "STATE+abc"),
    ("/v1/resolve", {"stat": {}, "decisons": [], "catalgo": 1, "x": 2}),
]

SCRIPT = """
import json, sys
sys.path.insert(0, "tests")
from http_support import make_app
c = make_app().test_client()
state = c.post("/v1/games", json={"seats": 2, "seed": 1}).get_json()["state"]
out = []
for path, body in json.loads(sys.argv[1]):
    if body == "STATE+budget":
        body = {"state": state, "budget": {"iterations": 1, "a": 1, "b": 2, "c": 3, "d": 4}}
    elif body == "STATE+abc":
        body = {"state": state, "a": 1, "b": 2, "c": 3, "d": 4}
    r = c.post(path, json=body)
    out.append(r.get_data(as_text=True).replace(r.headers["X-Request-ID"], ""))
print(json.dumps(out))
"""


def answers(hash_seed: str) -> list[str]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(CASES)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    out: list[str] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def test_answers_do_not_follow_the_process_string_hashing() -> None:
    first, second, third = answers("1"), answers("2"), answers("98765")
    for case, a, b, c in zip(CASES, first, second, third, strict=True):
        assert a == b == c, case
        problem = json.loads(a)
        assert problem["status"] == 400 and len(problem["problems"]) >= 3, problem
    # the first unknown field named is the body's first
    assert '"pointer":"/zz"' in first[0]
