"""Optional compiled build of the Architectura engine's modules with mypyc (docs/compiled.md).

    python scripts/compile.py          # build in place (the .so files lie beside the .py files)
    python scripts/compile.py --clean  # remove them: the pure-Python engine again

The sources stay the engine: the build is never needed, and Python imports a module's .so
instead of its .py only while the .so lies beside it. A build records its sources' hashes
(STAMP), so that it is redone only when a source changed, and tests/common/test_compiled.py
refuses a build older than its sources.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The modules compiled, one shared library (engine/native__mypyc*.so) holding their code.
# Left out (docs/compiled.md): engine/errors.py (ProblemList subclasses list, which mypyc
# cannot compile), engine/messages.py (Msg subclasses str, likewise), engine/architectura/schema.py (a compiled msgspec struct body does not
# import), api.py, notation.py and position.py (not hot; they take values as sent, which
# compiled code would refuse with a TypeError where the annotation is narrower).
MODULES = (
    "engine/rng.py",
    "engine/architectura/catalog.py",
    "engine/architectura/city.py",
    "engine/architectura/flow.py",
    "engine/architectura/model.py",
    "engine/architectura/scoring.py",
    "engine/architectura/serialize.py",
    "engine/architectura/setup.py",
    "engine/architectura/view.py",
)
GROUP = "engine.native"  # the shared library: engine/native__mypyc.<ext>
BUILD = ROOT / "build" / "mypyc"
STAMP = BUILD / "stamp.json"


def built_files() -> list[Path]:
    """Every extension module of a build, in the source tree."""
    return sorted(p for p in (ROOT / "engine").rglob("*.so"))


def stamp() -> dict[str, object]:
    """What a build is made from: the compiled sources' hashes and the compiler's version."""
    import mypy.version

    sources = {m: hashlib.sha256((ROOT / m).read_bytes()).hexdigest() for m in MODULES}
    return {"mypy": mypy.version.__version__, "python": sys.version, "sources": sources}


def clean() -> None:
    for p in built_files():
        p.unlink()
    shutil.rmtree(BUILD, ignore_errors=True)


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    wanted = stamp()
    if STAMP.exists() and json.loads(STAMP.read_text()) == wanted and built_files():
        print("compiled build up to date")
        return
    clean()
    start = time.monotonic()
    extensions = mypycify(list(MODULES), group_name=GROUP, target_dir=str(BUILD / "c"))
    setup(
        name="engine-compiled",
        ext_modules=extensions,
        script_args=[
            "-q",
            "build_ext",
            "--inplace",
            "--build-temp",
            str(BUILD / "tmp"),
            "--build-lib",
            str(BUILD / "lib"),
        ],
    )
    STAMP.write_text(json.dumps(wanted, indent=1, sort_keys=True))
    print(f"compiled {len(MODULES)} modules in {time.monotonic() - start:.0f} s")


def main() -> None:
    os.chdir(ROOT)  # setuptools places in-place extensions relative to the working directory
    if sys.argv[1:] == ["--clean"]:
        clean()
        print("compiled build removed")
    elif sys.argv[1:]:
        raise SystemExit("usage: python scripts/compile.py [--clean]")
    else:
        build()


if __name__ == "__main__":
    main()
