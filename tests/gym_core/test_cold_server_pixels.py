"""Same seed, same pixels, from the very first episode: a fresh app server draws its pictures on the
first request, so they arrive after the page's `load` (lazy images do not hold it up). The first reset
must wait for them like any later one, which gets them from the browser's cache, and the pixels must not
depend on which came first (a picture's rounded corners were blended over a grey placeholder only when
the picture arrived late)."""

from __future__ import annotations

import numpy as np
import pytest

from gym_core import AsyncUIEnv
from gym_core.runtime import Runtime


@pytest.mark.parametrize("app, path, min_pictures", [
    ("food", "/", 20),  # store cards and cuisines, drawn by Pillow on first request
    ("mail", "/contacts", 10),  # photo and letter avatars
])
async def test_first_episode_on_a_cold_server_matches_later_ones(app, path, min_pictures):
    rt = Runtime()  # its own server process: nothing drawn or cached yet
    a, b = AsyncUIEnv(app, runtime=rt), AsyncUIEnv(app, runtime=rt)
    try:
        first, _ = await a.reset(seed=0, start_path=path)  # cold server, cold tab
        fresh_tab, _ = await b.reset(seed=0, start_path=path)  # warm server, new context
        again, _ = await a.reset(seed=0, start_path=path)  # warm server, the parked tab reused
        n_imgs = await a.page.evaluate("[...document.images].filter(i => i.complete && i.naturalWidth > 0"
                                       " && i.getBoundingClientRect().top < innerHeight).length")
        assert n_imgs >= min_pictures  # the pictures are on screen, not placeholders
        for name, obs in (("new context", fresh_tab), ("reused tab", again)):
            diff = np.argwhere((obs["screenshot"] != first["screenshot"]).any(-1))
            assert len(diff) == 0, f"{name}: {len(diff)} pixels differ from the first episode, e.g. at {diff[:3].tolist()}"
    finally:
        await a.close()
        await b.close()
        await rt.close()
