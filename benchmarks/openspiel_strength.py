"""The served search against an independent ISMCTS: OpenSpiel's (issue 31), in one run:

    .venv/bin/pip install -e ".[openspiel]"   # OpenSpiel 2.0.2: an optional extra
    python -m benchmarks.openspiel_strength --game architectura --a model:300it --iterations 300

OpenSpiel's Python `ISMCTSBot` (open_spiel/python/algorithms/ismcts.py, random-rollout
evaluator, UCT, the most visited action) searches our engines through `SpielState`, the
state interface it reads: the players' decisions as action ids, whose decision it is, each
player's information state (the canonical JSON of that seat's view), and a world resampled
from the decider's view by the game's own sampler, as our bots do. So it sees only what the
seat may see, and its search is OpenSpiel's line for line; only the engine under it is ours.

`--a` is a bot spec (as `benchmarks.learned_strength`'s); the other seats are OpenSpiel's bot
with `--iterations` simulations and UCT c `--c` (0.7 by default: our playout search's, for
the same 0..1 win-share returns). Two seats: each deal twice with the seats swapped. A's win
share with its 95 % Wilson interval, one JSON line (`--out` appends it).
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
from types import SimpleNamespace
from typing import Any

import benchmarks.learned_strength as ls
from ai.base import Action, Bot, Game, SearchResult, Start
from engine.canonical import digest
from engine.games import GameModule


class ActionIds:
    """Our actions (tuples) as the integers OpenSpiel's search keys its children by: each
    action gets the next id the first time it is seen, the same id in every world."""

    def __init__(self) -> None:
        self.ids: dict[Action, int] = {}
        self.actions: list[Action] = []

    def id(self, a: Action) -> int:
        i = self.ids.get(a)
        if i is None:
            i = self.ids[a] = len(self.actions)
            self.actions.append(a)
        return i


class SpielState:
    """A world of one of our games as OpenSpiel's ISMCTS reads a `pyspiel.State`."""

    def __init__(self, eng: GameModule, g: Game, ids: ActionIds, game: Any = None) -> None:
        self.eng, self.g, self.ids, self.game = eng, g, ids, game

    def get_game(self) -> Any:
        return self.game

    def current_player(self) -> int:
        p = self.eng.current_player(self.g)
        return -4 if p is None else p  # pyspiel.PlayerId.TERMINAL

    def is_terminal(self) -> bool:
        return bool(self.g.over)

    def is_chance_node(self) -> bool:
        return False  # chance is the world's own seeded generator

    def returns(self) -> list[float]:
        return list(self.eng.returns(self.g))

    def legal_actions(self, player: int | None = None) -> list[int]:
        return [self.ids.id(a) for a in self.eng.legal_actions(self.g)]

    def apply_action(self, i: int) -> None:
        self.eng.apply_action(self.g, self.ids.actions[int(i)])

    def clone(self) -> SpielState:
        return SpielState(self.eng, self.g.copy(), self.ids, self.game)

    def information_state_string(self, player: int | None = None) -> str:
        seat = self.current_player() if player is None else player
        return digest(self.eng.game_view(self.g, seat))


class OpenSpielIsmcts(Bot):
    """OpenSpiel's ISMCTSBot with `iterations` simulations and UCT `c` (module doc)."""

    name = "openspiel-ismcts"

    def __init__(self, iterations: int, c: float = 0.7) -> None:
        self.iterations, self.c = iterations, c

    def pick(self, start: Start, seed: int, deadline: float | None) -> SearchResult:
        # OpenSpiel is an optional install (module doc): imported here, typed as Any
        np = importlib.import_module("numpy")
        pyspiel = importlib.import_module("pyspiel")
        ismcts = importlib.import_module("open_spiel.python.algorithms.ismcts")
        mcts = importlib.import_module("open_spiel.python.algorithms.mcts")

        if len(start.opts) == 1:
            return SearchResult(start.opts[0], 0, start.ms(), [])
        game_type = SimpleNamespace(
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        )
        game = SimpleNamespace(get_type=lambda: game_type)
        rnd = random.Random(seed)
        ids = ActionIds()
        np_rnd = np.random.RandomState(seed % 2**32)
        bot = ismcts.ISMCTSBot(
            game=game,
            evaluator=mcts.RandomRolloutEvaluator(1, np_rnd),
            uct_c=self.c,
            max_simulations=self.iterations,
            random_state=np_rnd,
        )

        def resample(state: Any, player: int) -> SpielState:
            return SpielState(start.eng, start.sampler.sample(rnd), ids, game)

        bot.set_resampler(resample)
        policy = bot.run_search(SpielState(start.eng, start.sampler.sample(rnd), ids, game))
        best, _ = max(policy, key=lambda ap: ap[1])
        return SearchResult(ids.actions[best], self.iterations, start.ms(), [])


def main(argv: list[str]) -> int:
    """OpenSpiel's own options; the rest are `benchmarks.learned_strength`'s, OpenSpiel's bot
    its `--b`."""
    p = argparse.ArgumentParser(prog="python -m benchmarks.openspiel_strength")
    p.add_argument("--iterations", type=int, default=300)
    p.add_argument("--c", type=float, default=0.7)
    args, rest = p.parse_known_args(argv)
    spec = f"openspiel:{args.iterations}it:c={args.c}"
    ls._BOTS[spec] = OpenSpielIsmcts(args.iterations, args.c)
    return ls.main([*rest, "--b", spec])


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
