"""Regenerate the examples at the end of openapi.yaml from real responses of the app.

    .venv/bin/python scripts/openapi_examples.py          # rewrite openapi.yaml
    .venv/bin/python scripts/openapi_examples.py --check  # exit 1 if they are stale

Everything below the marker line of openapi.yaml is replaced (the tests check the examples
are what the service answers today, so a rule or format change shows up there).
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402

MARKER = "  # --- generated examples:"


def _post(client: Any, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    r = client.post(path, json=body)
    data = r.get_json()
    if isinstance(data, dict):
        data.pop("request_id", None)
    return r.status_code, data


def build() -> dict[str, dict[str, Any]]:
    app = create_app({"LOG_LEVEL": "WARNING"})
    c = app.test_client()
    ex: dict[str, dict[str, Any]] = {}

    def add(name: str, summary: str, value: Any) -> None:
        ex[name] = {"summary": summary, "value": copy.deepcopy(value)}

    setup = {"seats": 2, "seed": 7}
    add("NewGameRequest", "A basic 2-seat game", setup)
    _, new = _post(c, "/v1/games", setup)
    add("NewGameResponse", "The new game (seat 0 to play)", new)
    s0 = new["state"]
    add("StateRequest", "A state", {"state": s0})
    _, moves = _post(c, "/v1/legal-moves", {"state": s0})
    add("LegalMovesResponse", "Seat 0's options on the first turn", moves)
    first = moves["options"][0]
    add("ResolveRequest", "Play the first option", {"state": s0, "decisions": [first]})
    _, resolved = _post(c, "/v1/resolve", {"state": s0, "decisions": [first]})
    add("ResolveResponse", "The new state and its events", resolved)
    s1 = resolved["state"]
    seat1_card = s1["seats"][1]["hand"][0]
    illegal = {"seat": 1, "type": "play", "card": seat1_card, "cell": [2, 5]}
    add(
        "ResolveIllegalRequest",
        "A batch whose second decision is illegal",
        {"state": s0, "decisions": [first, illegal]},
    )
    status, problem = _post(c, "/v1/resolve", {"state": s0, "decisions": [first, illegal]})
    assert status == 422, problem
    add("ResolveIllegalProblem", "Nothing is applied; index 1 is named", problem)
    add("ViewRequest", "Seat 1's view", {"state": s0, "seat": 1})
    _, view = _post(c, "/v1/view", {"state": s0, "seat": 1})
    add("ViewResponse", "Seat 0's hand and every deck hidden", view)
    _, score = _post(c, "/v1/score", {"state": s0})
    add("ScoreResponse", "Standings of an empty city", score)
    log = [first, resolved["pending"]["options"][0]]
    add("ReplayRequest", "A set-up and a decision log", {"setup": setup, "decisions": log})
    _, replayed = _post(c, "/v1/replay", {"setup": setup, "decisions": log})
    add("ReplayResponse", "Every decision was legal", replayed)
    disputed = [first, illegal]
    add(
        "ReplayDisputedRequest",
        "A log with an illegal second decision",
        {"setup": setup, "decisions": disputed},
    )
    _, outcome = _post(c, "/v1/replay", {"setup": setup, "decisions": disputed})
    assert outcome["ok"] is False, outcome
    add("ReplayDisputedResponse", "The first illegal decision and the state before it", outcome)
    return ex


def render(examples: dict[str, dict[str, Any]]) -> str:
    body = yaml.safe_dump(
        {"examples": examples}, sort_keys=False, default_flow_style=None, width=110
    )
    return "".join("  " + line + "\n" for line in body.splitlines())


def main() -> int:
    path = ROOT / "openapi.yaml"
    text = path.read_text("utf-8")
    head, sep, _ = text.partition(MARKER)
    if not sep:
        print("marker line not found in openapi.yaml", file=sys.stderr)
        return 2
    marker_line = MARKER + text.partition(MARKER)[2].split("\n", 1)[0] + "\n"
    new = head + marker_line + render(build())
    if "--check" in sys.argv:
        if new != text:
            print("openapi.yaml examples are stale: run scripts/openapi_examples.py")
            return 1
        return 0
    path.write_text(new, "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
