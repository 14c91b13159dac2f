"""Regenerate the examples at the end of openapi.yaml from real responses of the app.

    .venv/bin/python scripts/openapi_examples.py          # rewrite openapi.yaml
    .venv/bin/python scripts/openapi_examples.py --check  # exit 1 if they are stale

Everything below the marker line of openapi.yaml is replaced (the tests check the examples
are what the service answers today, so a rule or format change shows up there).
"""

from __future__ import annotations

import copy
import random
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
    fora_de_prumo(c, add)
    return ex


def fora_de_prumo(c: Any, add: Any) -> None:
    """The Fora de Prumo examples: the same endpoints, states told apart by `game`."""
    setup = {"game": "fora-de-prumo", "seats": 2, "seed": 7}
    add("ForaDePrumoNewGameRequest", "A 2-seat Fora de Prumo game (market of 5)", setup)
    _, new = _post(c, "/v1/games", setup)
    add("ForaDePrumoNewGameResponse", "The new game (seat 0 to buy)", new)
    s0 = new["state"]
    add("ForaDePrumoStateRequest", "A Fora de Prumo state", {"state": s0})
    _, moves = _post(c, "/v1/legal-moves", {"state": s0})
    add("ForaDePrumoLegalMovesResponse", "Seat 0's buy step (F-3.1)", moves)
    buy = moves["options"][0]
    _, bought = _post(c, "/v1/resolve", {"state": s0, "decisions": [buy]})
    lay = next(o for o in bought["pending"]["options"] if "x" in o)  # a space at the origin
    turn = [buy, lay]
    add(
        "ForaDePrumoResolveRequest",
        "Buy a market card, then lay a space",
        {"state": s0, "decisions": turn},
    )
    _, resolved = _post(c, "/v1/resolve", {"state": s0, "decisions": turn})
    add("ForaDePrumoResolveResponse", "The new state and its events", resolved)
    twice = [buy, {**buy, "card": s0["market"][1]}]
    add(
        "ForaDePrumoResolveIllegalRequest",
        "Buying twice in one turn",
        {"state": s0, "decisions": twice},
    )
    status, problem = _post(c, "/v1/resolve", {"state": s0, "decisions": twice})
    assert status == 422, problem
    add("ForaDePrumoResolveIllegalProblem", "Nothing is applied; index 1 is named (F-R7)", problem)
    forged = copy.deepcopy(s0)
    forged["seats"][1]["hand"].append(forged["market"][0])
    add("ForaDePrumoValidateRequest", "A forged state: one card in two places", {"state": forged})
    _, report = _post(c, "/v1/validate", {"state": forged})
    add("ForaDePrumoValidateResponse", "Every problem, with its clause and pointer", report)
    s1 = resolved["state"]
    add("ForaDePrumoViewRequest", "Seat 1's view", {"state": s1, "seat": 1})
    _, view = _post(c, "/v1/view", {"state": s1, "seat": 1})
    add("ForaDePrumoViewResponse", "Seat 0's hand, the deck and the generator hidden", view)
    log = [*turn, *resolved["pending"]["options"][-1:]]
    add(
        "ForaDePrumoReplayRequest",
        "A set-up and a decision log",
        {"setup": setup, "decisions": log},
    )
    _, replayed = _post(c, "/v1/replay", {"setup": setup, "decisions": log})
    add("ForaDePrumoReplayResponse", "Every decision was legal", replayed)
    final = s0
    rnd = random.Random(7)
    while not final["game_over"]:  # a whole game, each decision a listed option
        option = rnd.choice(final["pending"]["options"])
        final = _post(c, "/v1/resolve", {"state": final, "decisions": [option]})[1]["state"]
    add("ForaDePrumoScoreRequest", "A finished game", {"state": final})
    add(
        "ForaDePrumoRecordRequest",
        "A finished game's last state alone: its history is written down",
        {"state": final},
    )
    _, written = _post(c, "/v1/record", {"state": final})
    add("ForaDePrumoRecordResponse", "The set-up, every decision in notation, the result", written)
    _, score = _post(c, "/v1/score", {"state": final})
    add(
        "ForaDePrumoScoreResponse",
        "Each component per seat (F-8.5 to F-8.10), the tie-break",
        score,
    )
    add(
        "ForaDePrumoSuggestRequest",
        "Seat 0's first decision, 50 ISMCTS iterations",
        {"state": s0, "seat": 0, "budget": {"iterations": 50}, "seed": 1},
    )


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
