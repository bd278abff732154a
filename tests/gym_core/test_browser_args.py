"""The browser's resolver: loopback only, plus the hosts of apps the user points the gym at."""

import pytest

from gym_core.browser import CHROMIUM_ARGS, chromium_args


def _rules(args):
    return next(a for a in args if a.startswith("--host-resolver-rules="))


def test_default_resolves_only_loopback():
    assert chromium_args() == CHROMIUM_ARGS
    assert _rules(chromium_args()).endswith("EXCLUDE 127.0.0.1, EXCLUDE localhost")


def test_external_app_hosts_are_resolvable():
    rules = _rules(chromium_args(["mail", "food", "127.0.0.1", None]))
    assert rules.count("EXCLUDE") == 4 and "EXCLUDE mail" in rules and "EXCLUDE food" in rules
    assert rules.startswith("--host-resolver-rules=MAP * ~NOTFOUND")
    assert CHROMIUM_ARGS[-1].endswith("EXCLUDE localhost")  # the module constant is not mutated


def _fake_browsers(tmp_path, names):
    for name in names:
        exe = tmp_path / name
        exe.write_text("#!/bin/sh\n")
        exe.chmod(0o755)
    return str(tmp_path)


def test_headless_runs_the_headless_shell_headed_the_full_browser(tmp_path, monkeypatch):
    from gym_core.browser import chromium_executable

    monkeypatch.delenv("UIGYM_CHROMIUM", raising=False)
    monkeypatch.setenv("PATH", _fake_browsers(tmp_path, ["chromium", "chromium-headless-shell"]))
    assert chromium_executable(None) == str(tmp_path / "chromium-headless-shell")
    assert chromium_executable(None, headless=False) == str(tmp_path / "chromium")
    monkeypatch.setenv("UIGYM_CHROMIUM", str(tmp_path / "chromium"))  # forced: whichever mode
    assert chromium_executable(None) == str(tmp_path / "chromium")


def test_without_the_headless_shell_headless_runs_the_full_browser(tmp_path, monkeypatch):
    from gym_core.browser import chromium_executable

    monkeypatch.delenv("UIGYM_CHROMIUM", raising=False)
    monkeypatch.setenv("PATH", _fake_browsers(tmp_path, ["chromium"]))
    assert chromium_executable(None) == str(tmp_path / "chromium")


def test_images_off_only_for_players_that_never_look():
    import pytest

    from gym_core.config import EnvConfig

    with pytest.raises(ValueError, match="screenshots=False"):
        EnvConfig(images=False)
    assert EnvConfig(screenshots=False, images=False).images is False


@pytest.mark.parametrize("app,controls", [("food", "a[href^='/store/']"), ("mail", "[role=row], a, button")])
async def test_a_tab_without_images_requests_none_and_keeps_its_boxes(runtime, app, controls):
    """EnvConfig.images=False: the start page's pictures are never even requested (the tab is in the runtime's
    Chromium whose Blink loads no images, so no request is paused and failed for each), and the page's controls
    sit where they sit with pictures. An env that switches setting moves its tab to the other browser."""
    from gym_core import AsyncUIEnv
    from gym_core.config import EnvConfig

    boxes, requested, browsers = {}, {}, {}
    env = AsyncUIEnv(app, EnvConfig(screenshots=False), runtime=runtime)
    try:
        for images in (True, False, True):
            env.config = EnvConfig(screenshots=False, images=images)
            await env.reset(seed=0)
            browsers[images] = env.context.browser
            seen: list[str] = []
            env.page.on("request", lambda r, seen=seen: seen.append(r.resource_type))
            await env.page.reload(wait_until="load")
            await env.page_settled()
            requested[images] = seen.count("image")
            cards = env.page.locator(controls)
            boxes[images] = [await cards.nth(i).bounding_box() for i in range(min(12, await cards.count()))]
    finally:
        await env.close()
    assert requested[True] > 0 and requested[False] == 0, requested
    assert boxes[True] and boxes[True] == boxes[False]
    assert browsers[True] is not browsers[False]
