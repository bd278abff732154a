"""Chromium's headless shell (the default headless browser) against the full Chromium (issue 47): the same page in
the same world is laid out identically (every set-of-marks box equal) and looks the same; the pixels differ only
where text is anti-aliased (the full browser's new headless mode rasterises glyph edges its own way). Each browser
renders in a process of its own (the runtime keeps one browser per process), forced by UIGYM_CHROMIUM."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
PAGES = [("mail", "/inbox"), ("food", "/")]  # text-heavy, and pictures

RENDER = """
import asyncio, json, sys
from gym_core.env import AsyncUIEnv, EnvConfig
from gym_core.runtime import Runtime
async def main(out, pages):
    rt = Runtime.current()
    rows = []
    for app, path in pages:
        env = AsyncUIEnv(app, EnvConfig(set_of_marks=True), runtime=rt)
        obs, _ = await env.reset(seed=0, start_path=path)
        png = f"{out}/{app}.png"
        open(png, "wb").write(env.last_png)
        rows.append({"app": app, "png": png, "marks": [[m["role"], m["name"], m["box"].tolist()] for m in obs["marks"]]})
        await env.close()
    await rt.close()
    print(json.dumps(rows))
asyncio.run(main(sys.argv[1], json.loads(sys.argv[2])))
"""


def _render(exe: str, out: Path) -> list[dict]:
    out.mkdir()
    env = dict(os.environ, UIGYM_CHROMIUM=exe)
    r = subprocess.run([sys.executable, "-c", RENDER, str(out), json.dumps(PAGES)], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not (shutil.which("chromium-headless-shell") and shutil.which("chromium")),
                    reason="needs both Debian's chromium and chromium-headless-shell (scripts/setup.sh installs both)")
def test_headless_shell_lays_out_and_draws_pages_as_the_full_browser(tmp_path):
    shell = _render(shutil.which("chromium-headless-shell"), tmp_path / "shell")
    full = _render(shutil.which("chromium"), tmp_path / "full")
    for s, f in zip(shell, full):
        assert len(s["marks"]) > 20 and s["marks"] == f["marks"], s["app"]  # the same controls, the same boxes
        a = np.asarray(Image.open(s["png"]).convert("RGB"), dtype=np.int16)
        b = np.asarray(Image.open(f["png"]).convert("RGB"), dtype=np.int16)
        differ = np.abs(a - b).sum(-1) > 0
        # Glyph edges only: a few percent of the pixels, and nothing that changes what a 16x16 patch of the
        # screen looks like on average (a box, an icon or a background drawn otherwise would: tens of grey levels).
        print(s["app"], f"differing {differ.mean():.3%}")
        assert differ.mean() < 0.06, (s["app"], differ.mean())
        la, lb = (np.asarray(Image.open(p).convert("L"), dtype=float) for p in (s["png"], f["png"]))
        h, w = (la.shape[0] // 16) * 16, (la.shape[1] // 16) * 16
        tiles = [x[:h, :w].reshape(h // 16, 16, w // 16, 16).mean((1, 3)) for x in (la, lb)]
        worst = np.abs(tiles[0] - tiles[1]).max()
        print(s["app"], f"worst 16x16 patch: {worst:.1f} grey levels apart")
        assert worst < 12, (s["app"], worst)
