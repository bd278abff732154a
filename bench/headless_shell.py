"""Chromium's headless shell against the full browser: `python -m bench.headless_shell [--app crm] [--n 12]`.

The validity probes (oracle, noop, near-misses, adversarial and harmless trajectories, no screenshots) of the
first `--n` templates' first instances of `--app`, played with 4 workers, once in each browser, in this one
run (each in a fresh interpreter: the runtime keeps one browser per process), so the ratio holds on a
noisy machine. Last line: shell_s=<x> full_s=<x> ratio=<shell/full>
"""

from __future__ import annotations

import argparse
import shutil
import sys

from bench.probe_batch import timed_batch


def timed(exe: str, app: str, n: int) -> float:
    return timed_batch(app, n, env={"UIGYM_CHROMIUM": exe})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--app", default="crm", choices=["mail", "food", "crm"])
    ap.add_argument("--n", type=int, default=12, help="templates (their first instances)")
    args = ap.parse_args()
    shell, full = shutil.which("chromium-headless-shell"), shutil.which("chromium")
    if not (shell and full):
        sys.exit("needs both chromium-headless-shell and chromium on PATH (apt-get install chromium chromium-headless-shell)")
    s, f = timed(shell, args.app, args.n), timed(full, args.app, args.n)
    print(f"shell_s={s:.1f} full_s={f:.1f} ratio={s / f:.2f}")


if __name__ == "__main__":
    main()
