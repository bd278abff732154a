"""The uigym harness: plays a rollout in-process as one `uigym eval` episode, every model call through the
rollout's interception endpoint (so verifiers records each turn, and prime-rl trains on it).

UI mode: uigym's model agent (agent_harness.agents.model.ModelAgent) sends the action format's system
prompt, the goal and a screenshot (an image part); each reply is parsed with uigym's action format and
played in a real Chromium; the next user turn is the new screenshot. Tools mode: uigym's function-calling
agent (ToolModelAgent) and the app's tools (gym_core.tool_env.AsyncToolEnv). Either way the episode loop
is uigym's own (agent_harness.runner.run_episode), so a rollout and a `uigym eval` episode with the same
replies end in the same state and get the same score.

Each rollout gets its own world (a fresh env, reset for the task), closed when the episode ends, fails or
is cancelled. The verdict (score and per-check report) goes into `trace.state` for the task's reward.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import tempfile
import uuid
import weakref
from pathlib import Path
from typing import Any, Literal

import verifiers.v1 as vf
from pydantic import Field, field_validator

logger = logging.getLogger(__name__)


class UIGymHarnessConfig(vf.HarnessConfig):
    id: str = "uigym-env"
    format: str = "json"
    """UI mode: uigym's action format for the replies (json, uitars, qwen, pyautogui, openai, anthropic, gym)."""
    image_size: str | None = None
    """UI mode: the screenshot size the model sees, WxH (default: the viewport, 1280x720)."""
    max_pixels: int | None = None
    """UI mode: Qwen-style resize of the screenshot to at most this many pixels (instead of image_size)."""
    max_turns: int | None = Field(None, ge=1)
    """Caps each task's max_steps (uigym's step limit; the verifier grades the end state either way)."""
    history_images: int = 3
    max_tokens: int = 512
    temperature: float = 0.0
    app_modules: dict[str, str] = Field(default_factory=dict)
    """Serve these modules under an app's name (e.g. {"mail": "tests.fixture_apps.toy"})."""
    app_urls: dict[str, str] = Field(default_factory=dict)
    """Use running app servers (token: $UIGYM_GYM_TOKEN) instead of starting them."""
    headless: bool = True
    episode_timeout_s: float = 900.0
    save_dir: Path | None = None
    """Also keep uigym's trajectories (trajectory.json, screenshots) of each rollout here."""

    @field_validator("format")
    @classmethod
    def _known_format(cls, v: str) -> str:
        from agent_harness.formats import get_format

        get_format(v)  # ValueError naming the known formats
        return v

    @field_validator("image_size")
    @classmethod
    def _size(cls, v: str | None) -> str | None:
        if v is not None:
            w, sep, h = v.lower().partition("x")
            if not (sep and w.isdigit() and h.isdigit() and int(w) > 0 and int(h) > 0):
                raise ValueError(f"image_size must be WIDTHxHEIGHT in pixels, e.g. 1280x720 (got {v!r})")
        return v


# ----------------------------------------------------------------------------- one uigym runtime per loop

_runtimes: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, Any]]" = weakref.WeakKeyDictionary()


def uigym_runtime(config: UIGymHarnessConfig):
    """The Chromium and app servers of this event loop for these server settings (shared by its rollouts,
    as in `uigym eval`)."""
    import os

    from gym_core.runtime import Runtime
    from gym_core.server import ServerPool

    key = json.dumps([config.app_urls, config.app_modules, config.headless], sort_keys=True)
    per_loop = _runtimes.setdefault(asyncio.get_running_loop(), {})
    if key not in per_loop:
        pool = ServerPool(urls=dict(config.app_urls), modules=dict(config.app_modules),
                          token=os.environ.get("UIGYM_GYM_TOKEN") if config.app_urls else None)
        per_loop[key] = Runtime(servers=pool, headless=config.headless)
    return per_loop[key]


async def close_runtimes() -> None:
    """Close this loop's browsers and app servers (the end of a run, tests)."""
    per_loop = _runtimes.pop(asyncio.get_running_loop(), {})
    for rt in per_loop.values():
        with contextlib.suppress(Exception):
            await rt.close()
        await asyncio.to_thread(rt.servers.stop_all)


# ----------------------------------------------------------------------------- the harness

class UIGymHarness(vf.Harness[UIGymHarnessConfig]):
    APPENDS_SYSTEM_PROMPT = True
    EXECUTES_CODE = False  # the model acts through a browser or the app's tools, never a shell
    NEEDS_CONTAINER = False  # the world lives in uigym's app servers, one per rollout

    async def launch(self, ctx: vf.ModelContext, trace: vf.Trace, runtime: vf.Runtime, endpoint: str, secret: str,
                     mcp_urls: dict[str, str], data: vf.TaskData, tool_interception_url: str | None = None,
                     ) -> vf.ProgramResult:
        from agent_harness.episode import run_episode
        from agent_harness.trajectory import Trajectory
        from gym_core.env import EnvConfig
        from gym_core.envs import env_for
        from tasks import Task

        c = self.config
        mode = getattr(data, "mode", None)
        if mode not in ("ui", "tools") or not getattr(data, "task", None):
            raise vf.HarnessError(f"the uigym-env harness plays uigym tasks (mode ui|tools); got {type(data).__name__} "
                                  f"with mode={mode!r}: pair it with the uigym-env taskset")
        task = Task.model_validate(data.task)
        env_config = EnvConfig(max_steps=min(task.max_steps, c.max_turns) if c.max_turns else None)
        rt = uigym_runtime(c)
        # One app's env, or for a workspace task the workspace env (its three apps in tabs, or their tools).
        env = env_for(task, mode, env_config, rt, f"vf-{uuid.uuid4().hex[:12]}")
        agent = self._agent(mode, ctx, endpoint, secret)
        state = trace.state
        state.world_closed, state.world_id = False, env.world_id
        keep = c.save_dir is not None
        out = Path(c.save_dir) if keep else Path(tempfile.mkdtemp(prefix="uigym-env-"))
        try:
            row = await asyncio.wait_for(
                run_episode(env, agent, task, out, sample=0, label=f"vf:{ctx.model}", save_screenshots=keep),
                c.episode_timeout_s)
            if row["error"]:
                # An infrastructure failure (model endpoint, browser, app server): a failed rollout, not a 0.
                raise vf.HarnessError(f"uigym episode of {task.id} failed: {row['error']}")
            traj_path = out / row["episode_dir"] / "trajectory.json"
            verify = Trajectory.load(traj_path).verify if traj_path.exists() else None
            state.reward = float(row["reward"])
            state.passed = bool(row["passed"])
            state.verify = verify
            state.steps = int(row["steps"])
            state.answer = row["answer"]
            state.parse_errors = int(row["parse_errors"])
            state.action_errors = int(row["action_errors"])
        except TimeoutError:
            raise vf.HarnessError(f"uigym episode of {task.id} ran past {c.episode_timeout_s:.0f}s") from None
        finally:
            # Released on every way out, cancellation included (shielded: a second cancel must not leak it).
            await asyncio.shield(self._release(env, agent, state))
            # trace.state is live-only (verifiers does not serialize it): the record keeps the verdict in info.
            trace.info["uigym"] = state.model_dump(mode="json", exclude={"artifacts"})
            if not keep:
                await asyncio.to_thread(_rmtree, out)
        return vf.ProgramResult(exit_code=0, stdout=json.dumps({"reward": state.reward, "steps": state.steps}),
                                stderr="")

    def _agent(self, mode: str, ctx: vf.ModelContext, endpoint: str, secret: str):
        from agent_harness.agents.model import ModelAgent
        from agent_harness.agents.tool_model import ToolModelAgent

        c = self.config
        common = dict(base_url=endpoint, api_key=secret, model=ctx.model, max_tokens=c.max_tokens,
                      temperature=c.temperature, retries=0)
        if mode == "tools":
            return ToolModelAgent(**common)
        return ModelAgent(format=c.format, image_size=c.image_size, max_pixels=c.max_pixels,
                          history_images=c.history_images, **common)

    @staticmethod
    async def _release(env, agent, state) -> None:
        try:
            await env.close()
            state.world_closed = True
        except Exception:  # noqa: BLE001 - a failed close is logged; the rollout's outcome stands
            logger.warning("closing the uigym world failed", exc_info=True)
        with contextlib.suppress(Exception):
            await agent.close()


def _rmtree(path: Path) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)
