"""Report numbers (pass@k, summaries) and the HTML report written from run folders."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from agent_harness.report import overlay_svg, pass_at_k, pass_at_ks, summarize, write_report
from agent_harness.report.stats import error_kinds, ks_for
from grading.judge import JUDGE_ENV_HELP


def test_pass_at_k():
    assert pass_at_k(5, 2, 1) == pytest.approx(0.4)
    assert pass_at_k(5, 2, 4) == 1.0 and pass_at_k(5, 0, 5) == 0.0
    assert pass_at_k(4, 1, 2) == pytest.approx(0.5)
    with pytest.raises(ValueError):
        pass_at_k(2, 1, 3)
    assert ks_for(5) == [1, 2, 4, 5] and ks_for(1) == [1]
    rows = [{"task_id": "a", "passed": p} for p in (True, False, False, False)] + \
           [{"task_id": "b", "passed": p} for p in (False, False, False, False)]
    assert pass_at_ks(rows) == {1: pytest.approx(0.125), 2: pytest.approx(0.25), 4: pytest.approx(0.5)}


def test_summary_and_error_kinds():
    rows = [
        {"task_id": "a", "passed": True, "reward": 1.0, "steps": 3, "seconds": 2.0, "tokens": 300, "model_calls": 3,
         "model_ms": 300.0, "parse_errors": 1, "action_errors": 0, "error": None},
        {"task_id": "b", "passed": False, "reward": 0.0, "steps": 1, "seconds": 1.0, "tokens": 0, "model_calls": 1,
         "model_ms": 100.0, "parse_errors": 0, "action_errors": 2, "error": "ModelError: HTTP 400",
         "error_kind": "ModelError"},
    ]
    s = summarize(rows)
    assert (s["episodes"], s["pass_rate"], s["mean_steps"], s["mean_model_ms"], s["errors"]) == (2, 0.5, 2.0, 100.0, 1)
    assert s["parse_error_rate"] == 0.25
    assert error_kinds(rows) == {"ModelError": 1, "unparsed reply (steps)": 1, "action error (steps)": 2}


def test_ungraded_episodes_count_in_no_pass_rate_and_no_pass_at_k():
    rows = [{"task_id": "a", "passed": True, "reward": 1.0}, {"task_id": "a", "passed": False, "reward": 0.0,
                                                              "ungraded": True},
            {"task_id": "b", "passed": False, "reward": 0.0, "ungraded": True}]
    s = summarize(rows)
    assert (s["episodes"], s["graded"], s["ungraded"], s["passed"]) == (3, 1, 2, 1)
    assert s["pass_rate"] == 1.0 and s["mean_reward"] == 1.0
    assert s["pass_at_k"] == {1: 1.0}  # task b has no graded sample: left out, not a 0
    nothing = summarize([rows[2]])
    assert nothing["pass_rate"] is None and nothing["mean_reward"] is None and nothing["pass_at_k"] == {}


@pytest.mark.parametrize("action, needles", [
    ({"type": "click", "x": 10, "y": 20, "button": "left"}, ['cx="10"', "click (10, 20)"]),
    ({"type": "click", "x": 10, "y": 20, "button": "right"}, ["right click"]),
    ({"type": "double_click", "x": 1, "y": 2}, ["double click", 'r="24"']),
    ({"type": "move", "x": 1, "y": 2}, ["hover", "stroke-dasharray"]),
    ({"type": "drag", "path": [[1, 2], [30, 40], [50, 60]]}, ["polyline", 'points="1,2 30,40 50,60"', "drag"]),
    ({"type": "scroll", "x": 5, "y": 6, "dx": 0, "dy": 300}, ["scroll dx=0 dy=300", "arrow-green"]),
    ({"type": "type", "text": "<script>alert(1)</script>"}, ["&lt;script&gt;"]),
    ({"type": "keypress", "keys": ["Control", "a"]}, ["Control+a"]),
    ({"type": "done", "answer": "March 14"}, ["done: March 14"]),
])
def test_overlays_draw_each_action(action, needles):
    svg = str(overlay_svg(action, (1280, 720)))
    assert svg.startswith('<svg class="overlay" viewBox="0 0 1280 720"') and "<script>" not in svg
    for n in needles:
        assert n in svg
    assert "unparsed reply: bad" in str(overlay_svg({"type": "screenshot"}, (1280, 720), parse_error="bad"))


def fake_run(root: Path, label: str, passes: dict[str, list[bool | None]]) -> Path:
    """A run folder; a None result is an ungraded episode (a judged task with no judge configured)."""
    rows = []
    for task, results in passes.items():
        for sample, result in enumerate(results):
            ok = bool(result)
            edir = Path("episodes") / task.replace("/", "__") / f"s{sample}"
            (root / edir).mkdir(parents=True)
            for i in range(3):
                Image.new("RGB", (1280, 720), (40 * i, 90, 200)).save(root / edir / f"{i:03d}.png")
            steps = [{"step": 1, "action": {"type": "click", "x": 100, "y": 100, "button": "left"}, "error": "",
                      "url": "/", "ms": 10.0, "screenshot": "001.png", "text": "Thought: click\nAction: click(...)",
                      "usage": {"prompt_tokens": 90, "completion_tokens": 10, "total_tokens": 100, "latency_ms": 50},
                      "parse_error": ""},
                     {"step": 2, "action": {"type": "screenshot"}, "error": "", "url": "/", "ms": 10.0,
                      "screenshot": "002.png", "text": "hmm", "usage": {}, "parse_error": "no 'Action:' line"}]
            traj = {"task_id": task, "app": task.split("/")[0], "agent": label, "goal": f"Do {task}", "seed": 0,
                    "now": None, "sample": sample, "first_screenshot": "000.png", "steps": steps,
                    "reward": float(ok), "verify": {"score": float(ok), "passed": ok, "checks": [
                        {"name": "the row", "kind": "row", "passed": ok, "detail": "found what was looked for"}],
                        **({"status": "ungraded", "ungraded_reason": JUDGE_ENV_HELP} if result is None else {})},
                    "viewport": [1280, 720]}
            (root / edir / "trajectory.json").write_text(json.dumps(traj))
            rows.append({"task_id": task, "app": task.split("/")[0], "difficulty": "easy", "template": "t1",
                         "agent": label, "sample": sample, "reward": float(ok), "passed": ok, "steps": 2,
                         "ungraded": result is None,
                         "seconds": 1.5, "error": None, "answer": None, "tokens": 100, "episode_dir": str(edir),
                         "parse_errors": 1, "action_errors": 0, "model_calls": 2, "model_ms": 100.0})
    (root / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return root


def test_write_report_compares_runs_and_links_screenshots(tmp_path):
    a = fake_run(tmp_path / "a", "model-a", {"mail/x": [True, False], "food/y": [False, False]})
    b = fake_run(tmp_path / "b", "model-b", {"mail/x": [False, False], "food/y": [True, True]})
    index = write_report([a, b], tmp_path / "rep")
    html = index.read_text()
    assert "model-a vs model-b" in html and "pass@2" in html and "unparsed reply (steps)" in html
    assert html.count("episode-link") == 8
    page = tmp_path / "rep" / "episodes" / "0" / "mail__x__s0.html"
    text = page.read_text()
    for src in ("../../../a/episodes/mail__x/s0/000.png", "../../../a/episodes/mail__x/s0/001.png",
                "../../../a/episodes/mail__x/s0/002.png"):
        assert f'src="{src}"' in text and (page.parent / src).resolve().exists()
    assert "click (100, 100)" in text and "no &#39;Action:&#39; line" in text and "found what was looked for" in text

    alone = write_report([a], tmp_path / "standalone", copy_images=True)
    text = (alone.parent / "episodes" / "0" / "mail__x__s0.html").read_text()
    assert 'src="../../img/0/episodes/mail__x/s0/000.png"' in text
    assert (alone.parent / "img" / "0" / "episodes" / "mail__x" / "s0" / "000.png").exists()


def test_the_report_rates_graded_episodes_and_says_why_others_are_ungraded(tmp_path):
    a = fake_run(tmp_path / "a", "oracle", {"mail/x": [True], "mail/judged-y": [None], "food/z": [True]})
    b = fake_run(tmp_path / "b", "other", {"mail/x": [False], "mail/judged-y": [True], "food/z": [True]})
    html = write_report([a, b], tmp_path / "rep").read_text()
    runs = html.split('<table id="runs">', 1)[1].split("</table>", 1)[0]
    oracle_row = next(tr for tr in runs.split("<tr>") if "<b>oracle</b>" in tr)
    assert "100%" in oracle_row and "67%" not in oracle_row  # 2 of 2 graded, not 2 of 3
    assert '<p class="ungraded-note"><b>oracle</b>: 1 episode ungraded (no judge configured)' in html
    assert "--judge-base-url" in html and "README.md#judged-tasks" in html
    assert "s0 ungraded" in html and 'class="pill ungraded episode-link"' in html
    versus = html.split('<table id="versus">', 1)[1].split("</table>", 1)[0]
    assert "mail/judged-y" not in versus  # ungraded in one run: no comparison to make
