"""A client generated from openapi.yaml by openapi-python-client (with
examples/openapi-python-client.yaml) without a warning, used against a live gunicorn: a complete
game of each game, an illegal move read back as a typed problem, and a bot's suggestion."""

from __future__ import annotations

import importlib
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from http_support import ROOT

from benchmarks.local import gunicorn

PACKAGE = "referee_client"  # a name of the test's own: nothing else on sys.path has it


@pytest.fixture(scope="module")
def client_pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    out = tmp_path_factory.mktemp("generated")
    generator = Path(sys.executable).parent / "openapi-python-client"
    run = subprocess.run(
        [
            str(generator),
            "generate",
            "--path",
            str(ROOT / "openapi.yaml"),
            "--config",
            str(ROOT / "examples" / "openapi-python-client.yaml"),
            "--meta",
            "none",
            "--output-path",
            str(out / PACKAGE),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    said = run.stdout + run.stderr
    assert run.returncode == 0, said
    # the generator reports what it could not read as warnings (and skips it): none allowed
    assert "warning" not in said.lower() and "error" not in said.lower(), said
    assert (out / PACKAGE / "models").is_dir()
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with gunicorn({"WEB_CONCURRENCY": "1", "LOG_LEVEL": "WARNING"}) as url:
        yield url


def _mod(name: str) -> Any:
    return importlib.import_module(f"{PACKAGE}.{name}")


def _play(client: Any, setup: Any, rnd: random.Random) -> tuple[Any, list[Any], int]:
    """Play a whole game through the typed client, each decision a seeded choice among the
    listed options; (final state, decisions, events)."""
    models = _mod("models")
    new_game = _mod("api.game.new_game")
    legal_moves = _mod("api.game.legal_moves")
    resolve = _mod("api.game.resolve")
    started = new_game.sync(client=client, body=setup)
    assert isinstance(started, models.NewGameResult), started
    state, events = started.state, 0
    log: list[Any] = []
    for _ in range(3000):
        body = models.StateRequest(state=models.StateInput.from_dict(state.to_dict()))
        moves = legal_moves.sync(client=client, body=body)
        assert isinstance(moves, (models.ArchitecturaLegalMoves, models.ForaDePrumoLegalMoves))
        if moves.game_over:
            return state, log, events
        option = rnd.choice(moves.options)
        decision = models.DecisionObject.from_dict(option.to_dict())
        result = resolve.sync(
            client=client,
            body=models.ResolveRequest(state=body.state, decisions=[decision]),
        )
        assert isinstance(
            result, (models.ArchitecturaResolveResult, models.ForaDePrumoResolveResult)
        ), result
        state = result.state
        events += len(result.events)
        log.append(option)
    pytest.fail("the game did not end in 3000 decisions")


def test_generated_client_plays_whole_games(client_pkg: ModuleType, base: str) -> None:
    models = _mod("models")
    client = client_pkg.Client(base_url=base, raise_on_unexpected_status=True)
    rnd = random.Random(11)

    state, log, events = _play(client, models.Setup(seats=2, seed=11), rnd)
    assert isinstance(state, models.ArchitecturaState)
    assert state.game_over and state.scores is not None and state.scores.winners
    # typed per-type decisions and events: every option read as its own type's model
    kinds = {type(d).__name__ for d in log}
    assert "ArchitecturaPlay" in kinds and len(log) > 20 and events > len(log)

    fdp = models.ForaDePrumoSetup.from_dict({"game": "fora-de-prumo", "seats": 2, "seed": 11})
    state, log, _ = _play(client, fdp, rnd)
    assert isinstance(state, models.ForaDePrumoState) and state.game_over
    assert {"ForaDePrumoBuy", "ForaDePrumoLay"} <= {type(d).__name__ for d in log}


def test_generated_client_reads_an_illegal_move_as_a_typed_problem(
    client_pkg: ModuleType, base: str
) -> None:
    models = _mod("models")
    client = client_pkg.Client(base_url=base)
    state = _mod("api.game.new_game").sync(client=client, body=models.Setup(seats=2, seed=3)).state
    hand = state.seats[1].hand  # seat 1's card, played by seat 0 whose turn it is
    illegal = models.DecisionObject.from_dict(
        {"seat": 0, "type": "play", "card": hand[0], "cell": [1, 1]}
    )
    answer = _mod("api.game.resolve").sync_detailed(
        client=client,
        body=models.ResolveRequest(
            state=models.StateInput.from_dict(state.to_dict()), decisions=[illegal]
        ),
    )
    assert answer.status_code == 422
    problem = answer.parsed
    assert isinstance(problem, models.Problem)
    assert problem.code == models.ErrorCode.CARD_NOT_IN_HAND
    assert problem.index == 0 and problem.clause and problem.pointer.startswith("/decisions/0")
    assert problem.detail and problem.status == 422


def test_generated_client_asks_for_a_suggestion(client_pkg: ModuleType, base: str) -> None:
    models = _mod("models")
    client = client_pkg.Client(base_url=base)
    state = _mod("api.game.new_game").sync(client=client, body=models.Setup(seats=2, seed=5)).state
    body = models.StateRequest(state=models.StateInput.from_dict(state.to_dict()))
    options = [
        o.to_dict() for o in _mod("api.game.legal_moves").sync(client=client, body=body).options
    ]
    request = models.SuggestFromState(
        state=body.state, seat=0, budget=models.SuggestBudget(iterations=30), seed=1
    )
    answer = _mod("api.game.suggest").sync(client=client, body=request)
    assert isinstance(answer, models.ArchitecturaSuggestResult), answer
    assert answer.bot == models.BotName.ISMCTS and answer.settings.iterations == 30
    assert answer.decision.to_dict() in options
    assert [o.decision.to_dict() for o in answer.stats.options] == options


def sent_as(model: Any, value: Any) -> Any:
    """An answer's typed value as the input model a request takes (docs/clients.md)."""
    return model.from_dict(value.to_dict())


def test_generated_client_plays_from_views_as_docs_clients_shows(
    client_pkg: ModuleType, base: str
) -> None:
    """docs/clients.md's loop, typed: each pending seat's view, a suggestion from that view
    alone (its seat the view's own), the decision resolved with every seat's events."""
    models = _mod("models")
    client = client_pkg.Client(base_url=base, raise_on_unexpected_status=True)
    for setup in (
        models.Setup(seats=3, seed=2),
        models.ForaDePrumoSetup.from_dict({"game": "fora-de-prumo", "seats": 3, "seed": 2}),
    ):
        state = _mod("api.game.new_game").sync(client=client, body=setup).state
        relayed = [0, 0, 0]
        for _ in range(12):
            seat = state.pending.seat  # not state.turn.seat
            view = _mod("api.game.player_view").sync(
                client=client,
                body=models.ViewRequest(state=sent_as(models.StateInput, state), seat=seat),
            )
            answer = _mod("api.game.suggest").sync(
                client=client,
                body=models.SuggestFromView(
                    view=sent_as(models.ViewInput, view), bot=models.BotName.GREEDY
                ),
            )
            assert answer.decision.seat == seat
            result = _mod("api.game.resolve").sync(
                client=client,
                body=models.ResolveRequest(
                    state=sent_as(models.StateInput, state),
                    decisions=[sent_as(models.DecisionObject, answer.decision)],
                    events_for=[0, 1, 2],
                ),
            )
            for copy in result.events_by_seat:
                relayed[copy.seat] += len(copy.events)
            state = result.state
        assert all(relayed)
