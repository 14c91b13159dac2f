"""A review job on 1 and on 2 RQ workers: the wall time of the same review (docs/scale.md).

Starts its own redis-server and workers (ai/queue.py `local_workers`), posts one review of a
complete game as a background job (POST /v1/review, `"async": true`) and waits for it; 1 and
2 workers interleaved, `--rounds` times, each run with the 1-minute load average before it.

    python -m benchmarks.review_scale --rounds 6 --iterations 2000
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from typing import Any

from ai.queue import local_workers
from ai.redis_server import RedisServer
from app import create_app


def a_record(client: Any, seed: int) -> dict[str, Any]:
    """The record of a complete 2-seat Architectura game of seeded random options."""
    rng = random.Random(seed)
    state = client.post("/v1/games", json={"seats": 2, "seed": seed}).get_json()["state"]
    while not state["game_over"]:
        option = rng.choice(state["pending"]["options"])
        state = client.post("/v1/resolve", json={"state": state, "decisions": [option]})
        state = state.get_json()["state"]
    return dict(client.post("/v1/record", json={"state": state}).get_json())


def one_run(client: Any, body: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    t0 = time.perf_counter()
    r = client.post("/v1/review", json=body)
    assert r.status_code == 202, r.get_json()
    location = r.headers["Location"]
    while True:
        doc = client.get(location).get_json()
        if doc["status"] in ("finished", "failed", "cancelled"):
            break
        time.sleep(0.05)
    assert doc["status"] == "finished", doc
    return time.perf_counter() - t0, doc["result"]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--iterations", type=int, default=300)
    args = p.parse_args(argv)
    rows = []
    with RedisServer() as server:
        app = create_app({"REDIS_URL": server.url, "TESTING": True, "LOG_LEVEL": "WARNING"})
        client = app.test_client()
        rec = a_record(client, 3)
        body = {**rec, "budget": {"iterations": args.iterations}, "async": True}
        first = None
        for r in range(args.rounds):
            for n in (1, 2):
                with local_workers(server.url, n, queues=["suggest"]):
                    load = round(os.getloadavg()[0], 2)
                    seconds, result = one_run(client, body)
                first = first or result
                row = {
                    "round": r,
                    "workers": n,
                    "decisions_reviewed": sum(1 for d in result["decisions"] if "verdict" in d),
                    "iterations": result["iterations"],
                    "seconds": round(seconds, 2),
                    "load_before": load,
                    "same_review": result == first,
                }
                print(json.dumps(row), flush=True)
                rows.append(row)
    one = [x["seconds"] for x in rows if x["workers"] == 1]
    two = [x["seconds"] for x in rows if x["workers"] == 2]
    print(json.dumps({"speedup_2_over_1": round(sum(one) / sum(two), 2)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
