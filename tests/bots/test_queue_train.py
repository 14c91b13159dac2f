"""`ai.train --queue`: a training run's self-play games as RQ jobs on 2 `rq worker` processes
(and a redis-server) the test starts: the same model as the local run, both workers took
part, the progress bar followed the games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import redis
from rq import Worker

from ai.queue import local_workers
from ai.redis_server import RedisServer
from ai.taskqueue import GAMES_QUEUE
from ai.train import main


def test_a_queued_training_on_two_workers_writes_the_local_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--game", "architectura", "--bot", "ismcts:8it", "--games", "10", "--seed", "3"]
    local, queued = tmp_path / "local.json", tmp_path / "queued.json"
    assert main([*args, "--processes", "1", "--quiet", "--out", str(local)]) == 0
    with RedisServer() as server, local_workers(server.url, 2, queues=[GAMES_QUEUE]):
        capsys.readouterr()
        assert main([*args, "--queue", server.url, "--out", str(queued)]) == 0
        bar = capsys.readouterr().err
        conn = redis.Redis.from_url(server.url)
        done = [w.successful_job_count for w in Worker.all(connection=conn)]
        conn.close()
    assert "10/10" in bar
    assert len(done) == 2 and all(n > 0 for n in done), done
    a, b = json.loads(local.read_text()), json.loads(queued.read_text())
    assert a["weights"] == b["weights"] and a["version"] == b["version"]
    assert a["trained"]["held_out"] == b["trained"]["held_out"]
