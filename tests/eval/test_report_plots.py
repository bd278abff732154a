"""The HTML report's statistics and plots: intervals and pass^k from stats.summarize in the tables, and PNG
plots beside index.html, referenced by it (the report opens offline)."""

from __future__ import annotations

import json
import re
import struct

from agent_harness.report import write_report
from agent_harness.report.plots import PLOTS
from agent_harness.report.stats import fmt_interval, summarize


def fake_run(root, label, outcomes):
    """task_id -> [passed per sample]: a results.jsonl without trajectories."""
    rows = []
    for tid, passes in outcomes.items():
        for s, ok in enumerate(passes):
            rows.append({"task_id": tid, "app": tid.split("/")[0], "difficulty": "hard" if "h" in tid else "easy",
                         "template": tid.split("-")[0], "agent": label, "sample": s, "passed": ok, "reward": float(ok),
                         "ungraded": False, "steps": 3 + s, "seconds": 1.5, "error": None, "episode_dir": "none",
                         "generalisation": "test", "split": "test", "seed": 0, "look": "default", "mode": "ui"})
    root.mkdir()
    (root / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return root, rows


def png_size(path):
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


def test_the_report_has_intervals_pass_hat_k_and_offline_plots(tmp_path):
    outcomes = {f"mail/{t}-{i}": [t != "b", t == "a", True] for t in ("a", "b", "h") for i in range(3)}
    a, rows = fake_run(tmp_path / "a", "model-a", outcomes)
    b, _ = fake_run(tmp_path / "b", "model-b", {k: [True] * 3 for k in outcomes})
    index = write_report([a, b], tmp_path / "rep")
    html = index.read_text()
    s = summarize(rows)
    assert fmt_interval(s["wilson"]) in html and fmt_interval(s["clustered"]) in html
    assert "pass^3" in html and 'data-key="mode"' in html and 'data-key="look"' in html
    assert "model-b better by 33.3 points" in html  # in a, b-tasks fail 2 of 3 samples, h-tasks 1; in b none
    srcs = re.findall(r'<img class="plot" src="([^"]+)"', html)
    assert sorted(srcs) == sorted(PLOTS)
    for src in srcs:
        path = index.parent / src
        assert path.parent == index.parent and not src.startswith(("http", "/"))  # beside index.html
        w, h = png_size(path)
        assert w >= 300 and h >= 200


def test_a_run_with_one_difficulty_still_plots(tmp_path):
    a, _ = fake_run(tmp_path / "a", "solo", {"food/x-0": [False]})
    html = write_report([a], tmp_path / "rep").read_text()
    assert 'src="steps_to_success.png"' in html and (tmp_path / "rep" / "steps_to_success.png").exists()
