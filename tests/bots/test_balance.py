"""ai.balance: per-card win rates of the side that played the card, and the first seat's
advantage, with Wilson intervals; records of real games of both games; the same report
locally and through the queue; the table and the PNG plot."""

from __future__ import annotations

from pathlib import Path

import pytest

from ai.balance import main, play_job, run_balance, summarise
from ai.queue import local_workers
from ai.redis_server import RedisServer
from ai.taskqueue import GAMES_QUEUE
from ai.tournament import wilson
from engine.games import engine


def test_summary_counts_each_seat_that_played_a_card_once_per_game() -> None:
    records = [
        {"deal": 2, "first_seat": 0, "scores": [1.0, 0.0], "played": [["a", "b"], ["b"]]},
        {"deal": 1, "first_seat": 1, "scores": [0.5, 0.5], "played": [["a"], ["c"]]},
        {"deal": 3, "first_seat": 0, "scores": [0.0, 1.0], "played": [[], ["a", "c"]]},
    ]
    r = summarise("fora-de-prumo", "greedy", 2, records)
    rates = {c.name: (c.n, c.wins) for c in r.cards}
    assert rates == {"a": (3, 2.5), "b": (2, 1.0), "c": (2, 1.5)}
    assert [c.name for c in r.cards] == ["a", "c", "b"]  # by win rate, highest first
    assert (r.first_seat.n, r.first_seat.wins) == (3, 1.5)
    assert r.cards[0].ci == wilson(2.5, 3)
    table = r.table()
    assert "| a | 3 | 0.833 |" in table and "First seat win rate: 0.500" in table


@pytest.mark.parametrize(("game", "kind"), [("architectura", "play"), ("fora-de-prumo", "lay")])
def test_a_balance_game_records_the_cards_each_seat_played(game: str, kind: str) -> None:
    rec = play_job(["greedy", 2, 7, None, game, None])
    assert rec["deal"] == 7 and rec["first_seat"] == 1
    assert sorted(rec["scores"]) in ([0.0, 1.0], [0.5, 0.5])
    names = set(engine(game).builtin_catalogs()["reference"].cards)  # catalog card ids
    assert names
    for seat_cards in rec["played"]:
        assert seat_cards, "every seat played cards"
        assert set(seat_cards) <= names
    if game == "architectura":
        assert all("." not in c for s in rec["played"] for c in s)  # kinds, not colours


def test_the_same_report_locally_and_through_the_queue(tmp_path: Path) -> None:
    local = run_balance("fora-de-prumo", 6, seed=4, processes=1, progress=False)
    with RedisServer() as server, local_workers(server.url, 2, queues=[GAMES_QUEUE]):
        queued = run_balance("fora-de-prumo", 6, seed=4, queue=server.url, progress=False)
    assert queued.to_json() == local.to_json()
    assert local.games == 6 and local.first_seat.n == 6


def test_the_command_writes_a_table_a_plot_and_json(tmp_path: Path) -> None:
    png, table, js = tmp_path / "b.png", tmp_path / "b.md", tmp_path / "b.json"
    argv = ["--game", "architectura", "--games", "6", "--processes", "1", "--quiet"]
    assert main([*argv, "--plot", str(png), "--table", str(table), "--json", str(js)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert table.read_text().startswith("architectura, greedy in all 2 seats, 6 games")
    assert '"first_seat"' in js.read_text()


def test_plot_without_matplotlib_is_refused_before_any_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--plot needs the optional extra: without it both commands stop at once, saying how to
    install it, instead of playing every game and then failing to import it."""
    import importlib.util

    from ai import balance, tournament

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda n, *a: None if n == "matplotlib" else real(n, *a)
    )
    played: list[object] = []
    monkeypatch.setattr(balance, "run_balance", lambda *a, **k: played.append(a))
    monkeypatch.setattr(tournament, "run_match", lambda *a, **k: played.append(a))
    for cmd in (balance.main, tournament.main):
        with pytest.raises(SystemExit) as e:
            cmd(["--games", "2", "--plot", str(tmp_path / "p.png")])
        assert e.value.code == 2
        assert "pip install '.[plot]'" in capsys.readouterr().err
    assert played == [] and not (tmp_path / "p.png").exists()
