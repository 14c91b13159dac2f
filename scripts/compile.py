"""The compiled build of the engine's hot modules with mypyc (docs/compiled.md).

    python scripts/compile.py                # build in place (the .so files lie beside the .py)
    python scripts/compile.py --if-possible  # the set-up's call: build when a C compiler, the
                                             # Python headers and mypyc are there; else (or if
                                             # the build fails) say so in one line, stay pure
    python scripts/compile.py --clean        # remove the build: the pure-Python engine again

The sources stay the engine: Python imports a module's .so instead of its .py only while the
.so lies beside it (and ENGINE_PURE=1 is not set, engine/compiled.py). A build records its
sources' hashes (STAMP), so that it is redone only when a source changed, and
tests/common/test_compiled.py refuses a build older than its sources.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shlex
import shutil
import sys
import sysconfig
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the list of modules is the engine's (engine/compiled.py)
from engine.compiled import MODULES  # noqa: E402

GROUP = "engine.native"  # the shared library: engine/native__mypyc.<ext>
BUILD = ROOT / "build" / "mypyc"
STAMP = BUILD / "stamp.json"
LOG = ROOT / "build" / "compile.log"


def built_files() -> list[Path]:
    """Every extension module of a build, in the source tree."""
    return sorted(p for p in (ROOT / "engine").rglob("*.so"))


def stamp() -> dict[str, object]:
    """What a build is made from: the compiled sources' hashes and the compiler's version."""
    import mypy.version

    sources = {m: hashlib.sha256((ROOT / m).read_bytes()).hexdigest() for m in MODULES}
    return {"mypy": mypy.version.__version__, "python": sys.version, "sources": sources}


def missing_tool() -> str | None:
    """Why this machine cannot build (no C compiler, no Python headers, no mypyc), or None."""
    cc = os.environ.get("CC") or str(sysconfig.get_config_var("CC") or "cc")
    compiler = (shlex.split(cc) or ["cc"])[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.exists():
        return f"no Python headers ({headers})"
    try:
        import mypyc.build  # noqa: F401
        import setuptools  # noqa: F401
    except ImportError as e:
        return f"no {e.name} (pip install -e '.[compile]')"
    return None


def clean() -> None:
    for p in built_files():
        p.unlink()
    shutil.rmtree(BUILD, ignore_errors=True)


def up_to_date() -> bool:
    if not (STAMP.exists() and built_files()):
        return False
    try:
        wanted = stamp()
    except ImportError:  # no mypy: a build of unknown make
        return False
    return bool(json.loads(STAMP.read_text()) == wanted)


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    clean()
    BUILD.mkdir(parents=True)
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
    STAMP.write_text(json.dumps(stamp(), indent=1, sort_keys=True))


@contextlib.contextmanager
def output_to(log: IO[str]) -> Iterator[None]:
    """Standard output and error, the compiler's too (a subprocess), go to `log`."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    os.dup2(log.fileno(), 1)
    os.dup2(log.fileno(), 2)
    try:
        yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])


def build_if_possible() -> None:
    """The set-up's build: one line says which engine the tree now holds, and why."""
    if up_to_date():
        print(f"engine: compiled ({len(MODULES)} modules; build up to date)")
        return
    why = missing_tool()
    if why is not None:
        clean()  # a build older than its sources must not run
        print(f"engine: pure Python ({why}; the compiled engine needs it, docs/compiled.md)")
        return
    start = time.monotonic()
    LOG.parent.mkdir(exist_ok=True)
    with open(LOG, "w") as log, output_to(log):
        try:
            build()
            failure = None
        except (Exception, SystemExit) as e:  # distutils reports a compiler error as SystemExit
            failure = f"{type(e).__name__}: {e}"
    if failure is not None:
        clean()
        print(f"engine: pure Python (the compiled build failed, {failure}; see {LOG})")
        return
    print(f"engine: compiled ({len(MODULES)} modules built in {time.monotonic() - start:.0f} s)")


def main() -> None:
    os.chdir(ROOT)  # setuptools places in-place extensions relative to the working directory
    args = sys.argv[1:]
    if args == ["--clean"]:
        clean()
        print("compiled build removed")
    elif args == ["--if-possible"]:
        build_if_possible()
    elif args:
        raise SystemExit("usage: python scripts/compile.py [--if-possible | --clean]")
    elif up_to_date():
        print("compiled build up to date")
    else:
        start = time.monotonic()
        build()
        print(f"compiled {len(MODULES)} modules in {time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    main()
