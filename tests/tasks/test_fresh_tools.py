"""Fresh worlds drawn in tool mode are proven in tool mode (the tools env, never a browser), their verdicts
kept apart from browser ones, and served through the env and the trainer path; a failing instance is never
served and its reason is recorded; a held-out seed never reaches a training draw."""

from __future__ import annotations

import asyncio

import gymnasium as gym
import pytest

import gym_core  # noqa: F401 - registers the ids
import gym_core.runtime
from agent_harness import fresh as fresh_mod
from agent_harness.fresh import supply
from tasks.fresh import HELDOUT_SEED_START, ValidationCache, content_key, generate, proof_mode

PATTERN = "mail/star-latest-from"
HELD = HELDOUT_SEED_START + 3


@pytest.fixture
def no_browser(tmp_path, monkeypatch):
    """A private $UIGYM_HOME, and a Chromium launch that fails the test."""
    monkeypatch.setenv("UIGYM_HOME", str(tmp_path))

    async def launch(*a, **k):
        raise AssertionError("a tool-mode proof or draw launched a browser")

    monkeypatch.setattr(gym_core.runtime, "launch_chromium", launch)


def _supply(*args, **kw):
    async def main():
        rt = gym_core.runtime.Runtime()
        try:
            return await supply(*args, runtime=rt, **kw)
        finally:
            await rt.close()

    return asyncio.run(main())


def test_proof_keys_carry_the_mode():
    t = generate(PATTERN, 3, 1).tasks[0]
    assert proof_mode("tools") == "tools" and proof_mode("hybrid") == proof_mode("ui") == "ui"
    assert content_key(t, "tools") != content_key(t, "ui") == content_key(t)  # ui keys as before
    with pytest.raises(ValueError):
        proof_mode("screen")


def test_tool_mode_draws_are_proven_in_tool_mode_and_served_through_env_and_trainer(no_browser, tmp_path):
    result = _supply(PATTERN, f"4,{HELD}", instances=1, workers=1, mode="tools")
    assert sorted(t.id for t in result.served) == sorted([f"mail/star-latest-from-00.s{s}" for s in (4, HELD)]), \
        result.failed
    assert result.proven_now == 2
    cache = ValidationCache()
    t4 = next(t for t in result.served if t.seed == 4)
    verdict = cache.get(t4, "tools")
    assert verdict["ok"] and verdict["mode"] == "tools" and verdict["probes"] >= 3  # gold, noop, near-miss(es)
    assert cache.get(t4, "ui") is None  # a tool proof is no browser proof

    # The env in tool mode draws the tool-proven instance; a screen env finds nothing browser-proven.
    env = gym.make("uigym/mail-v0", tasks=PATTERN + "*", seeds="4,5", mode="tools")  # 5: unproven, never drawn
    try:
        _, info = env.reset(seed=0)
        assert info["task_id"] == t4.id
        assert env.unwrapped.async_env.start_state["_meta"]["seed"] == 4
        _, reward, terminated, _, _ = env.step({"type": "done"})
        assert terminated and reward == 0.0
    finally:
        env.close()
    with pytest.raises(ValueError, match="no proven fresh-world instance"):
        gym.make("uigym/mail-v0", tasks=PATTERN + "*", seeds="4", mode="ui")
    # A training draw from the env never holds a held-out seed, though that world is proven.
    env = gym.make("uigym/mail-v0", tasks=PATTERN + "*", seeds=f"4,{HELD}", split="train", mode="tools")
    try:
        assert [t.id for t in env.unwrapped.tasks] == [t4.id]
    finally:
        env.close()

    # The trainer path (select_tasks of a tool-mode GRPO config) draws it too, from the cache, and refuses
    # a held-out seed outright.
    from agent_harness.train.config import GRPORunConfig
    from agent_harness.train.grpo import fresh_training_tasks, select_tasks

    cfg = GRPORunConfig(model="none", out=tmp_path / "run", tasks=PATTERN, seeds="4", mode="tools")
    assert [t.id for t in select_tasks(cfg)] == [t4.id]
    for seeds in (f"4,{HELD}", f"{HELD}"):
        with pytest.raises(ValueError, match="held out"):
            fresh_training_tasks(PATTERN, seeds, mode="tools")


def test_a_failing_instance_is_never_served_and_its_reason_is_recorded(no_browser, monkeypatch):
    real = fresh_mod.generate

    def broken(template, seed, instances=None):
        g = real(template, seed, instances)
        good, bad, unsupported = g.tasks
        # gold calls that are really a near-miss: the oracle gets 0
        wrong = bad.tools.model_copy(update={"solution": bad.tools.near_misses[0]})
        no_tools = unsupported.tools.model_copy(update={"solution": [], "near_misses": [],
                                                        "unsupported": "the test says so"})
        g.tasks = [good, bad.model_copy(update={"tools": wrong}),
                   unsupported.model_copy(update={"tools": no_tools})]
        return g

    monkeypatch.setattr(fresh_mod, "generate", broken)
    result = _supply(PATTERN, "6", instances=3, workers=1, mode="tools")
    ids = [f"mail/star-latest-from-0{i}.s6" for i in range(3)]
    assert [t.id for t in result.served] == ids[:1]
    assert "[oracle]" in result.failed[ids[1]]
    assert result.failed[ids[2]].startswith("unsupported through tools: the test says so")
    row = result.by_app()[0]
    assert row["validated"] == 1 and row["failures"] == {"oracle": 1, "unsupported in tool mode": 1}
    # Recorded with the reason: a second supply serves the same from the cache and proves nothing again.
    again = _supply(PATTERN, "6", instances=3, workers=1, mode="tools", validate=False)
    assert [t.id for t in again.served] == ids[:1] and again.proven_now == 0
    assert "[oracle]" in ValidationCache().get(result.generated[0].tasks[1], "tools")["reason"]


def test_eval_in_tool_mode_proves_its_fresh_draw_in_tool_mode(no_browser, tmp_path):
    from typer.testing import CliRunner

    from agent_harness.cli import app

    r = CliRunner().invoke(app, ["eval", "--agent", "oracle", "--mode", "tools", "--tasks", PATTERN, "--seeds", "8",
                                 "--workers", "1", "--no-report", "--out", str(tmp_path / "out")])
    assert r.exit_code == 0, r.output
    t = generate(PATTERN, 8, 1).tasks[0]
    assert ValidationCache().get(t, "tools")["ok"] and ValidationCache().get(t, "ui") is None
    rows = (tmp_path / "out" / "results.jsonl").read_text().splitlines()
    assert len(rows) == 1 and '"mail/star-latest-from-00.s8"' in rows[0]
