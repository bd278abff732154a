"""`uigym qa` end to end on two fixture apps: every planted defect caught with the right kind, and the clean
app passing with zero defects; the reports are written; the CLI exits non-zero on defects."""

from __future__ import annotations

import json

import pytest

from agent_harness.qa import QAConfig, run_qa

DEFECTS = "tests.fixture_apps.qa_defects"
CLEAN = "tests.fixture_apps.qa_clean"

# (kind, what it is about: the element's name, or a piece of the detail) for each planted defect.
PLANTED = {
    ("dead_control", "Archive"),
    ("dead_control", "Print"),
    ("http_error", "Reports"),
    ("js_error", "Refresh"),
    ("console_error", "could not load the carousel"),
    ("failed_request", "Sync"),
    ("broken_image", "/img/missing.png"),
    ("broken_image", "/img/blank.png"),
    ("empty_results", "search: Thai"),
    ("mismatched_results", "cuisine filter: Italian"),
    ("unnamed", ""),  # the icon-only button
    ("unnamed", "Fancy"),  # a clickable <span> without a role
    ("text_overflow", "Limited time offer for everyone"),
    ("unreachable", "Hidden settings"),
}


def _about(d) -> str:
    if d.kind in ("console_error", "broken_image"):
        return next(p for k, p in PLANTED if k == d.kind and p in d.detail)
    return (d.element or {}).get("name", "")


@pytest.fixture(scope="module")
async def defects_report(runtime, tmp_path_factory):
    report = await run_qa(DEFECTS, QAConfig(workers=2, tasks=False), runtime=runtime)
    out = tmp_path_factory.mktemp("qa-defects")
    report.write(out)
    return report, out


async def test_every_planted_defect_is_caught_with_its_kind(defects_report):
    report, _ = defects_report
    found = {(d.kind, _about(d)) for d in report.defects}
    assert PLANTED <= found, f"missed: {sorted(PLANTED - found)}"
    assert found <= PLANTED, f"false positives: {sorted(found - PLANTED)}"
    assert not report.errors, report.errors
    assert not report.ok
    # Each defect points at its page, and the control-level ones at the control QA exercised.
    by = {(d.kind, _about(d)): d for d in report.defects}
    assert by[("http_error", "Reports")].detail == "leads to /reports, which answers 500"
    assert by[("js_error", "Refresh")].page == "/" and "refreshFeed is not defined" in by[("js_error", "Refresh")].detail
    assert by[("console_error", "could not load the carousel")].page == "/gallery"
    assert "only closes" in by[("dead_control", "Print")].detail
    assert by[("dead_control", "Print")].state == "click button 'More'"


async def test_report_files_show_each_defect_with_a_screenshot(defects_report):
    _, out = defects_report
    data = json.loads((out / "report.json").read_text())
    assert data["ok"] is False and len(data["defects"]) == len(PLANTED)
    cov = data["coverage"]
    assert cov["pages"] >= 4 and cov["exercised"] >= 15 and cov["dialog_states"] >= 1
    assert cov["defects_by_kind"]["dead_control"] == 2
    for d in data["defects"]:
        assert d["screenshot"], d
        assert (out / d["screenshot"]).stat().st_size > 1000
    html = (out / "report.html").read_text()
    assert "Coverage" in html and "Controls that do nothing" in html and "shots/" in html


async def test_clean_app_has_zero_defects(runtime, tmp_path):
    report = await run_qa(CLEAN, QAConfig(workers=2, tasks=False), runtime=runtime)
    assert report.defects == [], [(d.kind, d.page, d.element, d.detail) for d in report.defects]
    assert not report.errors, report.errors
    cov = report.coverage()
    # It really went everywhere: pages, the dialog and the menu, the rows, the queries.
    assert cov["pages"] >= 4 and cov["dialog_states"] >= 2 and cov["exercised"] >= 20, cov
    assert cov["queries"] == 4
    outcomes = {(p["name"], p["outcome"]) for p in report.probes}
    assert ("Cancel", "closed") in outcomes  # closing is a dialog's Cancel button's job
    assert ("All", "already_selected") in outcomes  # the selected tab
    assert ("i", "tooltip") in outcomes  # a title tooltip on a non-control
    assert any(n.startswith("Star ") and o == "dom_changed" for n, o in outcomes)
    report.write(tmp_path)
    assert json.loads((tmp_path / "report.json").read_text())["ok"] is True


def test_cli_exit_status(tmp_path):
    """In-process (a fresh event loop, so its own Chromium; the app servers are shared): exit 1 on defects,
    0 on none, 2 on a bad app name."""
    from typer.testing import CliRunner

    from agent_harness.cli import app

    runner = CliRunner()
    small = ["--pages", "1", "--max-elements", "2", "--no-queries", "--no-tasks"]
    bad = runner.invoke(app, ["qa", "--app", DEFECTS, *small, "--out", str(tmp_path / "d")])
    assert bad.exit_code == 1, bad.output
    assert (tmp_path / "d" / "report.json").exists() and (tmp_path / "d" / "report.html").exists()
    good = runner.invoke(app, ["qa", "--app", CLEAN, *small, "--out", str(tmp_path / "c")])
    assert good.exit_code == 0, good.output
    assert "uigym qa: coverage" in good.output
    unknown = runner.invoke(app, ["qa", "--app", "nosuchapp", "--out", str(tmp_path / "x")])
    assert unknown.exit_code == 2
