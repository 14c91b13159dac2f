"""benchmarks/learned_strength.py's model files (`file:<model.json>:<n>it`): a model trained on
fewer features plays on today's with weight 0 on the others, so two feature sets can meet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ai.mcts import IsmctsBot
from ai.model import ModelEvaluator, model_for
from benchmarks import learned_strength
from benchmarks.learned_strength import padded_model
from engine.games import engine

GAME = "architectura"


def _older(tmp_path: Path, drop: set[str]) -> Path:
    """The served model's file as a model without the features `drop` would be."""
    doc = json.loads(Path(engine(GAME).INFO.features.model).read_text())
    keep = [i for i, n in enumerate(doc["features"]) if n not in drop]
    doc["features"] = [doc["features"][i] for i in keep]
    doc["weights"] = [doc["weights"][i] for i in keep]
    path = tmp_path / "older.json"
    path.write_text(json.dumps(doc))
    return path


def test_a_model_of_fewer_features_weighs_the_others_zero(tmp_path: Path) -> None:
    eng = engine(GAME)
    names = eng.INFO.features.names
    hand = {n for n in names if n.startswith("hand_")}
    assert hand
    served = model_for(eng)
    assert served is not None
    older = padded_model(str(_older(tmp_path, hand)), GAME)
    assert older.names == names
    for name, w, w0 in zip(names, older.weights, served.weights, strict=True):
        assert w == (0.0 if name in hand else w0)
    g = eng.new_game_internal({"game": GAME, "seats": 2, "seed": 4})
    rows = eng.INFO.features.of(g)
    assert older.shares(rows) != served.shares(rows)  # the hand's weights did count


def test_a_model_naming_a_feature_the_game_lacks_is_refused(tmp_path: Path) -> None:
    path = _older(tmp_path, set())
    doc = json.loads(path.read_text())
    doc["features"][0] = "no_such_feature"
    path.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match="no longer has"):
        padded_model(str(path), GAME)


def test_a_file_bot_searches_with_that_model(tmp_path: Path) -> None:
    learned_strength._GAME[0] = GAME
    path = _older(tmp_path, set())
    bot = learned_strength.make_bot(f"file:{path}:30it")
    assert isinstance(bot, IsmctsBot) and bot.budget.iterations == 30
    assert isinstance(bot.evaluator, ModelEvaluator) and bot.evaluator.model is not None
    assert bot.evaluator.model.weights == model_for(engine(GAME)).weights
    eng = engine(GAME)
    view = eng.player_view(eng.game_to_json(eng.new_game_internal({"seats": 2, "seed": 5})), 0)
    first = bot.choose(view, 3)
    assert first.iterations == 30 and bot.choose(view, 3).action == first.action


@pytest.mark.parametrize(("arg", "mixed"), [("300it", False), ("2560it", True), ("100ms", True)])
def test_a_file_bot_picks_its_constant_and_mix_by_the_budget_as_the_served_search_does(
    tmp_path: Path, arg: str, mixed: bool
) -> None:
    """Fora de Prumo's file mixes above 640 iterations and on a time budget: a file bot at 300
    iterations must judge by the model alone with the plain constant, as `learned_search` does
    (it was mixed at every iteration budget before: the evaluator was told no budget)."""
    game = "fora-de-prumo"
    learned_strength._GAME[0] = game
    eng = engine(game)
    bot = learned_strength.make_bot(f"file:{eng.INFO.features.model}:{arg}")
    assert isinstance(bot, IsmctsBot) and isinstance(bot.evaluator, ModelEvaluator)
    model = bot.evaluator.model
    assert model is not None and model.mix is not None and model.mix.time
    iterations = bot.budget.iterations
    assert bot.evaluator.iterations == iterations
    c, weight = model.search_for(iterations)
    assert (weight < 1.0) == mixed
    assert bot.exploration == c == (model.mix.exploration if mixed else model.exploration)
