"""What grading reads: the whole world, only the tables the episode wrote (apps/_shared/written.py), and only the
rows of those that differ from the start (`rows=1`, grading.written.merge_written).

`python -m bench.grading_read [--n 12]`: for each app, the tool plans of its first `--n` templates' first
instances are played through the control API (no browser), and after each the end state is read and graded
three ways, interleaved in this one run: the whole world, the start state with the written tables read again, and
the start state with the changed rows put in. Prints per app the seconds of each and their ratios; the last line:
whole_s=<x> written_s=<x> rows_s=<x> ratio=<written/whole> rows_ratio=<rows/whole>. All ways must grade alike
(checked).
"""

from __future__ import annotations

import argparse
import tempfile
import time

from apps import load_app_module
from grading import verify
from grading.written import merge_written
from tasks.loader import load_tasks

H = {"X-Gym-Token": "bench"}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=12)
    args = p.parse_args()
    home = tempfile.mkdtemp(prefix="uigym-bench-")
    tw = tr = tc = 0.0
    for app in ("mail", "food", "crm"):
        ctl = load_app_module(app).create_app({"GYM_TOKEN": "bench", "UIGYM_HOME": home}).extensions[
            "uigym_control"].test_client()
        tasks = [t for t in load_tasks() if t.app == app and t.id.endswith("-00") and t.tools is not None
                 and not t.tools.unsupported][:args.n]
        whole_s = written_s = rows_s = 0.0
        for t in tasks:
            body = {"seed": t.seed, "fixtures": t.fixtures, **({"now": t.now.isoformat()} if t.now else {})}
            ctl.post("/worlds/b/reset", json=body, headers=H)
            start = ctl.get("/worlds/b/state", headers=H).json
            for call in t.tools.solution:
                if call.tool != "done":
                    ctl.post(f"/worlds/b/tools/{call.tool}", json=call.args, headers=H)
            answer = next((c.args.get("answer") for c in t.tools.solution if c.tool == "done"), None)
            t0 = time.perf_counter()
            end = ctl.get("/worlds/b/state", headers=H).json
            a = verify(t.verify, start, end, answer, trajectory=[], judge=None)
            t1 = time.perf_counter()
            part = ctl.get("/worlds/b/state?written=1", headers=H).json
            part.pop("_written")
            b = verify(t.verify, start, {**start, **part}, answer, trajectory=[], judge=None)
            t2 = time.perf_counter()
            changed = ctl.get("/worlds/b/state?written=1&rows=1", headers=H).json
            c = verify(t.verify, start, merge_written(start, changed), answer, trajectory=[], judge=None)
            t3 = time.perf_counter()
            assert (a.score, a.passed) == (b.score, b.passed) == (c.score, c.passed), t.id
            whole_s += t1 - t0
            written_s += t2 - t1
            rows_s += t3 - t2
        print(f"{app}: {len(tasks)} grades, whole {whole_s:.2f}s, written {written_s:.2f}s, rows {rows_s:.2f}s, "
              f"ratio {written_s / whole_s:.2f}, rows {rows_s / whole_s:.2f}")
        tw, tr, tc = tw + whole_s, tr + written_s, tc + rows_s
    print(f"whole_s={tw:.2f} written_s={tr:.2f} rows_s={tc:.2f} ratio={tr / tw:.2f} rows_ratio={tc / tw:.2f}")


if __name__ == "__main__":
    main()
