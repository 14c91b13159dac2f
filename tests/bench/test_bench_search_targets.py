"""benchmarks/search_targets.py (docs/model.md "Tried, not kept"): each position of a game is
judged from the mover's view, the two seats' shares summing to 1, and with the game's result
alone as its target the fit is ai.train's, weight for weight."""

from __future__ import annotations

import math

from ai.train import fit as train_fit
from benchmarks.search_targets import _play, fit, judged


def test_positions_are_judged_and_the_result_alone_fits_as_training_does() -> None:
    games = [_play(("architectura", deal)) for deal in (1, 2)]
    rows = [r for g in games for r in judged(g)]
    assert len(rows) > 20
    for features, shares, result in rows:
        assert len(features) == 2 and math.isclose(sum(shares), 1.0)
        assert min(shares) >= 0.0 and sorted(result) in ([0.0, 1.0], [0.5, 0.5])
    assert len({round(r[1][0], 6) for r in rows}) > 5  # the search's values vary by position
    same = fit(rows, lam=1.0)
    assert all(
        math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
        for a, b in zip(same, train_fit(games), strict=True)
    )
    assert fit(rows, lam=0.0) != same
