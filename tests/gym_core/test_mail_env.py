"""The Gymnasium env on the mail app: API conformance, determinism, a task end to end."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import gym_core  # noqa: F401  (registers uigym/*-v0)
from gym_core import AsyncUIEnv


def test_registered_and_passes_gymnasium_check_env():
    env = gymnasium.make("uigym/mail-v0", disable_env_checker=True)
    try:
        check_env(env.unwrapped, skip_render_check=False)
        obs, info = env.reset(seed=3)
        assert obs["screenshot"].shape == (720, 1280, 3)
        assert env.observation_space.contains(obs)
        obs, reward, term, trunc, info = env.step({"type": "done"})
        assert term and reward == 0.0  # free play: no task, nothing to grade
        frame = env.render()
        assert isinstance(frame, np.ndarray) and frame.shape == (720, 1280, 3)
    finally:
        env.close()


async def test_same_seed_same_state_and_pixels_in_two_worlds(runtime):
    a, b = AsyncUIEnv("mail", runtime=runtime), AsyncUIEnv("mail", runtime=runtime)
    try:
        oa, _ = await a.reset(seed=11, start_path="/inbox")
        ob, _ = await b.reset(seed=11, start_path="/inbox")
        sa, sb = await a.state(), await b.state()
        assert sa == sb
        assert a.last_png == b.last_png
        assert np.array_equal(oa["screenshot"], ob["screenshot"])
        oc, _ = await b.reset(seed=12, start_path="/inbox")
        assert (await b.state())["messages"] != sa["messages"]
        assert not np.array_equal(oc["screenshot"], oa["screenshot"])
    finally:
        await a.close()
        await b.close()


@pytest.mark.parametrize("task_id_glob", ["mail/*"])
async def test_a_task_end_to_end_through_the_sync_env(task_id_glob):
    from tasks import select_tasks

    task = select_tasks(task_id_glob)[0]
    env = gymnasium.make("uigym/mail-v0", task=task.id)
    try:
        obs, info = env.reset()
        assert obs["goal"] == task.goal and info["task_id"] == task.id
        obs, reward, term, trunc, info = env.step({"type": "done"})
        assert term and reward == 0.0
        assert info["verify"]["passed"] is False
    finally:
        env.close()
