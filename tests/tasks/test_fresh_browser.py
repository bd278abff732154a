"""A fresh-world instance is proven in real browsers before it is served, and then the Gymnasium env
draws it by seed: the episode runs in that world (not the bundled seed-0 one)."""

from __future__ import annotations

import asyncio

import gymnasium as gym

import gym_core  # noqa: F401 - registers the ids
from agent_harness.fresh import supply
from tasks.fresh import ValidationCache

PATTERN = "mail/star-latest-from"


def test_prove_then_serve_through_the_env(tmp_path, monkeypatch):
    monkeypatch.setenv("UIGYM_HOME", str(tmp_path))

    async def prove():
        from gym_core.runtime import Runtime

        rt = Runtime()
        try:
            return await supply(PATTERN, "5", instances=1, workers=2, runtime=rt)
        finally:
            await rt.close()

    result = asyncio.run(prove())
    assert [t.id for t in result.served] == ["mail/star-latest-from-00.s5"], result.failed
    assert result.proven_now == 1
    verdict = ValidationCache().get(result.served[0])
    assert verdict["ok"] and verdict["probes"] >= 3  # oracle, noop, a near-miss at least

    # Proven once: a second supply takes the verdict from the cache, nothing is played again.
    again = asyncio.run(supply(PATTERN, "5", instances=1, validate=False))
    assert [t.id for t in again.served] == ["mail/star-latest-from-00.s5"] and again.proven_now == 0

    env = gym.make("uigym/mail-v0", tasks=PATTERN + "*", seeds="5,6")  # seed 6 is unproven: never drawn
    try:
        obs, info = env.reset(seed=0)
        assert info["task_id"] == "mail/star-latest-from-00.s5"
        assert obs["goal"] == result.served[0].goal
        assert env.unwrapped.async_env.start_state["_meta"]["seed"] == 5  # the world the episode runs in
        _, reward, terminated, _, _ = env.step({"type": "done"})
        assert terminated and reward == 0.0
    finally:
        env.close()
