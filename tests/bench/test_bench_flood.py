"""benchmarks/flood.py (issue 22) runs, on a tiny flood, and measures every POST endpoint."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.flood import REFERENCE, post_examples
from benchmarks.local import ROOT


def test_the_flood_benchmark_runs_on_a_tiny_size(tmp_path: Path) -> None:
    out = tmp_path / "flood.json"
    cmd = [sys.executable, "-m", "benchmarks.flood", "--rounds", "2", "--requests", "1"]
    cmd += ["--fields", "150", "--out", str(out)]
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads(out.read_text())
    cpu, ratios = result["cpu_ms_per_request"], result["ratio_to_legal_moves"]
    assert set(ratios) == set(cpu) == set(post_examples())
    assert all(len(v) == 2 and min(v) > 0 for v in cpu.values())  # each round measured CPU
    # each ratio is the rounds' CPU over the reference's, and the last line their largest median
    for path, spread in ratios.items():
        per_round = [a / b for a, b in zip(cpu[path], cpu[REFERENCE], strict=True)]
        assert spread["median"] == pytest.approx(statistics.median(per_round))
        assert spread["min"] == pytest.approx(min(per_round))
    worst = max(s["median"] for s in ratios.values())
    assert run.stdout.strip().splitlines()[-1] == f"max_ratio={worst:.3f}"
