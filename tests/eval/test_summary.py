"""The end-of-run summary `uigym eval` prints: pass rates over graded episodes only, ungraded ones counted
apart with a line saying why and how to grade them, and tables that fit an 80-column terminal."""

from __future__ import annotations

import io
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from agent_harness.summary import SPLIT_COLUMNS, SUMMARY_COLUMNS, group_stats, print_summary
from grading.judge import JUDGE_ENV_HELP
from tasks.schema import APPS


def row(task_id: str, *, passed: bool = True, ungraded: bool = False, error: str | None = None,
        difficulty: str = "easy", generalisation: str = "test", seconds: float = 5.8, steps: int = 11,
        episode_dir: str = "") -> dict:
    return {"task_id": task_id, "app": task_id.split("/")[0], "difficulty": difficulty, "passed": passed,
            "reward": 1.0 if passed else 0.0, "ungraded": ungraded, "error": error, "steps": steps,
            "seconds": seconds, "generalisation": generalisation, "sample": 0, "episode_dir": episode_dir}


def render(rows: list[dict], out: Path | None = None, width: int = 80) -> str:
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    print_summary(rows, title="uigym eval: oracle", console=console, out=out)
    return console.export_text()


def gold_run() -> list[dict]:
    """The oracle over 6 state-graded tasks (all pass) and 3 judged ones with no judge (ungraded)."""
    return ([row(f"mail/task-{i}", difficulty=("easy", "medium", "hard")[i % 3]) for i in range(6)]
            + [row(f"mail/judged-{i}", passed=False, ungraded=True, difficulty="medium") for i in range(3)])


def test_the_pass_rate_is_over_graded_episodes_and_ungraded_ones_are_their_own_count():
    stats = {(s["app"], s["difficulty"]): s for s in group_stats(gold_run())}
    everything = stats[("all", "")]
    assert (everything["episodes"], everything["graded"], everything["ungraded"]) == (9, 6, 3)
    assert everything["pass_rate"] == 1.0 and everything["mean_reward"] == 1.0
    medium = stats[("mail", "medium")]
    assert (medium["episodes"], medium["ungraded"], medium["pass_rate"]) == (5, 3, 1.0)
    text = render(gold_run())
    all_line = next(line for line in text.splitlines() if line.startswith("all"))
    assert all_line.split()[1:6] == ["9", "3", "0", "100%", "1.00"]  # episodes ungraded errors pass-rate reward
    assert "67%" not in text  # 6/9: the misleading rate that counted ungraded episodes as failures


def test_an_error_is_a_graded_failure_and_a_group_with_nothing_graded_has_no_rate():
    rows = [row("food/a"), row("food/b", passed=False, error="TimeoutError: episode"),
            row("crm/judged", passed=False, ungraded=True)]
    stats = {s["app"]: s for s in group_stats(rows)}
    assert stats["food"]["pass_rate"] == 0.5 and stats["food"]["errors"] == 1
    assert stats["crm"]["pass_rate"] is None and stats["crm"]["mean_reward"] is None
    crm_line = next(line for line in render(rows).splitlines() if line.startswith("crm"))
    assert crm_line.split()[-4:-2] == ["-", "-"]  # pass rate and mean reward: nothing graded


def test_the_ungraded_line_says_why_and_names_the_judge_options_and_the_readme_section(tmp_path):
    rows = gold_run()
    for r in rows:
        if r["ungraded"]:  # the trajectory's verifier report, as the episode wrote it
            r["episode_dir"] = f"episodes/{r['task_id'].replace('/', '__')}/s0"
            (tmp_path / r["episode_dir"]).mkdir(parents=True)
            (tmp_path / r["episode_dir"] / "trajectory.json").write_text(json.dumps(
                {"verify": {"status": "ungraded", "ungraded_reason": JUDGE_ENV_HELP}}))
    text = " ".join(render(rows, out=tmp_path).split())  # the line as one, however the console wrapped it
    assert "3 episodes ungraded (no judge configured), left out of pass rates" in text
    assert "--judge-base-url URL --judge-model NAME --retry-errors" in text and "README.md#judged-tasks" in text
    assert "ungraded" not in render([row("mail/a"), row("mail/b", passed=False)]).split("\n", 4)[-1]


def test_the_readme_section_the_line_points_to_exists():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert "\n### Judged tasks\n" in readme and "--judge-base-url" in readme


def assert_fits_80_columns(text: str) -> None:
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80, "\n" + text
    assert "…" not in text, "a header or a value was cut:\n" + text
    shown = SUMMARY_COLUMNS + (SPLIT_COLUMNS if "by generalisation split" in text else [])
    for header, _ in shown:
        for part in header.splitlines():
            assert any(part in line.split() or f" {part} " in f" {line} " for line in lines), (part, text)


def test_the_summary_of_the_bundled_run_fits_80_columns():
    rows = [row(f"{app}/t-{i}", difficulty=d, generalisation=g, ungraded=i % 10 == 0, passed=i % 10 != 0)
            for app in APPS for d in ("easy", "medium", "hard") for i in range(72)
            for g in ("test", "heldout-template")]
    text = render(rows)
    assert_fits_80_columns(text)
    assert "by generalisation split" in text and "heldout-template" in text


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.builds(
    dict, app=st.sampled_from(APPS), difficulty=st.sampled_from(["easy", "medium", "hard"]),
    generalisation=st.sampled_from(["train", "test", "heldout-seed", "heldout-template"]),
    passed=st.booleans(), ungraded=st.booleans(), error=st.booleans(),
    copies=st.sampled_from([1, 2, 150, 10_500]),  # counts of 1 to 5 digits
    seconds=st.floats(0, 99_999, allow_nan=False), steps=st.integers(0, 99_999)), min_size=1, max_size=6))
def test_any_summary_fits_80_columns_with_every_header_whole(specs):
    rows = []
    for i, s in enumerate(specs):
        rows += [row(f"{s['app']}/t-{i}", passed=s["passed"] and not s["ungraded"], ungraded=s["ungraded"],
                     error="Boom: x" if s["error"] and not s["ungraded"] else None, difficulty=s["difficulty"],
                     generalisation=s["generalisation"], seconds=s["seconds"], steps=s["steps"])] * s["copies"]
    assert_fits_80_columns(render(rows))


def test_several_looks_get_a_pass_rate_each_and_the_held_out_one_is_marked():
    """Issue #37: the pass rate per look (a policy trained on one look, evaluated on the other)."""
    rows = [{**row(f"food/t-{i}"), "look": "doordash"} for i in range(4)]
    rows += [{**row(f"food/t-{i}", passed=i < 1), "look": "ubereats"} for i in range(4)]
    text = render(rows)
    assert "by look" in text
    line = {ln.split()[1]: ln for ln in text.splitlines() if ln.startswith("food ") and len(ln.split()) > 2}
    assert "100%" in line["doordash"] and "25%" in line["ubereats"] and "(held out)" in line["ubereats"]
    assert max(len(ln) for ln in text.splitlines()) <= 80
    assert "by look" not in render([{**r, "look": "doordash"} for r in rows[:4]])  # one look: no table
