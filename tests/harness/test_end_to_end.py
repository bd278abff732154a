"""End to end: `uigym serve` with the tiny model, `uigym eval --agent openai --base-url ...` over HTTP on
three tasks, results.jsonl and the HTML report; the report opened in Chromium shows the trajectories."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from agent_harness.runner import EvalConfig, read_results, run_eval
from tests.harness.conftest import REPO
from tests.harness.toy_tasks import toy_tasks, write_tasks_dir


def uigym(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "agent_harness.cli", *map(str, args)], cwd=REPO, capture_output=True,
                          text=True, timeout=timeout)


async def images_loaded(page) -> list[int]:
    """naturalWidth of every screenshot, once each has been scrolled into view (they load lazily)."""
    widths = []
    for img in await page.locator(".shot img").all():
        await img.scroll_into_view_if_needed()
        await page.wait_for_function("el => el.complete", arg=await img.element_handle(), timeout=10_000)
        widths.append(await img.evaluate("el => el.naturalWidth"))
    return widths


@pytest.mark.slow
async def test_serve_eval_report_end_to_end(tiny_server, tmp_path, toy_runtime):
    tasks_dir = write_tasks_dir(tmp_path / "tasks")
    run = tmp_path / "tiny"
    r = uigym("eval", "--agent", "openai", "--base-url", tiny_server, "--format", "json", "--tasks-dir", tasks_dir,
              "--app-module", "mail=tests.fixture_apps.toy", "--max-steps", "2", "--workers", "2", "--out", run,
              "--max-tokens", "12", "--max-pixels", str(28 * 28 * 64), "--temperature", "1.0", "--seed", "1",
              "--logprobs", "--label", "tiny-vlm")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "report:" in r.stdout and "results:" in r.stdout

    rows = read_results(run)
    assert sorted(x["task_id"] for x in rows) == sorted(t.id for t in toy_tasks())
    for row in rows:
        assert row["agent"] == "tiny-vlm" and row["error"] is None and row["steps"] == 2
        assert row["model_calls"] == 2 and row["prompt_tokens"] > 2 * 60 and 0 < row["completion_tokens"] <= 24
        assert row["reward"] == 0.0  # a random model does not solve tasks...
        traj = json.loads((run / row["episode_dir"] / "trajectory.json").read_text())
        for s in traj["steps"]:  # ...but every step went through HTTP and was parsed or reported as unparsable
            assert s["usage"]["latency_ms"] > 0 and "logprob_sum" in s["usage"]
            assert s["parse_error"] or s["action"]["type"] != "screenshot"
    assert sum(x["parse_errors"] for x in rows) >= 1

    # The same tasks with the oracle, then both runs side by side.
    oracle = tmp_path / "oracle"
    await run_eval(EvalConfig(agent="oracle", tasks=toy_tasks(), out=oracle, workers=2), runtime=toy_runtime)
    compare = tmp_path / "compare"
    r = uigym("report", run, oracle, "--out", compare)
    assert r.returncode == 0, r.stderr

    browser = await toy_runtime.browser()
    ctx = await browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        page = await ctx.new_page()
        await page.goto((run / "report" / "index.html").as_uri())
        assert await page.locator("#tasks tr").count() == 1 + 3
        await page.locator("a.episode-link").first.click()
        await page.wait_for_load_state("load")
        assert "/episodes/0/" in page.url
        assert await page.locator(".step").count() == 3  # two steps and the final screen
        assert all(w == 1280 for w in await images_loaded(page))
        assert await page.locator("pre.model-text").count() >= 1
        assert await page.locator("svg.overlay").count() == 2
        await page.screenshot(path=str(tmp_path / "episode.png"), full_page=True)

        await page.goto((compare / "index.html").as_uri())
        header = await page.locator("#runs").inner_text()
        assert "tiny-vlm" in header and "oracle" in header
        assert "only oracle passes" in await page.locator("#versus").inner_text()
        oracle_link = page.locator("#tasks tr", has_text="mail/toy-star-note-2").locator("a.episode-link").nth(1)
        await oracle_link.click()
        await page.wait_for_load_state("load")
        assert all(w == 1280 for w in await images_loaded(page))
        assert await page.locator("svg.overlay circle").count() >= 1  # the click is drawn on the screenshot
        assert await page.locator(".checks td.pass").count() >= 1  # the verifier's checks
    finally:
        await ctx.close()
