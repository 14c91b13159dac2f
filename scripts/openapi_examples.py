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

try:
    import yaml
except ImportError:  # PyYAML comes with the test tools, not with the service (scripts/serve.sh)
    sys.exit("openapi_examples.py needs the test tools: run 'bash scripts/setup.sh --dev' first")

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


class Examples:
    """The examples, in the order they are written, from the app's own answers."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.all: dict[str, dict[str, Any]] = {}

    def add(self, name: str, summary: str, value: Any) -> None:
        self.all[name] = {"summary": summary, "value": copy.deepcopy(value)}

    def ask(
        self, name: str, path: str, body: Any, asked: str, answered: str, status: int = 200
    ) -> Any:
        """`<name>Request` (`body`, posted to `path`) and the answer: `<name>Response`, or
        `<name>Problem` when `status` is not 200."""
        self.add(f"{name}Request", asked, body)
        got, answer = _post(self.client, path, body)
        assert got == status, answer
        self.add(f"{name}{'Response' if status == 200 else 'Problem'}", answered, answer)
        return answer


def build() -> dict[str, dict[str, Any]]:
    app = create_app({"LOG_LEVEL": "WARNING"})
    c = app.test_client()
    ex = Examples(c)
    setup = {"seats": 2, "seed": 7}
    new = ex.ask(
        "NewGame", "/v1/games", setup, "A basic 2-seat game", "The new game (seat 0 to play)"
    )
    s0 = new["state"]
    ex.add("StateRequest", "A state", {"state": s0})
    _, moves = _post(c, "/v1/legal-moves", {"state": s0})
    ex.add("LegalMovesResponse", "Seat 0's options on the first turn", moves)
    first = moves["options"][0]
    played = {"state": s0, "decisions": [first]}
    resolved = ex.ask(
        "Resolve", "/v1/resolve", played, "Play the first option", "The new state and its events"
    )
    s1 = resolved["state"]
    seat1_card = s1["seats"][1]["hand"][0]
    illegal = {"seat": 1, "type": "play", "card": seat1_card, "cell": [2, 5]}
    ex.ask(
        "ResolveIllegal",
        "/v1/resolve",
        {"state": s0, "decisions": [first, illegal]},
        "A batch whose second decision is illegal",
        "Nothing is applied; index 1 is named",
        422,
    )
    seat1 = {"state": s0, "seat": 1}
    ex.ask("View", "/v1/view", seat1, "Seat 1's view", "Seat 0's hand and every deck hidden")
    _, score = _post(c, "/v1/score", {"state": s0})
    ex.add("ScoreResponse", "Standings of an empty city", score)
    log = {"setup": setup, "decisions": [first, resolved["pending"]["options"][0]]}
    ex.ask("Replay", "/v1/replay", log, "A set-up and a decision log", "Every decision was legal")
    outcome = ex.ask(
        "ReplayDisputed",
        "/v1/replay",
        {"setup": setup, "decisions": [first, illegal]},
        "A log with an illegal second decision",
        "The first illegal decision and the state before it",
    )
    assert outcome["ok"] is False, outcome
    fora_de_prumo(ex)
    return ex.all


def fora_de_prumo(ex: Examples) -> None:
    """The Fora de Prumo examples: the same endpoints, states told apart by `game`."""
    c = ex.client
    setup = {"game": "fora-de-prumo", "seats": 2, "seed": 7}
    new = ex.ask(
        "ForaDePrumoNewGame",
        "/v1/games",
        setup,
        "A 2-seat Fora de Prumo game (market of 5)",
        "The new game (seat 0 to buy)",
    )
    s0 = new["state"]
    ex.add("ForaDePrumoStateRequest", "A Fora de Prumo state", {"state": s0})
    _, moves = _post(c, "/v1/legal-moves", {"state": s0})
    ex.add("ForaDePrumoLegalMovesResponse", "Seat 0's buy step (F-3.1)", moves)
    buy = moves["options"][0]
    _, bought = _post(c, "/v1/resolve", {"state": s0, "decisions": [buy]})
    lay = next(o for o in bought["pending"]["options"] if "x" in o)  # a space at the origin
    turn = [buy, lay]
    resolved = ex.ask(
        "ForaDePrumoResolve",
        "/v1/resolve",
        {"state": s0, "decisions": turn},
        "Buy a market card, then lay a space",
        "The new state and its events",
    )
    ex.ask(
        "ForaDePrumoResolveIllegal",
        "/v1/resolve",
        {"state": s0, "decisions": [buy, {**buy, "card": s0["market"][1]}]},
        "Buying twice in one turn",
        "Nothing is applied; index 1 is named (F-R7)",
        422,
    )
    forged = copy.deepcopy(s0)
    forged["seats"][1]["hand"].append(forged["market"][0])
    ex.ask(
        "ForaDePrumoValidate",
        "/v1/validate",
        {"state": forged},
        "A forged state: one card in two places",
        "Every problem, with its clause and pointer",
    )
    ex.ask(
        "ForaDePrumoView",
        "/v1/view",
        {"state": resolved["state"], "seat": 1},
        "Seat 1's view",
        "Seat 0's hand, the deck and the generator hidden",
    )
    ex.ask(
        "ForaDePrumoReplay",
        "/v1/replay",
        {"setup": setup, "decisions": [*turn, *resolved["pending"]["options"][-1:]]},
        "A set-up and a decision log",
        "Every decision was legal",
    )
    final = s0
    rnd = random.Random(7)
    while not final["game_over"]:  # a whole game, each decision a listed option
        option = rnd.choice(final["pending"]["options"])
        final = _post(c, "/v1/resolve", {"state": final, "decisions": [option]})[1]["state"]
    ex.add("ForaDePrumoScoreRequest", "A finished game", {"state": final})
    ex.ask(
        "ForaDePrumoRecord",
        "/v1/record",
        {"state": final},
        "A finished game's last state alone: its history is written down",
        "The set-up, every decision in notation, the result",
    )
    _, score = _post(c, "/v1/score", {"state": final})
    ex.add(
        "ForaDePrumoScoreResponse",
        "Each component per seat (F-8.5 to F-8.10), the tie-break",
        score,
    )
    ex.add(
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
