"""One cross-app task, frame by frame: `python -m agent_harness.screenshots.workspace [--out docs/screenshots]`.

Plays the oracle of `workspace/office-lunch-confirm-00` in the workspace env (the three apps in tabs, one workspace
world, the env's own screenshots: frozen clock, no animation) and keeps the frames where the work moves: the inbox at
the start, the food tab brought to the front, the order placed, back in the mail tab, the email written, and the end
graded. Writes `workspace.png` (half-size frames in a 3x2 grid, each captioned with its step and action) for the
README. Fails unless the episode passes, so a broken task never makes it into the docs.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from io import BytesIO
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[2]
TASK = "workspace/office-lunch-confirm-00"
W, H = 1280, 720


def _caption(step: int, action: dict | None) -> str:
    if action is None:
        return "reset: the mail tab in front"
    kind = action.get("type")
    what = {"switch_tab": f"switch_tab {action.get('tab')} (Ctrl+N)", "type": f"type {action.get('text', '')[:48]!r}",
            "done": "done: graded"}.get(kind, kind)
    return f"step {step}: {what}"


async def play(task_id: str) -> tuple[list[tuple[str, Image.Image]], float]:
    """The oracle's episode: every screen (after reset, after each step) with its caption, and the reward."""
    from agent_harness.agents import OracleAgent
    from gym_core.config import EnvConfig
    from gym_core.envs import env_for
    from gym_core.runtime import Runtime
    from tasks.loader import select_tasks

    (task,) = [t for t in select_tasks(task_id) if t.id == task_id]
    runtime = Runtime.current()
    env = env_for(task, "ui", EnvConfig(viewport=(W, H)), runtime, "screenshots-workspace")
    frames: list[tuple[str, Image.Image]] = []
    try:
        obs, _ = await env.reset(task=task)
        frames.append((_caption(0, None), Image.open(BytesIO(env.last_png)).convert("RGB")))
        agent = OracleAgent()
        await agent.reset(env, task)
        reward, done = 0.0, False
        while not done:
            action = await agent.act(obs)
            obs, reward, term, trunc, info = await env.step(action)
            done = term or trunc
            frames.append((_caption(env.steps, info.get("action")), Image.open(BytesIO(env.last_png)).convert("RGB")))
    finally:
        await env.close()
        await runtime.close()
    return frames, float(reward)


def pick(frames: list[tuple[str, Image.Image]], reward: float) -> list[tuple[str, Image.Image]]:
    """The frames where the work moves: the start, each tab switch, the order placed, the email written, the end."""
    tabs = [i for i, (c, _) in enumerate(frames) if "switch_tab" in c]
    placed = tabs[1] - 1  # the last food screen: the order's page
    written = len(frames) - 3  # the message typed, before Send
    keep = [(0, frames[0][0]), (tabs[0], frames[tabs[0]][0]), (placed, f"step {placed}: Place order -> the order's page"),
            (tabs[1], frames[tabs[1]][0]), (written, f"step {written}: the email written"),
            (len(frames) - 1, f"step {len(frames) - 2}: Send; step {len(frames) - 1}: done, reward {reward:g}")]
    return [(caption, frames[i][1]) for i, caption in keep]


def grid(frames: list[tuple[str, Image.Image]], cols: int = 3) -> Image.Image:
    w, h, gap, label = W // 2, H // 2, 12, 26
    rows = (len(frames) + cols - 1) // cols
    out = Image.new("RGB", (cols * w + (cols - 1) * gap, rows * (h + label) + (rows - 1) * gap), "white")
    draw = ImageDraw.Draw(out)
    for i, (caption, img) in enumerate(frames):
        x, y = (i % cols) * (w + gap), (i // cols) * (h + label + gap)
        draw.text((x + 4, y + 6), f"{i + 1}. {caption}", fill=(50, 50, 50))
        out.paste(img.resize((w, h), Image.LANCZOS), (x, y + label))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m agent_harness.screenshots.workspace")
    ap.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    ap.add_argument("--task", default=TASK)
    args = ap.parse_args(argv)
    import os

    os.environ.setdefault("UIGYM_HOME", tempfile.mkdtemp(prefix="uigym-shots-workspace-"))
    frames, reward = asyncio.run(play(args.task))
    if reward != 1.0:
        print(f"the oracle's episode of {args.task} got {reward}, not 1: no picture", file=sys.stderr)
        return 1
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    grid(pick(frames, reward)).save(out / "workspace.png")
    print(f"saved {out / 'workspace.png'} ({len(frames)} screens, reward {reward})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
