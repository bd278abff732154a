"""Pages without pictures, Blink's way against the request guard's: `python -m bench.no_images [--app food] [--n 12]`.

EnvConfig(images=False) puts the tab in the runtime's second Chromium, launched with Blink's images off, so
its pages never request a picture. Before, the tab was in the one Chromium and the env's request guard paused
and failed each image request (a food page asks for ~90, each a round trip through the DevTools protocol,
Playwright's driver and this process). The validity probes of the first `--n` templates' first instances of
`--app`, 4 workers, once each way in this one run (each in a fresh interpreter), so the ratio holds on a noisy
machine. Last line: blink_s=<x> guard_s=<x> ratio=<blink/guard>
"""

from __future__ import annotations

import argparse

from bench.probe_batch import timed_batch

# The way before: one browser, its image requests failed by the env's request guard.
GUARD = """
_browser = Runtime.browser
Runtime.browser = lambda self, images=True: _browser(self)
"""


def timed(way: str, app: str, n: int) -> float:
    return timed_batch(app, n, prelude=GUARD if way == "guard" else "")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--app", default="food", choices=["mail", "food", "crm"])
    ap.add_argument("--n", type=int, default=12, help="templates (their first instances)")
    args = ap.parse_args()
    b, g = timed("blink", args.app, args.n), timed("guard", args.app, args.n)
    print(f"blink_s={b:.1f} guard_s={g:.1f} ratio={b / g:.2f}")


if __name__ == "__main__":
    main()
