"""Inference on hidden hands from the other seats' last play (issue 31 item 3): a screen.

Plain determinization deals every other seat's hand uniformly from its unseen cards. But a
seat that played X when it could have played Y probably does not hold a Y better than X. For
each other seat j, the last play it made (X, from the position before it) weighs each hand
S it may hold now: the hand it chose from was X and S (less the card it drew after, when it
drew), and it is taken to choose a card with probability softmax(beta * v(card)), v being
the model's win share for j once that card is played on its best cell.

This module measures the idea before it is built into the service: the match loop records
each seat's last play and the state before it (`record_play`, as `observe` of `play_game`),
and the bot reads from that state only what its own seat saw then (`game_view`). The
service would need those positions in the view (a contract change): not made, because the
evidence measured here is none (docs/model.md, "Tried, not kept"):

    python -m benchmarks.inference --games 20 --bot base:300it --betas -20,-5,5,10,20,40

plays `--bot` against itself and, at every decision, scores each other seat's true hand
under `hand_weights` against the uniform deal: the mean log-ratio (nats) is what the
weighting would teach the search about the hand it must guess; 0 is nothing.

    python -m benchmarks.inference --oracle --games 20 --alternatives 15 --runs 16

is the bound on any such weighting against 5928220's ISMCTS (`oracle_information`): its
own search is the likelihood, run `--runs` times on the hand each sampled play was made
from and on `--alternatives` other hands holding the card played (the kept cards drawn at
random), and the true hand is scored against them.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
from dataclasses import dataclass
from typing import Any

from ai.base import Action, Budget, Game, Start
from ai.model import model_for
from benchmarks.variants import ResampledBot, deal_hand, served

# seat -> (the state before its last play, that play): set by `record_play`
LAST_PLAY: dict[int, tuple[Game, Action]] = {}


def record_play(g: Game, seat: int, action: Action) -> None:
    """`play_game`'s `observe`: keep each seat's last play and the state it was made from."""
    if action[0] == "play":
        LAST_PLAY[seat] = (g.copy(), action)


def card_values(
    eng: Any, before: dict[str, Any], seat: int, rnd: random.Random
) -> dict[int, float]:
    """v(card) for each card `seat` may have held at `before` (a view of another seat): the
    model's win share for `seat` once the card is played on its best cell, in one world
    dealt from that view (each card swapped into the hand in turn). Cards with no legal
    play are left out."""
    model, feats = model_for(eng), eng.INFO.features
    assert model is not None and feats is not None
    world = eng.WorldSampler(before).sample(rnd)
    pool = world.hands[seat] + world.decks[seat]
    values: dict[int, float] = {}
    for card in set(pool):
        g = world.copy()
        rest = [c for c in pool if c != card]
        deal_hand(g, seat, [card, *rest[: len(world.hands[seat]) - 1]])
        best = None
        for a in eng.legal_actions(g):
            if a[0] != "play" or a[1] != card:
                continue
            after = g.copy()
            eng.apply_action(after, a)
            share = model.shares(feats.of(after))[seat]
            best = share if best is None else max(best, share)
        if best is not None:
            values[card] = best
    return values


def hand_weights(
    pool: list[int], size: int, played: int, drew: bool, values: dict[int, float], beta: float
) -> tuple[list[tuple[int, ...]], list[float]]:
    """Every hand of `size` cards from `pool`, and its likelihood of the play of `played`:
    the chance that a seat choosing by softmax(beta * v) played it from the hand it held."""

    def chose(held: tuple[int, ...]) -> float:
        if played not in values:
            return 1.0
        top = beta * values[played]
        total = sum(math.exp(beta * values[c] - top) for c in held if c in values)
        return 1.0 / (1.0 + total)

    hands = list(itertools.combinations(sorted(pool), size))
    weights = []
    for hand in hands:
        if drew and hand:  # one of them came after the play
            held = [chose(tuple(c for c in hand if c != d)) for d in hand]
            weights.append(sum(held) / len(held))
        else:
            weights.append(chose(hand))
    return hands, weights


class InferenceSampler:
    """A WorldSampler whose other seats' hands are drawn by `hand_weights` (decks shuffled)."""

    def __init__(self, inner: Any, dealt: dict[int, tuple[list[tuple[int, ...]], list[float]]]):
        self.inner, self.base, self.viewer = inner, inner.base, inner.viewer
        self.dealt = {j: (hands, list(itertools.accumulate(w))) for j, (hands, w) in dealt.items()}

    def sample(self, rnd: random.Random) -> Game:
        g = self.inner.sample(rnd)
        for j, (hands, cum) in self.dealt.items():
            deal_hand(g, j, list(rnd.choices(hands, cum_weights=cum)[0]), rnd)
        return g


@dataclass(frozen=True)
class LastPlay:
    """What another seat's last play tells of the hand it holds now (`hand_weights`' args)."""

    seat: int
    pool: list[int]  # its unseen cards now
    size: int  # its hand's size now
    played: int
    drew: bool  # a card came to its hand after the play
    values: dict[int, float]  # `card_values` at the position before the play

    def weights(self, beta: float) -> tuple[list[tuple[int, ...]], list[float]]:
        return hand_weights(self.pool, self.size, self.played, self.drew, self.values, beta)


def last_plays(eng: Any, view: dict[str, Any], inner: Any, rnd: random.Random) -> list[LastPlay]:
    """Each other seat's last play (LAST_PLAY) as the viewer saw it then, for the seats with a
    hidden hand to weigh (`inner`: the view's world sampler)."""
    seat, out = view["view_of"], []
    for j, (g_before, action) in LAST_PLAY.items():
        size = view["seats"][j]["hand_count"]
        pool = sorted(inner.base.hands[j] + inner.base.decks[j])
        if j == seat or size == 0 or size >= len(pool):
            continue  # its own, or nothing hidden to weigh
        before = eng.game_view(g_before, seat)  # what this seat saw then, no more
        drew = size == before["seats"][j]["hand_count"]
        values = card_values(eng, before, j, rnd)
        out.append(LastPlay(j, pool, size, action[1], drew, values))
    return out


class InferenceBot(ResampledBot):
    """The served learned search (`inference_bot`), its worlds dealt by `InferenceSampler`
    from the other seats' last plays."""

    beta = 10.0

    def resample(self, start: Start, view: dict[str, Any], seed: int) -> Any:
        plays = last_plays(start.eng, view, start.sampler, random.Random(seed ^ 0x5EED))
        dealt = {p.seat: p.weights(self.beta) for p in plays}
        return InferenceSampler(start.sampler, dealt) if dealt else start.sampler


def inference_bot(budget: Budget, beta: float) -> InferenceBot:
    """`learned_search(budget)`'s settings, its worlds weighted with softmax(beta * v)."""
    bot = served(InferenceBot, budget, f"infer:{beta:g}")
    bot.beta = beta
    return bot


def hand_information(games: int, spec: str, betas: list[float]) -> dict[float, list[float]]:
    """For each beta, log(P(true hand) * number of hands) at every decision of `games`
    two-seat games of `spec` against itself, for the other seat's hand."""
    from ai.bots import parse_bot_spec, parse_budget
    from ai.tournament import play_game
    from benchmarks.local import baseline_bot
    from engine.games import engine

    eng = engine("architectura")
    gains: dict[float, list[float]] = {b: [] for b in betas}
    base = spec.startswith("base:")  # 5928220's ISMCTS, as benchmarks.learned_strength plays it
    budget = parse_budget(spec.split(":", 1)[1]) if base else None
    bot = baseline_bot("5928220", budget) if budget is not None else parse_bot_spec(spec)[1]
    current: list[Game] = []

    class Probe:
        name = "probe"

        def choose(self, view: dict[str, Any], seed: int, catalog: Any = None) -> Any:
            g, inner = current[-1], eng.WorldSampler(view, catalog)  # before game_view resets it
            for play in last_plays(eng, view, inner, random.Random(seed)):
                truth = tuple(sorted(g.hands[play.seat]))
                for b in betas:
                    hands, w = play.weights(b)
                    gains[b].append(math.log(w[hands.index(truth)] / sum(w) * len(hands)))
            return bot.choose(view, seed, catalog)

    made = eng.game_view

    def game_view(g: Game, seat: int) -> dict[str, Any]:
        current[:] = [g]  # the true state, for the probe's score only
        return made(g, seat)

    eng.game_view = game_view  # type: ignore[method-assign]
    try:
        for deal in range(1, games + 1):
            LAST_PLAY.clear()
            play_game(deal, [Probe(), Probe()], game="architectura", observe=record_play)  # type: ignore[list-item]
    finally:
        eng.game_view = made  # type: ignore[method-assign]
    return gains


def oracle_information(games: int, alternatives: int, runs: int, per_game: int = 3) -> list[float]:
    """What a play tells of the cards kept with it under the playing seat's true policy:
    5928220's ISMCTS at 300 iterations plays `games` two-seat games against itself; for
    `per_game` * `games` of its plays (seeded sample), the chance it plays that card from a
    hand is estimated by `runs` searches of that seat's view with the hand dealt in, for the
    true hand and `alternatives` others (the card played and kept cards drawn at random);
    each play gives log(chance from the true hand / mean chance over all those hands)."""
    from ai.tournament import play_game
    from benchmarks.local import baseline_bot
    from engine.games import engine

    eng = engine("architectura")
    bot = baseline_bot("5928220", Budget(iterations=300))
    plays: list[tuple[Game, int, Action]] = []

    def observe(g: Game, seat: int, action: Action) -> None:
        if action[0] == "play" and len(g.hands[seat]) >= 2 and g.decks[seat]:
            plays.append((g.copy(), seat, action))

    for deal in range(1, games + 1):
        play_game(deal, [bot, bot], game="architectura", observe=observe)
    rnd = random.Random(7)

    def chance(g0: Game, j: int, hand: list[int], card: int, key: int) -> float:
        w = g0.copy()
        deal_hand(w, j, hand, random.Random(key))
        view = eng.game_view(w, j)
        hits: int = sum(
            bot.choose(view, 1000 + s, None).action[:2] == ("play", card) for s in range(runs)
        )
        return (hits + 0.5) / (runs + 1)  # add-half: no hand has chance 0

    gains = []
    for n, (g0, j, action) in enumerate(rnd.sample(plays, min(len(plays), per_game * games))):
        card = action[1]
        others = [c for c in g0.hands[j] + g0.decks[j] if c != card]
        held = [chance(g0, j, g0.hands[j], card, n)]
        for k in range(alternatives):
            kept = rnd.sample(others, len(g0.hands[j]) - 1)
            held.append(chance(g0, j, [card, *kept], card, n * 100 + k))
        gains.append(math.log(held[0] / statistics.mean(held)))
    return gains


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.inference")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--bot", default="base:300it")
    p.add_argument("--betas", default="-20,-5,5,10,20,40")
    p.add_argument("--oracle", action="store_true", help="the bound: oracle_information")
    p.add_argument("--alternatives", type=int, default=15)
    p.add_argument("--runs", type=int, default=16)
    args = p.parse_args(argv)
    if args.oracle:
        g = oracle_information(args.games, args.alternatives, args.runs)
        sd = statistics.stdev(g) / math.sqrt(len(g))
        print(
            f"oracle: {len(g)} plays, mean log-ratio {statistics.mean(g):+.4f} nats (se {sd:.4f})"
        )
        return 0
    gains = hand_information(args.games, args.bot, [float(b) for b in args.betas.split(",")])
    for beta, g in gains.items():
        sd = statistics.stdev(g) / math.sqrt(len(g))
        print(
            f"beta {beta:g}: {len(g)} hands, mean log-ratio {statistics.mean(g):+.4f} nats (se {sd:.4f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
