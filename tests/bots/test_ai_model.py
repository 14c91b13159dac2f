"""The learned evaluation (ai/model.py) and its training command (ai/train.py), on the games
and on Toy Match (tests/toygame/, registered here for this module only)."""

from __future__ import annotations

import copy
import json
import math
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import toygame

from ai.base import Budget
from ai.evaluators import RandomRollout, final_rewards
from ai.model import (
    FORMAT,
    Mix,
    Model,
    ModelError,
    ModelEvaluator,
    learned_search,
    model_for,
    model_ranking,
)
from ai.train import fit, main, positions, scores, selfplay
from benchmarks.model_lookup import PerLeaf
from benchmarks.variants import SteppedModel
from engine.games import engine
from engine.registry import register_game, unregister_game

# importing toygame registered it: the modules collected after this one see engine/'s games
unregister_game(toygame.GAME_ID)


@pytest.fixture(autouse=True, scope="module")
def _toy_match() -> Iterator[None]:
    register_game(toygame.INFO, toygame)
    yield
    unregister_game(toygame.GAME_ID)


def _midgame(game: str, seats: int = 2, steps: int = 12, seed: int = 3) -> Any:
    eng = engine(game)
    g = eng.new_game_internal({"game": game, "seats": seats, "seed": seed})
    rnd = random.Random(seed)
    for _ in range(steps):
        if g.over:
            break
        opts = eng.legal_actions(g)
        eng.apply_action(g, opts[rnd.randrange(len(opts))])
    return g


def test_shares_follow_the_utilities_and_sum_to_one() -> None:
    m = Model("toy-match", ("a", "b"), (1.0, -2.0))
    shares = m.shares([[1.0, 0.0], [0.0, 0.0], [0.0, 1.0]])
    assert abs(sum(shares) - 1) < 1e-12
    assert shares[0] > shares[1] > shares[2]
    assert math.isclose(shares[0] / shares[1], math.e)
    # large utilities do not overflow
    assert m.shares([[1000.0, 0.0], [0.0, 0.0]])[0] == pytest.approx(1.0)


def test_a_model_file_round_trips_and_its_version_follows_its_weights(tmp_path: Path) -> None:
    eng = engine("toy-match")
    names = eng.INFO.features.names
    m = Model("toy-match", names, tuple(float(i) for i in range(len(names))), 2, 0.3, {"games": 3})
    m.save(tmp_path / "m.json")
    back = Model.from_json(json.loads((tmp_path / "m.json").read_text()), eng)
    assert back == m and back.version == m.version and back.trained == {"games": 3}
    assert back.version.startswith("toy-match/g2/") and back.exploration == 0.3
    other = Model("toy-match", names, (*m.weights[:-1], 9.5), 2, 0.3)
    assert other.version != m.version
    # the search's constant is part of the answer, hence of the version
    assert Model("toy-match", names, m.weights, 2, 0.4).version != m.version
    # so is a time budget's root prior, written only when set (a model without one keeps its
    # version: Architectura's file has none)
    primed = Model("toy-match", names, m.weights, 2, 0.3, {}, None, 1.0)
    primed.save(tmp_path / "p.json")
    doc = json.loads((tmp_path / "p.json").read_text())
    assert doc["search"] == {"exploration": 0.3, "prior": 1.0} and "prior" not in m.to_json()
    assert Model.from_json(doc, eng) == primed and primed.version != m.version


MIX = {"above": 640, "weight": 0.5, "exploration": 0.3}


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda d: d.update(format="x/1"), "not a " + FORMAT),
        (lambda d: d.update(game="architectura"), "not of 'toy-match'"),
        (lambda d: d["features"].append("extra"), "features are not the game's"),
        (lambda d: d["weights"].pop(), "one weight per feature"),
        (lambda d: d["weights"].__setitem__(0, float("nan")), "finite"),
        (lambda d: d["weights"].__setitem__(0, "1"), "finite"),
        (lambda d: d["search"].update(exploration=0), "exploration is a number above 0"),
        (lambda d: d.update(search=[1]), "exploration is a number above 0"),
        (lambda d: d["search"].update(mix={"above": 640}), "mix is"),
        (lambda d: d["search"].update(mix=MIX | {"above": -1}), "an iteration count"),
        (lambda d: d["search"].update(mix=MIX | {"above": True}), "an iteration count"),
        (lambda d: d["search"].update(mix=MIX | {"weight": 1.5}), "weight is in 0..1"),
        (lambda d: d["search"].update(mix=MIX | {"exploration": 0}), "exploration above 0"),
        (lambda d: d["search"].update(mix=MIX | {"time": 1}), "time is true or false"),
        (lambda d: d["search"].update(mix=MIX | {"times": True}), "mix is"),
        (lambda d: d["search"].update(prior=0), "prior is a widening constant"),
        (lambda d: d["search"].update(prior=True), "prior is a widening constant"),
        (lambda d: d["search"].update(prior="1"), "prior is a widening constant"),
    ],
)
def test_a_model_that_cannot_serve_its_game_is_refused(change: Any, says: str) -> None:
    eng = engine("toy-match")
    doc = Model("toy-match", eng.INFO.features.names, (0.5,) * 5).to_json()
    bad = copy.deepcopy(doc)
    change(bad)
    with pytest.raises(ModelError, match=says):
        Model.from_json(bad, eng)


def test_a_mix_serves_only_iteration_budgets_above_its_threshold(tmp_path: Path) -> None:
    """`search.mix` round-trips, changes the version (a cache key must not answer a mixed
    search from a plain one's entry), and applies above its `above` only: a time budget and
    smaller budgets keep the model alone and its own constant."""
    eng = engine("toy-match")
    names = eng.INFO.features.names
    plain = Model("toy-match", names, (0.5,) * len(names), 2, 0.15)
    mixed = Model("toy-match", names, plain.weights, 2, 0.15, {}, Mix(640, 0.5, 0.3))
    mixed.save(tmp_path / "m.json")
    doc = json.loads((tmp_path / "m.json").read_text())
    assert doc["search"] == {"exploration": 0.15, "mix": MIX}
    assert Model.from_json(doc, eng) == mixed and mixed.version != plain.version
    assert [mixed.search_for(n) for n in (None, 10, 640, 641, 2560)] == [
        (0.15, 1.0),
        (0.15, 1.0),
        (0.15, 1.0),
        (0.3, 0.5),
        (0.3, 0.5),
    ]
    assert plain.search_for(10**6) == (0.15, 1.0)


def test_a_mix_for_time_budgets_serves_them_too_and_a_review_never_mixes(tmp_path: Path) -> None:
    """`search.mix.time`: a time budget's search (iterations None) is mixed too, iteration
    budgets as before; the flag round-trips and changes the version, and a mix without it
    writes no `time` (its version is the one it had). A review's evaluator (`alone`) judges by
    the model alone under any mix, so its judgement keeps smooth values (docs/review.md)."""
    eng = engine("toy-match")
    names = eng.INFO.features.names
    weights = (0.5,) * len(names)
    timed = Model("toy-match", names, weights, 2, 0.15, {}, Mix(640, 0.5, 0.3, True))
    untimed = Model("toy-match", names, weights, 2, 0.15, {}, Mix(640, 0.5, 0.3))
    timed.save(tmp_path / "m.json")
    doc = json.loads((tmp_path / "m.json").read_text())
    assert doc["search"]["mix"] == MIX | {"time": True} and "time" not in untimed.to_json()
    assert Model.from_json(doc, eng) == timed and timed.version != untimed.version
    assert [timed.search_for(n) for n in (None, 640, 641)] == [(0.3, 0.5), (0.15, 1.0), (0.3, 0.5)]
    g = _midgame("toy-match")
    judged = timed.shares(eng.INFO.features.of(g))
    rnd = random.Random(4)
    assert ModelEvaluator(timed, None).evaluate(eng, g.copy(), random.Random(4), math.inf) != judged
    alone = ModelEvaluator(timed, 10**4, alone=True)
    assert alone.for_search(eng) == alone
    assert alone.evaluate(eng, g.copy(), rnd, math.inf) == judged
    assert rnd.random() == random.Random(4).random()  # no playout drawn
    from ai.review import win_evaluator

    assert win_evaluator(engine("fora-de-prumo"), "model") == ModelEvaluator(alone=True)


@pytest.mark.parametrize("game", ["architectura", "fora-de-prumo", "toy-match"])
def test_a_mixed_leaf_is_the_models_shares_and_a_playouts_in_their_weights(game: str) -> None:
    """Above the mix's threshold a leaf is weight * the model's shares + (1 - weight) * the win
    shares of one random playout of the same world, drawn from the search's generator; at the
    threshold, the model alone, and the generator untouched."""
    eng = engine(game)
    model = model_for(eng)
    assert model is not None
    model = Model(model.game, model.names, model.weights, 1, 0.2, {}, Mix(100, 0.25, 0.6))
    g = _midgame(game)
    judged = model.shares(eng.INFO.features.of(g))
    played = g.copy()
    RandomRollout(0.0).evaluate(eng, played, random.Random(4), math.inf)
    result = final_rewards(eng, played, 0.0)
    want = [0.25 * m + 0.75 * p for m, p in zip(judged, result, strict=True)]
    got = ModelEvaluator(model, 101).evaluate(eng, g.copy(), random.Random(4), math.inf)
    assert got == want and got != judged
    rnd = random.Random(4)
    assert ModelEvaluator(model, 100).evaluate(eng, g.copy(), rnd, math.inf) == judged
    assert rnd.random() == random.Random(4).random()


def test_the_served_levels_search_as_their_models_say() -> None:
    """`hard` (160) keeps each game's model alone and its constant; `master` (2,560) is above
    the served models' mix: its constant is the mix's and its leaves are mixed. `expert`
    (640) is mixed in Fora de Prumo (its mix starts above 320: there the model alone stopped
    gaining above `hard`) and not in Architectura (above 640: there the mix at 640 made the
    step to `master` too small; docs/model.md)."""
    from ai.bots import LEVELS

    mixed = {
        "architectura": {"hard": False, "expert": False, "master": True},
        "fora-de-prumo": {"hard": False, "expert": True, "master": True},
    }
    for game, levels in mixed.items():
        eng = engine(game)
        model = model_for(eng)
        assert model is not None and model.mix is not None
        for level, is_mixed in levels.items():
            iterations = LEVELS[level].iterations
            bot = learned_search(LEVELS[level])
            assert isinstance(bot.evaluator, ModelEvaluator)
            assert bot.evaluator.iterations == iterations
            c = bot.exploration(eng) if callable(bot.exploration) else bot.exploration
            assert (c, model.search_for(iterations)[1]) == (
                (model.mix.exploration, model.mix.weight) if is_mixed else (model.exploration, 1.0)
            ), (game, level)


@pytest.mark.parametrize("game", ["architectura", "fora-de-prumo", "toy-match"])
def test_the_evaluator_gives_the_models_shares(game: str) -> None:
    eng = engine(game)
    model = model_for(eng)
    assert model is not None
    g = _midgame(game)
    expected = model.shares(eng.INFO.features.of(g))
    # the largest budget the model alone judges (a mix starts above it)
    alone = model.mix.above if model.mix is not None else 640
    for ev in (ModelEvaluator(iterations=alone), ModelEvaluator(alone=True)):
        assert ev.evaluate(eng, g.copy(), random.Random(1), math.inf) == expected


def test_a_finished_game_is_scored_by_its_result_and_a_passed_deadline_stops() -> None:
    eng = engine("architectura")
    g = _midgame("architectura", steps=500)
    assert g.over
    shares = ModelEvaluator().evaluate(eng, g, random.Random(1), math.inf)
    assert shares == final_rewards(eng, g, 0.0) and sum(shares or []) == pytest.approx(1)


def test_a_game_without_a_model_is_played_out_at_random(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a search without a model does (RandomRollout), deadline included."""
    eng = engine("architectura")
    monkeypatch.setattr("ai.model.model_for", lambda eng: None)
    ev, plain = ModelEvaluator(), RandomRollout()
    assert ev.evaluate(eng, _midgame("architectura"), random.Random(1), 0.0) is None
    out = ev.evaluate(eng, _midgame("architectura"), random.Random(4), math.inf)
    assert out == plain.evaluate(eng, _midgame("architectura"), random.Random(4), math.inf)
    assert ev.for_search(eng) == plain  # a search binds the playouts at its start


@pytest.mark.parametrize("game", ["architectura", "fora-de-prumo"])
def test_a_search_looks_its_model_up_once_and_answers_as_a_lookup_per_leaf(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ModelEvaluator.for_search`: the model file is found once a search (for UCB's constant
    and the leaves), not at each of its 60 leaves, and the search answers exactly as one that
    looks it up at every leaf (an evaluator without `for_search`)."""
    eng = engine(game)
    g = _midgame(game)
    view = eng.game_view(g, eng.current_player(g))

    bound = learned_search(Budget(iterations=60))
    per_leaf = learned_search(Budget(iterations=60))
    per_leaf.evaluator = PerLeaf(per_leaf.evaluator)
    expected = per_leaf.choose(view, 7)
    real, calls = model_for, []

    def counted(eng: Any) -> Any:
        calls.append(eng.INFO.id)
        return real(eng)

    monkeypatch.setattr("ai.model.model_for", counted)
    got = bound.choose(view, 7)
    assert (got.action, got.iterations, got.options) == (
        expected.action,
        expected.iterations,
        expected.options,
    )
    assert got.iterations == 60 and len(calls) == 2  # UCB's constant, then the leaves'


@pytest.mark.parametrize("game", ["architectura", "fora-de-prumo"])
def test_a_seats_features_read_its_own_hand_and_no_other(game: str) -> None:
    """The hand features: a seat's row changes when a card of its deck comes into its hand
    in place of another (what it alone sees), and no other seat's row does."""
    eng = engine(game)
    g = _midgame(game, seats=3, steps=9)
    names = eng.INFO.features.names
    hand_cols = [i for i, n in enumerate(names) if n.startswith("hand_")]
    assert hand_cols, f"{game} names no hand features"
    before = eng.INFO.features.of(g)
    seat = 1
    unseen = len(g.decks[seat]) if game == "architectura" else len(g.deck)
    changed = False
    for k in range(len(g.hands[seat])):
        for j in range(unseen):
            trial = g.copy()
            pool_t = trial.decks[seat] if game == "architectura" else trial.deck
            trial.hands[seat][k], pool_t[j] = pool_t[j], trial.hands[seat][k]
            after = eng.INFO.features.of(trial)
            assert [after[t] for t in (0, 2)] == [before[t] for t in (0, 2)]
            changed = changed or any(after[seat][i] != before[seat][i] for i in hand_cols)
    assert changed, "no exchange of a hand card with an unseen one changed the seat's features"


def test_the_fit_learns_what_decides_the_toy_game_and_beats_the_even_split() -> None:
    """Toy Match: an empty hand wins (TM-6.1), so once half the deck is drawn a bigger hand
    means a smaller share; on held-out games the model's log-loss beats an even split's."""
    games = selfplay("toy-match", "greedy", 120, [2, 3], 1, 1, None, False)
    train = [g for g in games if g["deal"] % 5]
    held = [g for g in games if not g["deal"] % 5]
    w = fit(train)
    names = engine("toy-match").INFO.features.names
    for progress in (0.5, 0.75, 1.0):
        assert w[names.index("hand")] + progress * w[names.index("hand*progress")] < 0
    s = scores(held, w)
    assert s["model"]["log_loss"] < s["even"]["log_loss"]
    assert s["positions"] == sum(len(positions(g)[0]) for g in held)
    assert sum(c["count"] for c in s["calibration"]) == sum(
        len(positions(g)[0]) * g["seats"] for g in held
    )


def test_training_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    """The same command twice (the second naming the default seat counts) writes the same
    model, byte for byte in its weights and version."""
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    common = ["--game", "toy-match", "--games", "30", "--bot", "greedy", "--quiet"]
    assert main([*common, "--processes", "1", "--out", str(a)]) == 0
    assert main([*common, "--processes", "1", "--out", str(b), "--seats", "2,2,3,4"]) == 0
    doc_a, doc_b = json.loads(a.read_text()), json.loads(b.read_text())
    assert doc_a["weights"] == doc_b["weights"] and doc_a["version"] == doc_b["version"]
    assert doc_a["trained"]["held_out"]["model"]["log_loss"] > 0


def test_training_keeps_the_mix_it_is_given(tmp_path: Path, capsys: Any) -> None:
    """`--mix ABOVE:WEIGHT:C` (and `--prior C`) is written into the model's search settings;
    a malformed one is refused before any game is played."""
    out = tmp_path / "m.json"
    common = ["--game", "toy-match", "--games", "10", "--bot", "greedy", "--quiet"]
    mixed = ["--out", str(out), "--mix", "640:0.5:0.3", "--prior", "1.5"]
    assert main([*common, "--processes", "1", *mixed]) == 0
    assert json.loads(out.read_text())["search"]["mix"] == MIX
    assert json.loads(out.read_text())["search"]["prior"] == 1.5
    for bad in ("0", "-1", "x", "12"):
        with pytest.raises(SystemExit):
            main([*common, "--out", str(tmp_path / "n.json"), "--prior", bad])
        assert "--prior C" in capsys.readouterr().err
    timed = tmp_path / "t.json"
    assert (
        main([*common, "--processes", "1", "--out", str(timed), "--mix", "640:0.5:0.3:time"]) == 0
    )
    assert json.loads(timed.read_text())["search"]["mix"] == MIX | {"time": True}
    for bad in ("640:0.5", "x:0.5:0.3", "640:2:0.3", "640:0.5:0.3:timed"):
        with pytest.raises(SystemExit):
            main([*common, "--out", str(tmp_path / "n.json"), "--mix", bad])
        assert "--mix ABOVE:WEIGHT:C[:time]" in capsys.readouterr().err
    assert not (tmp_path / "n.json").exists()


def test_the_served_search_takes_each_games_constant(monkeypatch: pytest.MonkeyPatch) -> None:
    """learned_search reads UCB's c from the game's model, and the playouts' for a game
    without one."""
    from ai.model import PLAYOUT_EXPLORATION, exploration_of, learned_search

    for game in ("architectura", "fora-de-prumo"):
        eng = engine(game)
        model = model_for(eng)
        assert model is not None and exploration_of(eng) == model.exploration
    bot = learned_search(Budget(iterations=3))
    eng = engine("fora-de-prumo")
    g = _midgame("fora-de-prumo")
    bot.choose(eng.game_view(g, eng.current_player(g)), 1)
    assert bot.c == exploration_of(eng) != PLAYOUT_EXPLORATION
    monkeypatch.setattr("ai.model.model_for", lambda eng: None)
    assert exploration_of(engine("architectura")) == PLAYOUT_EXPLORATION


def test_the_service_answers_with_the_model_and_without_numpy() -> None:
    """The training stack is an extra: a process where numpy cannot be imported still loads
    every game's model and answers a suggestion judged by it."""
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "from app import create_app\n"
        "c = create_app({'TESTING': True}).test_client()\n"
        "for game in ('architectura', 'fora-de-prumo'):\n"
        "    s = c.post('/v1/games', json={'game': game, 'seats': 2, 'seed': 1}).get_json()\n"
        "    st = s['state']\n"
        "    r = c.post('/v1/suggest', json={'state': st, 'seat': st['pending']['seat'],"
        " 'level': 'easy'})\n"
        "    assert r.status_code == 200, r.get_json()\n"
        "from ai.model import model_for\nfrom engine.games import engine\n"
        "assert all(model_for(engine(g)) for g in ('architectura', 'fora-de-prumo'))\n"
        "assert 'numpy' not in {m for m in sys.modules if sys.modules[m] is not None}\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "ok", out.stderr[-2000:]


@pytest.mark.parametrize("game", ["architectura", "fora-de-prumo", "toy-match"])
def test_the_tried_variants_step_then_judge_and_rank_by_the_model(game: str) -> None:
    """benchmarks/variants.py (measured, not kept): `SteppedModel` is the model after random
    steps; `model_ranking` orders the root's options by the model's share one ply later."""
    eng = engine(game)
    model = model_for(eng)
    assert model is not None
    g = _midgame(game)
    # with steps: the same as stepping the same random stream by hand, then the model
    walked, rnd = g.copy(), random.Random(5)
    for _ in range(3):
        if not walked.over:
            opts = eng.legal_actions(walked)
            eng.apply_action(walked, opts[rnd.randrange(len(opts))])
    want = (
        final_rewards(eng, walked, 0.0)
        if walked.over
        else model.shares(eng.INFO.features.of(walked))
    )
    assert SteppedModel(3).evaluate(eng, g.copy(), random.Random(5), math.inf) == want
    seat, opts = eng.current_player(g), eng.legal_actions(g)
    ranked = model_ranking(eng, g, opts, seat, random.Random(2))
    assert sorted(ranked) == sorted(opts)

    def share(a: Any) -> float:
        after = g.copy()
        eng.apply_action(after, a)
        if after.over:
            return final_rewards(eng, after, 0.0)[seat]
        return model.shares(eng.INFO.features.of(after))[seat]

    shares = [share(a) for a in ranked]
    assert shares == sorted(shares, reverse=True) and shares[0] > shares[-1]


@pytest.fixture
def model_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Architectura's model served from a copy in `tmp_path`, with nothing read before."""
    import ai.model as aim

    served = aim.model_path(engine("architectura"))
    assert served is not None
    copy_ = tmp_path / "model.json"
    copy_.write_bytes(served.read_bytes())
    real = aim.model_path
    monkeypatch.setattr(
        aim, "model_path", lambda eng: copy_ if eng.INFO.id == "architectura" else real(eng)
    )
    monkeypatch.setattr(aim, "_LAST_GOOD", {})
    aim._read.cache_clear()
    yield copy_
    aim._read.cache_clear()


def _suggest(client: Any, bot: str = "ismcts") -> Any:
    state = client.post("/v1/games", json={"seats": 2, "seed": 5}).get_json()["state"]
    body = {"state": state, "seat": state["pending"]["seat"], "bot": bot, "seed": 1}
    return client.post("/v1/suggest", json={**body, "budget": {"iterations": 30}})


@pytest.mark.parametrize(
    "damage",
    [
        lambda p: p.write_text(""),  # truncated to nothing, as a copy just begun
        lambda p: p.write_text(p.read_text()[:500]),  # half written
        lambda p: p.write_bytes(b"\xff\xfe{"),  # not UTF-8
        lambda p: p.write_text(json.dumps({"format": FORMAT, "game": "fora-de-prumo"})),
        # a weight too large for a double (isfinite raised OverflowError: review of 2026-11-30)
        lambda p: p.write_text(
            re.sub(r'"weights": \[\s*[^,\]]+', '"weights": [1' + "0" * 400, p.read_text())
        ),
    ],
)
def test_a_damaged_model_file_leaves_the_last_good_one_served(
    model_file: Path, damage: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Audit of 2026-11-30: a model file half written (ai.train wrote it in place), empty or
    another game's made every /v1/suggest a 500, random bots included, while /readyz said
    ready. The last good version is now served, the trouble logged once; with none read
    before, 503 model_unavailable, and /readyz says so."""
    import os

    from app import create_app

    client = create_app({"TESTING": True}).test_client()
    good = _suggest(client)
    assert good.status_code == 200
    damage(model_file)
    os.utime(model_file, (1, 1))  # another version, whatever the clock's granularity
    for _ in range(3):
        again = _suggest(client)
        assert again.status_code == 200, again.get_json()
        assert again.get_json()["decision"] == good.get_json()["decision"]
    assert sum("model file unreadable" in r.getMessage() for r in caplog.records) == 1
    assert client.get("/readyz").get_json()["checks"]["models"]["ok"] is True
    # a process that never read a good version (a fresh start on a damaged file)
    import ai.model as aim

    aim._LAST_GOOD.clear()
    for bot in ("ismcts", "random"):
        r = _suggest(client, bot)
        assert r.status_code == 503, r.get_json()
        assert r.get_json()["code"] == "model_unavailable" and r.headers["Retry-After"]
        assert str(model_file) not in r.get_json()["detail"]  # no path to the client
    check = client.get("/readyz").get_json()["checks"]["models"]
    assert check["ok"] is False and "architectura" in check["detail"]


def test_a_model_renamed_over_the_last_is_read_even_at_its_size_and_mtime(model_file: Path) -> None:
    """Concurrency audit of 2026-11-30: a model was known by (mtime, size), so a new file
    of the same size renamed over it with the old mtime kept (a copy that keeps times) went
    on being served as the old one. The inode and the mtime in ns now name a version."""
    import os

    eng = engine("architectura")
    before = model_for(eng)
    assert before is not None
    st = model_file.stat()
    data = json.loads(model_file.read_text())
    data["weights"][0] = -data["weights"][0]  # the same length of text, another model
    other = model_file.with_name("next.json")
    other.write_text(json.dumps(data, indent=1))
    text = other.read_text()
    other.write_text(text + " " * (st.st_size - len(text.encode())))  # the same size
    os.replace(other, model_file)
    os.utime(model_file, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (model_file.stat().st_size, model_file.stat().st_mtime_ns) == (
        st.st_size,
        st.st_mtime_ns,
    )
    after = model_for(eng)
    assert after is not None and after.version != before.version


def test_an_oversized_model_file_is_refused_unread(
    model_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ai.model as aim

    model_file.write_bytes(b" " * (aim.MAX_MODEL_BYTES + 1))
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail("read"))
    with pytest.raises(aim.ModelUnavailable, match="more than"):
        model_for(engine("architectura"))


def test_saving_a_model_replaces_the_file_whole(
    model_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save that fails half way leaves the file served as it was (it was written in place,
    so a failure, or a search reading it meanwhile, met half a file)."""
    before = model_file.read_bytes()
    model = model_for(engine("architectura"))
    assert model is not None

    def fail(self: Path, text: str) -> int:
        Path.write_bytes(self, text[:100].encode())  # some of it written, then the disk fills
        raise OSError("no space left on device")

    monkeypatch.setattr(Path, "write_text", fail)
    with pytest.raises(OSError):
        model.save(model_file)
    assert model_file.read_bytes() == before
    assert [p.name for p in model_file.parent.iterdir()] == ["model.json"]  # no part left


def test_a_failed_read_of_the_model_file_is_tried_again(
    model_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Review of 2026-11-30: a read that failed once (too many open files, a permission
    fixed since) was remembered as a bad file, a 503 until the file changed. Only a bad
    content is remembered; a failed read is tried again at the next search."""
    from app import create_app

    client = create_app({"TESTING": True}).test_client()
    real, failures = Path.read_bytes, [OSError(24, "Too many open files")]

    def read_bytes(self: Path) -> bytes:
        if self == model_file and failures:
            raise failures.pop()
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    assert _suggest(client).status_code == 503
    assert _suggest(client).status_code == 200
