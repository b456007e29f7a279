"""A user's install (issue 28): build the wheel, install it with its dependencies into a fresh virtual
environment, start the app the first time and again; and what the developers' editable install costs
each process at import.

    .venv/bin/python bench/bench_install.py [--repeat N] [--cold]

- wheel: ``pip wheel --no-deps`` from a copy of the packages (as tests/test_installed_wheel.py builds it);
- install: ``python -m venv`` then ``pip install WHEEL`` with the pinned dependencies, from pip's cache
  (warm: the figure of a second machine on the same network share or a re-install); ``--cold`` adds one
  install with ``--no-cache-dir`` (every dependency downloaded from PyPI);
- first start: ``catan-companion app --quit-when-ready`` in that environment, the first time (nothing
  imported before, byte code compiled by pip at install) and the second time;
- import cost of the editable install's finder: ``python -X importtime -c "import companion"`` in the
  checkout's venv (``__editable___…_finder``) against the installed wheel (plain site-packages).

Prints medians (min–max); the figures go into docs/performance.md.  Never pass/fail: the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(cmd: list[str], **kwargs) -> tuple[float, subprocess.CompletedProcess]:
    started = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return time.perf_counter() - started, done


def build_wheel(folder: Path) -> tuple[float, Path]:
    source = folder / "source"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in ("companion", "firmware_bridge", "vision"):
        shutil.copytree(ROOT / package, source / package, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    seconds, _ = timed([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(folder / "dist"),
                        str(source)])
    return seconds, next((folder / "dist").glob("*.whl"))


def install(wheel: Path, venv: Path, cold: bool = False) -> float:
    """Seconds for ``python -m venv`` plus ``pip install WHEEL`` (dependencies included)."""
    started = time.perf_counter()
    timed([sys.executable, "-m", "venv", str(venv)])
    timed([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", *(["--no-cache-dir"] if cold else []),
           str(wheel)], timeout=1800)
    return time.perf_counter() - started


def start(venv: Path, home: Path) -> float:
    """Seconds from the process's start to the start screen's first frame."""
    cmd = [str(venv / "bin" / "catan-companion"), "app", "--quit-when-ready", "--window",
           "--data-dir", str(home / "data")]
    if not os.environ.get("DISPLAY") and shutil.which("xvfb-run"):
        cmd = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24"] + cmd
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(HOME=str(home), KIVY_NO_CONSOLELOG="1", KIVY_NO_ARGS="1")
    _, done = timed(cmd, cwd=home, env=env, timeout=300)
    match = re.search(r"since_exec=([\d.]+)", done.stdout)
    if not match:
        raise SystemExit(f"the app did not report ready:\n{done.stdout}\n{done.stderr[-2000:]}")
    return float(match.group(1))


def finder_ms(python: Path, cwd: Path) -> tuple[float, float]:
    """(ms importing the editable finder, 0 when there is none; ms for ``import companion`` in all)."""
    _, done = timed([str(python), "-X", "importtime", "-c", "import companion"], cwd=cwd,
                    env={k: v for k, v in os.environ.items() if not k.startswith("PYTHON")})
    finder = companion = 0.0
    for line in done.stderr.splitlines():
        parts = [p.strip() for p in line.split("|")]
        if len(parts) == 3 and parts[2].startswith("__editable__") and parts[2].endswith("_finder"):
            finder = int(parts[1]) / 1000
        if len(parts) == 3 and parts[2] == "companion":
            companion = int(parts[1]) / 1000
    return finder, companion


def wall_ms(python: Path, cwd: Path) -> float:
    """Milliseconds for a whole ``python -c "import companion"`` process (interpreter start included)."""
    seconds, _ = timed([str(python), "-c", "import companion"], cwd=cwd,
                       env={k: v for k, v in os.environ.items() if not k.startswith("PYTHON")})
    return seconds * 1000


def describe(values: list[float], unit: str) -> str:
    return f"{statistics.median(values):.2f} {unit} ({min(values):.2f}–{max(values):.2f}, n={len(values)})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cold", action="store_true", help="also one install with nothing in pip's cache")
    args = parser.parse_args()
    print(f"machine: {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        builds, installs, first, second = [], [], [], []
        for i in range(args.repeat):
            seconds, wheel = build_wheel(base / f"build{i}")
            builds.append(seconds)
            venv, home = base / f"venv{i}", base / f"home{i}"
            home.mkdir()
            installs.append(install(wheel, venv))
            first.append(start(venv, home))
            second.append(start(venv, home))
        print(f"wheel {wheel.name}: {wheel.stat().st_size / 1e6:.1f} MB; pip wheel {describe(builds, 's')}")
        print(f"fresh venv + pip install (pip cache warm): {describe(installs, 's')}")
        if args.cold:
            print(f"fresh venv + pip install (--no-cache-dir, from PyPI): "
                  f"{install(wheel, base / 'cold', cold=True):.1f} s (one run)")
        print(f"first start (process start -> start screen): {describe(first, 's')}; "
              f"second start {describe(second, 's')}")
        venv = base / "venv0"
        checkout = [finder_ms(ROOT / ".venv" / "bin" / "python", base) for _ in range(7)]
        installed = [finder_ms(venv / "bin" / "python", base) for _ in range(7)]
        print(f"import companion, checkout's editable install: finder {describe([f for f, _ in checkout], 'ms')}, "
              f"companion {describe([c for _, c in checkout], 'ms')}")
        print(f"import companion, installed wheel: finder {describe([f for f, _ in installed], 'ms')}, "
              f"companion {describe([c for _, c in installed], 'ms')}")
        walls = {"checkout": [], "installed": []}
        for _ in range(15):  # interleaved, so a burst of load falls on both
            walls["checkout"].append(wall_ms(ROOT / ".venv" / "bin" / "python", base))
            walls["installed"].append(wall_ms(venv / "bin" / "python", base))
        print(f"whole process python -c 'import companion': checkout {describe(walls['checkout'], 'ms')}, "
              f"installed wheel {describe(walls['installed'], 'ms')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
