"""benchmarks/flood.py (issue 22) runs, on a tiny flood, and measures every POST endpoint."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from benchmarks.flood import REFERENCE, post_examples
from benchmarks.local import ROOT


def test_the_flood_benchmark_runs_on_a_tiny_size(tmp_path: Path) -> None:
    out = tmp_path / "flood.json"
    cmd = [sys.executable, "-m", "benchmarks.flood", "--rounds", "2", "--requests", "1"]
    cmd += ["--fields", "150", "--out", str(out)]
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip().splitlines()[-1].startswith("max_ratio=")
    result = json.loads(out.read_text())
    assert set(result["ratio_to_legal_moves"]) == set(post_examples())
    assert result["ratio_to_legal_moves"][REFERENCE]["median"] == 1.0
    assert all(len(v) == 2 for v in result["cpu_ms_per_request"].values())
