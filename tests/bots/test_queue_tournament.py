"""`ai.tournament --queue`: the games of a match as RQ jobs on 2 `rq worker` processes (and a
redis-server) the test starts, against the same match played locally: the same games, the
same results, and both workers took part."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import redis
from rq import Worker

from ai.queue import local_workers
from ai.redis_server import RedisServer, free_port
from ai.taskqueue import GAMES_QUEUE
from ai.tournament import main, run_match


def test_a_queued_match_on_two_workers_is_the_local_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--a", "ismcts:25it", "--b", "greedy", "--games", "8", "--seed", "11"]
    local_json, queued_json = tmp_path / "local.json", tmp_path / "queued.json"
    assert main([*args, "--processes", "1", "--json", str(local_json)]) == 0
    local = run_match("ismcts:25it", "greedy", 8, seed=11, processes=1, progress=False)
    with RedisServer() as server, local_workers(server.url, 2, queues=[GAMES_QUEUE]):
        capsys.readouterr()
        assert main([*args, "--queue", server.url, "--json", str(queued_json)]) == 0
        bar = capsys.readouterr().err
        queued = run_match("ismcts:25it", "greedy", 8, seed=11, progress=False, queue=server.url)
        conn = redis.Redis.from_url(server.url)
        done = [w.successful_job_count for w in Worker.all(connection=conn)]
        conn.close()
    assert "8/8" in bar  # the progress bar, advanced by games arriving from the workers
    assert len(done) == 2 and all(n > 0 for n in done), done  # both workers played
    assert [(r.deal, r.swapped, r.scores, r.decisions) for r in queued.results] == [
        (r.deal, r.swapped, r.scores, r.decisions) for r in local.results
    ]
    assert len(local.results) == 8
    timing = ("a_ms_per_decision", "b_ms_per_decision", "seconds")
    a, b = (json.loads(p.read_text())["matches"][0] for p in (local_json, queued_json))
    assert {k: v for k, v in a.items() if k not in timing} == {
        k: v for k, v in b.items() if k not in timing
    }
    assert a["games"] == 8 and a["a_wins"] + a["draws"] + a["b_wins"] == 8


def test_without_redis_or_workers_the_command_says_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    dead = f"redis://127.0.0.1:{free_port()}/0"
    assert main(["--games", "2", "--queue", dead, "--quiet"]) == 2
    assert "Redis unavailable" in capsys.readouterr().err
    with RedisServer() as server:
        assert main(["--games", "2", "--queue", server.url, "--quiet"]) == 2
        assert "no worker is listening on queue 'games'" in capsys.readouterr().err


def _children(pid: int) -> list[int]:
    """Processes whose parent is `pid` (a worker's work horse)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def test_a_worker_killed_mid_match_loses_no_game() -> None:
    """One of two workers dies mid-game (SIGKILL, with its work horse): RQ's abandoned-job
    clean-up re-queues that game, the other worker plays it, and the match is the local one."""
    spec = ("ismcts:120it", "greedy", 6)
    local = run_match(*spec, seed=3, processes=1, progress=False)
    with (
        RedisServer() as server,
        local_workers(
            server.url, 2, queues=[GAMES_QUEUE], monitoring_interval_s=1, grace_s=2
        ) as procs,
    ):
        out: list[Any] = []
        thread = threading.Thread(
            target=lambda: out.append(run_match(*spec, seed=3, progress=False, queue=server.url))
        )
        thread.start()
        deadline = time.monotonic() + 30
        while not (horses := _children(procs[0].pid)):
            assert time.monotonic() < deadline, "the worker never started a game"
            time.sleep(0.02)
        os.kill(procs[0].pid, signal.SIGKILL)
        for h in horses:
            os.kill(h, signal.SIGKILL)
        thread.join(timeout=120)
        assert not thread.is_alive()
    queued = out[0]
    assert [(r.deal, r.swapped, r.scores) for r in queued.results] == [
        (r.deal, r.swapped, r.scores) for r in local.results
    ]
