"""python -m ai.tournament: fair seat swapping, Wilson intervals, the plot."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine.architectura as arch
from ai.tournament import main, run_match, wilson


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson(20, 20)
    assert hi == 1.0 and lo == pytest.approx(0.8389, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_each_deal_is_played_twice_with_seats_swapped() -> None:
    m = run_match("greedy", "random", 6, seed=3, processes=1, progress=False)
    assert m.games == 6
    assert m.a_wins + m.draws + m.b_wins == 6
    assert m.a_points == pytest.approx(m.a_wins + m.draws / 2)
    # the same bot on both sides scores exactly half: every deal is mirrored
    mirror = run_match("random", "random", 4, seed=3, processes=1, progress=False)
    assert mirror.games == 4
    assert mirror.a_points == 2.0
    odd = run_match("random", "greedy", 3, seed=3, processes=1, progress=False)
    assert odd.games == 4


def test_random_replacements_are_legal() -> None:
    for seed in range(5):
        setup = arch.tournament_setup(seed, 2, "advanced")
        assert setup["variant"] == "advanced"
        state = arch.new_game(setup)
        assert arch.validate(state) == []
    assert any(arch.tournament_setup(s, 2, "advanced")["replacements"][0] for s in range(5))
    assert "replacements" not in arch.tournament_setup(0, 2, None)


def test_command_prints_rates_and_writes_a_plot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rate.png"
    js = tmp_path / "rate.json"
    code = main(
        [
            "--b", "random", "--games", "2", "--processes", "1", "--quiet",
            "--plot", str(out), "--times", "2,5", "--json", str(js),
        ]
    )  # fmt: skip
    assert code == 0
    printed = capsys.readouterr().out
    assert "ismcts:2ms vs random: 2 games" in printed and "95% CI" in printed
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert '"a_win_rate"' in js.read_text()


def test_command_rejects_unknown_bots() -> None:
    with pytest.raises(SystemExit):
        main(["--a", "deep-blue", "--games", "2"])
