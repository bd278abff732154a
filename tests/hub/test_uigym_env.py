"""uigym as a verifiers environment, on the toy app (served as "mail"): loaded through verifiers' own
loader and run by verifiers' own eval loop (verifiers.v1.cli.eval.runner.run_eval) against a scripted
OpenAI-compatible server. Gold replies earn 1.0, nonsense earns 0 with no crash and no leaked world or
browser context, and the scores equal `uigym eval`'s for the same replies; the same in tools mode."""

from __future__ import annotations

import json

import pytest

import uigym_env  # noqa: F401
import verifiers.v1 as vf
from verifiers.v1.cli.eval.runner import run_eval as vf_run_eval
from verifiers.v1.configs.cli.eval import EvalConfig as VFEvalConfig

from agent_harness.formats import FormatContext, get_format, render
from agent_harness.runner import EvalConfig, run_eval
from gym_core import AsyncUIEnv
from gym_core.server import ServerError
from tests.harness.fake_openai import FakeOpenAI, texts_in
from tests.harness.toy_tasks import APP_MODULES, TASKS, toy_tasks, write_tasks_dir
from uigym_env.harness import close_runtimes, uigym_runtime
from uigym_env.loader import env_config

GOALS = {t["goal"]: t for t in TASKS}
UI_TASKS = "mail/toy-star-note-2,mail/toy-third-title"  # the toy tasks whose UI solution is one click or none


def env_cfg(tmp_path, mode="ui", tasks=UI_TASKS):
    return env_config(mode=mode, tasks=tasks, tasks_dir=str(write_tasks_dir(tmp_path / "tasks")),
                      app_modules=APP_MODULES)


async def vf_eval(tmp_path, api: FakeOpenAI, cfg: vf.EnvConfig) -> dict[str, vf.Trace]:
    """verifiers' eval loop, as `vf-eval` runs it, one rollout per task; the traces by task id."""
    config = VFEvalConfig(env=cfg, model=api.model, client={"base_url": api.base_url,
                                                           "api_key_var": "UIGYM_TEST_KEY"},
                          push=False, rich=None, output_dir=tmp_path / "vf-out", max_concurrent=1)
    episodes = await vf_run_eval(config)
    traces = [t for e in episodes for t in e.traces]
    return {t.task.data.id: t for t in traces}


def task_of(body: dict) -> dict:
    text = texts_in(body)
    return next(t for goal, t in GOALS.items() if f"Task: {goal}" in text or goal in text)


def turns(body: dict) -> int:
    return sum(1 for m in body["messages"] if m["role"] == "assistant")


def gold_ui(star: tuple[int, int]):
    """The gold replies in uigym's json format: the star button's click, then done (with the answer)."""
    def reply(body: dict) -> dict:
        t = task_of(body)
        if t["id"] == "mail/toy-star-note-2" and turns(body) == 0:
            action = {"type": "click", "x": star[0], "y": star[1]}
        elif t["id"] == "mail/toy-third-title":
            action = {"type": "done", "answer": "Note 2-3"}
        else:
            action = {"type": "done"}
        return render("json", action).message()
    return reply


def gold_tools(body: dict) -> dict:
    """Each task's tool plan, one call per turn."""
    t = task_of(body)
    step = t["tools"]["solution"][turns(body)]
    call = {"id": f"c{turns(body)}", "type": "function",
            "function": {"name": step["tool"], "arguments": json.dumps(step.get("args", {}))}}
    return {"role": "assistant", "content": "", "tool_calls": [call]}


async def star_center(runtime) -> tuple[int, int]:
    env = AsyncUIEnv("mail", runtime=runtime)
    try:
        await env.reset(seed=1)
        b = await env.page.get_by_role("button", name="Star Note 1-2").bounding_box()
        return int(b["x"] + b["width"] / 2), int(b["y"] + b["height"] / 2)
    finally:
        await env.close()


async def assert_nothing_leaked(world_ids=()):
    """No browser context left open by the rollouts, and their worlds dropped from the app server."""
    rt = uigym_runtime(env_cfg_harness())
    browser = await rt.browser()
    assert browser.contexts == [], f"{len(browser.contexts)} browser contexts leaked"
    control = rt.control(await rt.server("mail"))
    for wid in world_ids:
        assert wid
        with pytest.raises(ServerError, match="does not exist"):
            await control.state(wid)


def env_cfg_harness():
    from uigym_env.harness import UIGymHarnessConfig

    return UIGymHarnessConfig(app_modules=APP_MODULES)


@pytest.fixture
async def cleanup():
    yield
    await close_runtimes()


async def test_loaded_by_verifiers_loader_with_uigyms_tasks(tmp_path):
    env = vf.load_environment(env_cfg(tmp_path, tasks="mail/*"))
    assert type(env).__name__ == "UIGymEnv"
    tasks = list(env.taskset)
    assert sorted(t.data.id for t in tasks) == sorted(t.id for t in toy_tasks())
    star = next(t for t in tasks if t.data.id == "mail/toy-star-note-2")
    assert star.data.prompt == "Star the note titled 'Note 1-2'." and star.data.app == "mail"
    assert star.data.task["verify"]["checks"][0]["table"] == "notes"
    assert env.config.agent.harness.id == "uigym-env" and env.config.agent.runtime.type == "subprocess"
    with pytest.raises(ValueError, match="no uigym task matches"):
        list(vf.load_environment(env_cfg(tmp_path, tasks="mail/nope-*")).taskset)
    with pytest.raises(ValueError, match="mode must be"):
        env_config(mode="screen")
    with pytest.raises(ValueError, match="unknown action format 'nope'"):
        env_config(format="nope")
    with pytest.raises(ValueError, match="WIDTHxHEIGHT"):
        env_config(image_size="big")


async def test_gold_replies_earn_1_nonsense_earns_0_and_uigym_eval_agrees(tmp_path, cleanup):
    star = await star_center(uigym_runtime(env_cfg_harness()))
    with FakeOpenAI([gold_ui(star)] * 20) as api:
        traces = await vf_eval(tmp_path / "gold", api, env_cfg(tmp_path))
        gold_requests = list(api.requests)
    assert set(traces) == {"mail/toy-star-note-2", "mail/toy-third-title"}
    for tid, tr in traces.items():
        assert tr.ok and tr.last_error is None, (tid, tr.last_error)
        assert tr.reward == 1.0 and tr.rewards["uigym_verifier"].score == 1.0, tid
        assert tr.state.passed and tr.state.verify["status"] == "graded" and tr.state.verify["passed"] and tr.state.world_closed
        assert all(c["passed"] for c in tr.state.verify["checks"])
    assert traces["mail/toy-star-note-2"].state.steps == 2
    # what the model saw: the format's system prompt, the goal and a screenshot as an image part
    first = gold_requests[0]
    screen = FormatContext(screen=(1280, 720), image=(1280, 720))
    assert first["messages"][0] == {"role": "system", "content": get_format("json").system_prompt(screen)}
    assert "Task: Star the note titled 'Note 1-2'." in texts_in(first) or "Task: What is" in texts_in(first)
    assert any(p.get("type") == "image_url" for p in first["messages"][1]["content"])
    assert {tr.info["uigym"]["verify"]["passed"] for tr in traces.values()} == {True}  # the serialized record
    await assert_nothing_leaked([tr.state.world_id for tr in traces.values()])

    with FakeOpenAI(["I would rather not.", "{not json"] * 20) as api:
        bad = await vf_eval(tmp_path / "bad", api, env_cfg(tmp_path))
    for tid, tr in bad.items():
        assert tr.ok and tr.reward == 0.0 and tr.state.passed is False, tid
        assert tr.state.parse_errors == tr.state.steps > 0 and tr.state.world_closed
        assert tr.state.verify["status"] == "graded" and tr.state.verify["passed"] is False
    await assert_nothing_leaked([tr.state.world_id for tr in bad.values()])

    # uigym eval, same tasks, same replies: the same scores
    with FakeOpenAI([gold_ui(star)] * 20) as api:
        rows = await run_eval(EvalConfig(agent="openai", tasks=[t for t in toy_tasks() if t.id in traces],
                                         out=tmp_path / "uigym-out", workers=1, app_modules=APP_MODULES,
                                         agent_kwargs={"base_url": api.base_url, "format": "json"}))
    assert {r["task_id"]: r["reward"] for r in rows} == {tid: tr.reward for tid, tr in traces.items()}


async def test_tools_mode_tool_plans_earn_1_and_wrong_calls_0(tmp_path, cleanup):
    with FakeOpenAI([gold_tools] * 20) as api:
        traces = await vf_eval(tmp_path / "gold", api, env_cfg(tmp_path, mode="tools", tasks="mail/*"))
        reqs = list(api.requests)
    assert len(traces) == 3
    for tid, tr in traces.items():
        assert tr.ok and tr.reward == 1.0 and tr.state.verify["passed"], (tid, tr.last_error)
    assert "star_note" in {t["function"]["name"] for t in reqs[0]["tools"]}

    def wrong(body: dict) -> dict:  # each task's first near miss
        t = task_of(body)
        step = t["tools"]["near_misses"][0][min(turns(body), len(t["tools"]["near_misses"][0]) - 1)]
        return {"role": "assistant", "content": "", "tool_calls": [{
            "id": f"w{turns(body)}", "type": "function",
            "function": {"name": step["tool"], "arguments": json.dumps(step.get("args", {}))}}]}

    with FakeOpenAI([wrong] * 20) as api:
        misses = await vf_eval(tmp_path / "miss", api, env_cfg(tmp_path, mode="tools", tasks="mail/*"))
    assert {tid: tr.reward for tid, tr in misses.items()} == {tid: 0.0 for tid in traces}
    assert all(tr.state.world_closed for tr in misses.values())

    # uigym eval --mode tools, same replies: the same scores (each run in its own folder: the runner resumes)
    rows_seen: list = []
    for reply, expected in ((gold_tools, traces), (wrong, misses)):
        with FakeOpenAI([reply] * 20) as api:
            rows = await run_eval(EvalConfig(agent="openai", mode="tools", tasks=toy_tasks(), out=tmp_path / f"u-{len(rows_seen)}",
                                             workers=1, app_modules=APP_MODULES, agent_kwargs={"base_url": api.base_url}))
        rows_seen.append(rows)
        assert {r["task_id"]: r["reward"] for r in rows} == {tid: tr.reward for tid, tr in expected.items()}


async def test_a_cancelled_rollout_releases_its_world(tmp_path, cleanup):
    import asyncio
    import threading

    asked, release = threading.Event(), threading.Event()

    def stall(body: dict) -> dict:  # the model "thinks" until the rollout is cancelled
        asked.set()
        release.wait(60)
        return {"role": "assistant", "content": "too late"}

    with FakeOpenAI([stall] * 5) as api:
        run = asyncio.ensure_future(vf_eval(tmp_path, api, env_cfg(tmp_path, tasks="mail/toy-star-note-2")))
        assert await asyncio.to_thread(asked.wait, 120), "the rollout never asked the model"
        rt = uigym_runtime(env_cfg_harness())
        assert len((await rt.browser()).contexts) == 1  # the rollout's world is open now
        run.cancel()
        with pytest.raises(asyncio.CancelledError):
            await run
        release.set()
    await assert_nothing_leaked()


def test_vf_eval_cli_runs_the_env(tmp_path):
    """`vf-eval uigym-env ...` (verifiers' own CLI, a subprocess) on the toy tasks: the answer task earns 1.0
    from the verifier, the others 0 (the model only says done), every rollout ok."""
    import os
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    vf_eval_bin = shutil.which("vf-eval", path=str(Path(sys.executable).parent))
    assert vf_eval_bin, "vf-eval is not installed beside this python"
    done = render("json", {"type": "done", "answer": "Note 2-3"}).message()
    with FakeOpenAI([done] * 10) as api:
        r = subprocess.run(
            [vf_eval_bin, "uigym-env", "-m", api.model, "--client.base-url", api.base_url, "--no-push", "--no-rich",
             "-n", "3", "-c", "1", "-o", str(tmp_path / "out"),
             "--env.taskset.tasks-dir", str(write_tasks_dir(tmp_path / "tasks")),
             "--env.agent.harness.id", "uigym-env", "--env.agent.harness.app-modules.mail", APP_MODULES["mail"]],
            cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=540,
            env={**os.environ, "UIGYM_TEST_KEY": "x"})
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    (traces_file,) = (tmp_path / "out").glob("*/traces.jsonl")
    episodes = [json.loads(line) for line in traces_file.read_text().splitlines() if line.strip()]
    scores = {e["traces"][0]["task"]["data"]["id"]: e["traces"][0]["rewards"]["uigym_verifier"]["score"]
              for e in episodes}
    assert scores == {"mail/toy-third-title": 1.0, "mail/toy-add-note": 0.0, "mail/toy-star-note-2": 0.0}
    assert all(e["ok"] for e in episodes)
    record = next(e["traces"][0]["info"]["uigym"] for e in episodes
                  if e["traces"][0]["task"]["data"]["id"] == "mail/toy-third-title")
    assert record["answer"] == "Note 2-3" and record["verify"]["passed"] and record["world_closed"]


def test_vf_eval_cli_against_uigym_serve_tiny(tmp_path, tiny_server):
    """`vf-eval uigym-env` against `uigym serve` with the tiny random model: a real VLM server (images in
    the request, its replies unreadable as actions): every rollout completes, graded 0, the world closed."""
    import os
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    vf_eval_bin = shutil.which("vf-eval", path=str(Path(sys.executable).parent))
    r = subprocess.run(
        [vf_eval_bin, "uigym-env", "-m", "tiny-vlm", "--client.base-url", tiny_server, "--no-push", "--no-rich",
         "-n", "1", "-c", "1", "-o", str(tmp_path / "out"), "--select.include.ids", "mail/toy-star-note-2",
         "--env.taskset.tasks-dir", str(write_tasks_dir(tmp_path / "tasks")),
         "--env.agent.harness.id", "uigym-env", "--env.agent.harness.app-modules.mail", APP_MODULES["mail"],
         "--env.agent.harness.max-turns", "2", "--env.agent.harness.max-tokens", "16",
         "--env.agent.harness.image-size", "224x126"],
        cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=540,
        env={**os.environ, "UIGYM_TEST_KEY": "x"})
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    (traces_file,) = (tmp_path / "out").glob("*/traces.jsonl")
    (episode,) = [json.loads(line) for line in traces_file.read_text().splitlines() if line.strip()]
    trace = episode["traces"][0]
    assert episode["ok"] and trace["rewards"]["uigym_verifier"]["score"] == 0.0
    record = trace["info"]["uigym"]
    assert record["steps"] == 2 and record["world_closed"] and record["verify"]["status"] == "graded"
    assert trace["num_input_tokens"] > 0  # the model was really asked, through the interception


async def test_a_failing_model_endpoint_is_a_failed_rollout_not_a_zero(tmp_path, cleanup):
    with FakeOpenAI([400] * 10) as api:
        traces = await vf_eval(tmp_path, api, env_cfg(tmp_path, tasks="mail/toy-star-note-2"))
    (tr,) = traces.values()
    assert not tr.ok and tr.last_error is not None and "uigym_verifier" not in tr.rewards  # not scored
    assert tr.last_error.type == "ProviderError" and "scripted 400" in tr.last_error.message  # the cause, recorded
    assert tr.info["uigym"]["world_closed"] and tr.info["uigym"]["reward"] is None
    await assert_nothing_leaked([tr.info["uigym"]["world_id"]])
