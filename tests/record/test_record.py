"""`uigym record` with Playwright as the annotator: it clicks and types on the displayed screenshot, finishes a
task; the saved trajectory grades 1 and replays through env.step, in a fresh world, to the same end state.
The queue mode through the CLI: progress, skipping, an answer, tasks already demonstrated left out."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

from agent_harness.locate import box_of, find
from agent_harness.record import RecordConfig, Recorder, RecordServer, demonstrated, replay_episode
from agent_harness.runner import ResultsWriter, read_results
from agent_harness.trajectory import Trajectory
from gym_core.env import AsyncUIEnv
from tasks import Target
from tests.harness.toy_tasks import APP_MODULES, toy_tasks, write_tasks_dir

REPO = Path(__file__).resolve().parents[2]


async def idle(page, timeout: float = 20_000) -> None:
    """Wait as a person would: until the input has been sent and the new screen is shown."""
    await page.wait_for_function("document.body.dataset.idle === '1'", timeout=timeout)


async def target_center(env: AsyncUIEnv, **target) -> tuple[int, int]:
    """Where a person sees the element on the screen (the recorder's screen has the same layout)."""
    return (await box_of(await find(env.page, Target(**target)))).center


async def test_playwright_annotator_records_a_demonstration(toy_runtime, tmp_path):
    task = next(t for t in toy_tasks() if t.id == "mail/toy-add-note")
    out = tmp_path / "demos"
    recorder = Recorder(RecordConfig(tasks=[task], out=out, annotator="pw", app_modules=APP_MODULES))
    await asyncio.to_thread(recorder.start)  # its env runs on its own loop, in its own thread
    server = RecordServer(recorder).start()
    env = AsyncUIEnv(None, runtime=toy_runtime, world_id="record-test-replay")
    ctx = await (await toy_runtime.browser()).new_context(viewport={"width": 1700, "height": 1000})
    try:
        await env.reset(task=task)
        title = await target_center(env, role="textbox", name="Title")

        page = await ctx.new_page()
        await page.goto(server.url)
        await idle(page)
        assert await page.locator("#goal").inner_text() == task.goal
        shot = page.locator("#screen")
        assert await shot.evaluate("i => [i.naturalWidth, i.naturalHeight]") == [1280, 720]
        box = await shot.bounding_box()
        assert (box["width"], box["height"]) == (1280, 720)  # shown 1:1

        def at(x: int, y: int) -> tuple[float, float]:
            return box["x"] + x + 0.5, box["y"] + y + 0.5

        # A false start: a double click, a drag and a right click are recorded as such... then Restart.
        await page.mouse.dblclick(*at(600, 40))
        await idle(page)
        await page.mouse.move(*at(700, 100))
        await page.mouse.down()
        await page.mouse.move(*at(760, 130), steps=5)
        await page.mouse.move(*at(820, 160), steps=5)
        await page.mouse.up()
        await idle(page)
        await page.mouse.click(*at(900, 600), button="right")
        await idle(page)
        state = json.loads(await page.evaluate("fetch('/api/state').then(r => r.text())"))
        assert [a["text"] for a in state["actions"]] == [
            "double_click (600, 40)", state["actions"][1]["text"], "click right (900, 600)"]
        assert state["actions"][1]["text"].startswith("drag (700, 100) → (820, 160)")
        assert await page.locator("#step").inner_text() == "step 3 / 8"
        await page.click("#restart")
        await idle(page)
        assert await page.locator("#step").inner_text() == "step 0 / 8"

        # The demonstration: click the field, type, select all (a chord), type again, fix a typo, scroll, Enter.
        await page.mouse.click(*at(*title))
        await idle(page)
        await page.keyboard.type("Buy")
        await idle(page)
        await page.keyboard.press("Control+a")
        await idle(page)
        await page.keyboard.type("Buy milkk")
        await idle(page)
        await page.keyboard.press("Backspace")
        await idle(page)
        await page.mouse.move(*at(640, 500))
        await page.mouse.wheel(0, 120)
        await idle(page)
        await page.keyboard.press("Enter")  # submits the form: the note is added
        await idle(page)
        assert await page.locator("#step").inner_text() == "step 7 / 8"
        await page.click("#done")
        await idle(page)
        assert (await page.locator("#verdict").inner_text()).startswith("✓ Passed")
        await page.screenshot(path=str(tmp_path / "record-page.png"))
    finally:
        await ctx.close()
        await asyncio.to_thread(server.close)

    rows = read_results(out)
    assert len(rows) == 1  # the false start was discarded
    row = rows[0]
    assert row["agent"] == "human:pw" and row["annotator"] == "pw" and row["reward"] == 1.0 and row["passed"]
    assert row["look"] == "gmail"  # the look the demonstration was shown in (the toy app served as mail)
    edir = out / row["episode_dir"]
    traj = Trajectory.load(edir / "trajectory.json")
    assert traj.annotator == "pw" and traj.reward == 1.0 and traj.verify["passed"] and traj.start_url == "/"
    assert [s.action for s in traj.steps] == [
        {"type": "click", "x": title[0], "y": title[1], "button": "left"},
        {"type": "type", "text": "Buy"},
        {"type": "keypress", "keys": ["Control", "a"]},
        {"type": "type", "text": "Buy milkk"},
        {"type": "keypress", "keys": ["Backspace"]},
        {"type": "scroll", "x": 640, "y": 500, "dx": 0, "dy": 120},
        {"type": "keypress", "keys": ["Enter"]},
        {"type": "done"},
    ]
    assert all(s.usage["env_ms"] > 0 and s.usage["think_ms"] >= 0 and not s.error for s in traj.steps)
    assert sorted(p.name for p in edir.glob("*.png")) == [f"{i:03d}.png" for i in range(9)]
    assert json.loads((edir / "state_diff.json").read_text())["notes"]["created"][0]["title"] == "Buy milk"

    # Replayed through env.step in a fresh world: the same grade and the same end state.
    result = await replay_episode(edir, env)
    await env.close()
    assert result.ok, result.describe()
    assert result.reward == 1.0 and result.same_state is True and result.steps == 8


def _start_cli(args: list[str]) -> tuple[subprocess.Popen, str, list[str]]:
    proc = subprocess.Popen([sys.executable, "-m", "agent_harness.cli", *args], cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    found = threading.Event()

    def read():
        for line in proc.stdout:
            lines.append(line)
            if "UIGYM_RECORD_READY url=" in line:
                found.set()

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + 180
    while not found.is_set() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    if not found.is_set():
        proc.terminate()
        raise AssertionError("uigym record did not start:\n" + "".join(lines))
    url = next(ln for ln in lines if "UIGYM_RECORD_READY" in ln).split("url=")[1].strip()
    return proc, url, lines


async def test_record_queue_cli(toy_runtime, tmp_path):
    tasks_dir = write_tasks_dir(tmp_path / "tasks")
    out = tmp_path / "demos"
    # Someone already demonstrated one task: the queue leaves it out.
    ResultsWriter(out).append({"task_id": "mail/toy-add-note", "agent": "human:earlier", "sample": 0, "reward": 1.0,
                               "passed": True, "error": None, "app": "mail", "episode_dir": "episodes/x/s0"})
    proc, url, lines = _start_cli(["record", "--tasks", "mail/toy-*", "--tasks-dir", str(tasks_dir), "--app-module",
                                   "mail=tests.fixture_apps.toy", "--out", str(out), "--annotator", "q",
                                   "--port", "0"])
    ctx = await (await toy_runtime.browser()).new_context(viewport={"width": 1700, "height": 1000})
    try:
        assert url.startswith("http://127.0.0.1:")
        page = await ctx.new_page()
        await page.goto(url)
        await idle(page)
        assert "mail/toy-star-note-2" in await page.locator("#task-id").inner_text()
        queue = await page.locator("#queue").inner_text()
        assert "task 1 of 2 to do" in queue and "1 of 3 demonstrated before" in queue
        await page.click("#skip")
        await idle(page)
        assert "mail/toy-third-title" in await page.locator("#task-id").inner_text()
        assert "task 2 of 2" in await page.locator("#queue").inner_text()
        await page.fill("#answer", "Note 2-3")
        await page.click("#done")
        await idle(page)
        assert (await page.locator("#verdict").inner_text()).startswith("✓ Passed")
        assert "1 done now" in await page.locator("#queue").inner_text()
        await page.click("#next")
        await idle(page)
        assert await page.locator("#alldone").is_visible()
        await page.click("#quit")
        assert await asyncio.to_thread(proc.wait, 60) == 0, "".join(lines)
    finally:
        await ctx.close()
        if proc.poll() is None:
            proc.terminate()  # stops like Ctrl-C: its browser and app server go too
            try:
                await asyncio.to_thread(proc.wait, 30)
            except subprocess.TimeoutExpired:
                proc.kill()
    assert "demonstrations passed in this session: 1" in "".join(lines)
    mine = [r for r in read_results(out) if r["agent"] == "human:q"]
    assert [(r["task_id"], r["passed"], r["answer"]) for r in mine] == [("mail/toy-third-title", True, "Note 2-3")]
    assert demonstrated(out) == {"mail/toy-add-note", "mail/toy-third-title"}
    assert not (out / "episodes" / "mail__toy-star-note-2" / "s0").exists()  # the skipped task left nothing
    assert (out / "episodes" / "mail__toy-third-title" / "s0" / "trajectory.json").exists()
