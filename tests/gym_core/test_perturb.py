"""Screen perturbations (gym_core/perturb.py, issue #37): parsing, the seeded draw, and in a real browser what
each family does to the screen, and that it leaves the world and the grade alone."""

from __future__ import annotations

import dataclasses
import json
import os
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

import gym_core  # noqa: F401  (registers uigym/*-v0)
from agent_harness.agents import NoopAgent, OracleAgent
from apps import app_looks
from gym_core import AsyncUIEnv, EnvConfig
from gym_core.perturb import (
    FAMILIES, OVERLAY_ATTR, OVERLAY_KINDS, SCALES, STORAGE_KEY, VIEWPORTS, Drawn, Perturb, ci_family, ci_sample,
    DISMISS_ATTR, draw, episode_key, extra_steps, modal_dismiss, overlay_script, parse_perturb, point_dismiss,
)
from gym_core.spaces import FrameSpace, observation_space, screen_bounds
from tasks import load_task, select_tasks
from tests.commit import commit

APPS = ("mail", "food", "crm")
# One short task per app that changes the world (a click, then done).
EASY = {"mail": "mail/star-latest-from-00", "food": "food/switch-address-00", "crm": "crm/complete-todays-task-00"}


# ------------------------------------------------------------------------------------------------- parse
def test_parse_the_documented_forms():
    assert parse_perturb(None) == parse_perturb("") == parse_perturb("none") == Perturb()
    assert parse_perturb("all") == Perturb(True, True, True, True)
    assert parse_perturb("viewport, Overlays") == Perturb(viewport=True, overlays=True)
    assert parse_perturb(Perturb(dark=True)) == Perturb(dark=True)
    assert str(Perturb(scale=True, dark=True)) == "scale,dark" and str(Perturb()) == "none"
    with pytest.raises(ValueError, match="viewport, scale, dark, overlays"):
        parse_perturb("viewport,popups")


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), st.lists(st.sampled_from(FAMILIES + ("all", "none", "", " x", "Dark"))).map(",".join),
                 st.integers(), st.lists(st.text())))
def test_parse_gives_a_perturb_or_a_value_error_naming_the_families(text):
    try:
        p = parse_perturb(text)
    except ValueError as e:
        assert all(f in str(e) for f in FAMILIES)
        return
    assert isinstance(p, Perturb)
    words = {w.strip().lower() for w in text.split(",")}
    assert set(p.families()) == (set(FAMILIES) if "all" in words else words & set(FAMILIES))


def test_env_config_normalises_perturb_and_refuses_an_unknown_family():
    assert EnvConfig().perturb == Perturb()
    c = EnvConfig(perturb="dark,scale")
    assert c.perturb == Perturb(scale=True, dark=True)
    assert dataclasses.replace(c, max_steps=3).perturb == c.perturb
    with pytest.raises(ValueError, match="unknown perturbation family 'blur'"):
        EnvConfig(perturb="blur")


# -------------------------------------------------------------------------------------------------- draw
@settings(max_examples=200, deadline=None)
@given(key=st.text(max_size=40), app=st.sampled_from(APPS), on=st.lists(st.sampled_from(FAMILIES), unique=True),
       look_i=st.integers(0, 1))
def test_draw_is_a_function_of_the_key_and_each_family_its_own(key, app, on, look_i):
    look = app_looks(app)[look_i]
    p = Perturb(**{f: True for f in on})
    d = draw(p, app, look, key)
    assert d == draw(p, app, look, key)  # the same key, the same draw
    json.dumps(d.info())  # info["perturb"] is JSON
    assert (d.viewport in VIEWPORTS) if p.viewport else d.viewport is None
    assert (d.scale in SCALES) if p.scale else d.scale is None
    assert d.dark == (p.dark and app == "mail")  # mail's looks have a dark mode; food and crm have none
    if p.overlays:
        assert 1 <= len(d.overlays) <= 2 and len(set(d.overlays)) == len(d.overlays)
        assert set(d.overlays) <= set(OVERLAY_KINDS)
    else:
        assert d.overlays == ()
    everything = draw(Perturb(True, True, True, True), app, look, key)
    for f in on:  # turning the other families on changes nothing of this one's draw
        assert getattr(d, f) == getattr(everything, f)


def test_draws_vary_with_the_key():
    draws = {draw(Perturb(True, True, False, True), "food", "doordash", episode_key("food/x-00", s))
             for s in range(60)}
    assert {d.viewport for d in draws} == set(VIEWPORTS) and {d.scale for d in draws} == set(SCALES)
    assert {k for d in draws for k in d.overlays} == set(OVERLAY_KINDS)
    assert episode_key("a/b-00", 3, 9, 2) == "a/b-00:3" and episode_key(None, None, 9, 2) == ":9+2"


def test_ci_sample_rotates_with_the_commit_and_covers_every_template():
    templates = [f"t{i}" for i in range(20)]
    a = ci_sample(templates, "overlays", "abc123", n=3)
    assert a == ci_sample(templates, "overlays", "abc123", n=3) and len(a) == 3 and set(a) <= set(templates)
    seen = set()
    for i in range(200):
        seen.update(ci_sample(templates, "overlays", f"commit{i}", n=3))
    assert seen == set(templates)
    assert ci_sample(templates, "dark", "abc123") != a or ci_sample(templates, "dark", "x") != ci_sample(templates, "overlays", "x")
    with pytest.raises(ValueError, match="overlays"):
        ci_sample(templates, "zoom", "abc")
    assert {ci_family(f"c{i}") for i in range(100)} == set(FAMILIES) and ci_family("x") == ci_family("x")


def test_overlay_texts_use_the_looks_brand():
    js = overlay_script(Drawn(overlays=OVERLAY_KINDS), "food", "Forkful")
    assert "Forkful Pass" in js and "Forkful Support" in js and "{brand}" not in js
    assert overlay_script(Drawn(), "food", "Forkful") is None


# --------------------------------------------------------------------------------------- spaces
def test_the_observation_space_follows_the_viewport_family():
    assert observation_space(EnvConfig())["screenshot"].shape == (720, 1280, 3)
    space = observation_space(EnvConfig(perturb="viewport,scale"))["screenshot"]
    assert isinstance(space, FrameSpace) and space.sizes == VIEWPORTS
    for w, h in VIEWPORTS:
        assert space.contains(np.zeros((h, w, 3), np.uint8))
    assert not space.contains(np.zeros((720, 1024, 3), np.uint8)) and not space.contains(np.zeros((768, 1024, 3), np.int64))
    assert space.contains(space.sample())
    assert screen_bounds(EnvConfig(perturb="viewport")) == (1440, 900) and screen_bounds(EnvConfig()) == (1280, 720)
    # scale alone keeps the configured screen: the screenshot is taken at the CSS viewport
    assert observation_space(EnvConfig(perturb="scale"))["screenshot"].shape == (720, 1280, 3)


# --------------------------------------------------------------------------------------- in a browser
def seed_drawing(app: str, task_id: str | None, want: set[str], p: Perturb = Perturb(overlays=True)) -> int:
    """A reset seed whose draw (for `task_id` in the app's default look) shows every overlay kind in `want`."""
    look = app_looks(app)[0]
    return next(s for s in range(500) if want <= set(draw(p, app, look, episode_key(task_id, s)).overlays))


async def on_top(env: AsyncUIEnv, kind: str) -> bool:
    """Is the overlay `kind` visible, and the topmost element at its own centre?"""
    return await env.page.evaluate("""k => {
      const ov = document.querySelector(`[%s="${k}"]`);
      if (!ov) return false;
      const box = (ov.querySelector('[role=dialog]') || ov).getBoundingClientRect();
      if (box.width < 10 || box.height < 10) return false;
      const el = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return !!el && ov.contains(el);
    }""" % OVERLAY_ATTR, kind)


async def click_point(env: AsyncUIEnv, selector: str) -> dict:
    b = await env.page.locator(selector).first.bounding_box()
    return {"type": "click", "x": int(b["x"] + b["width"] / 2), "y": int(b["y"] + b["height"] / 2)}


async def test_overlays_cover_the_page_are_accessible_send_nothing_and_stay_dismissed_for_the_episode(runtime):
    seed = seed_drawing("mail", None, {"promo"})
    env = AsyncUIEnv("mail", EnvConfig(perturb="overlays"), runtime=runtime)
    plain = AsyncUIEnv("mail", runtime=runtime)
    try:
        obs, info = await env.reset(seed=seed, start_path="/inbox")
        kinds = info["perturb"]["overlays"]
        assert "promo" in kinds and json.dumps(info["perturb"])
        before = await env.state()
        bare, _ = await plain.reset(seed=seed, start_path="/inbox")
        assert before == await plain.state()  # the same world as without the overlays
        for k in kinds:
            assert await on_top(env, k), k
        # The modal covers the middle of the inbox, in the screenshot the agent gets.
        h, w = obs["screenshot"].shape[:2]
        mid = (slice(h // 2 - 40, h // 2 + 40), slice(w // 2 - 100, w // 2 + 100))
        assert np.abs(obs["screenshot"][mid].astype(int) - bare["screenshot"][mid].astype(int)).mean() > 20
        # What the oracle asks before it clicks or scrolls there: the modal's close X covers the centre.
        close = await point_dismiss(env.page, w // 2, h // 2)
        x_box = await env.page.locator(f'[{OVERLAY_ATTR}="promo"] [{DISMISS_ATTR}]').bounding_box()
        assert close is not None and abs(close[0] - (x_box["x"] + x_box["width"] / 2)) <= 1
        assert await modal_dismiss(env.page) == close
        # Agents see it in the accessibility tree: a dialog with a name, and named buttons.
        tree = await env.page.locator("body").aria_snapshot()
        assert "dialog" in tree and "Get more storage" in tree and 'button "No thanks"' in tree
        # The modal traps the keys: typed into the page behind it (focus put there by script), they go nowhere.
        await env.page.focus("#search-input")
        await env.step({"type": "type", "text": "hello"})
        assert await env.page.input_value("#search-input") == ""
        # Dismissed with a click, as a person would: no request goes out, the world is the same.
        sent: list[str] = []
        env.page.on("request", lambda r: sent.append(r.url))
        await env.step(await click_point(env, f'[{OVERLAY_ATTR}="promo"] button:has-text("No thanks")'))
        assert sent == [] and await env.page.locator(f'[{OVERLAY_ATTR}="promo"]').count() == 0
        assert await env.state() == before
        # Gone on the next page of the episode too.
        obs, *_ = await env.step(await click_point(env, 'a.nav-item:has-text("Starred")'))
        assert "starred" in obs["url"].lower()
        assert await env.page.locator(f'[{OVERLAY_ATTR}="promo"]').count() == 0
        assert json.loads(await env.page.evaluate(f"sessionStorage.getItem('{STORAGE_KEY}')"))["promo"] == "dismissed"
        # A new episode shows it again.
        await env.reset(seed=seed, start_path="/inbox")
        assert await on_top(env, "promo")
    finally:
        await env.close()
        await plain.close()


async def play(env: AsyncUIEnv, agent, task, seed: int) -> tuple[float, dict]:
    obs, info = await env.reset(task=task, seed=seed)
    await agent.reset(env, task)
    while True:
        obs, reward, term, trunc, step_info = await env.step(await agent.act(obs))
        assert not obs["last_action_error"], obs["last_action_error"]
        if term or trunc:
            return reward, info


@pytest.mark.parametrize("app", [pytest.param(a, marks=() if a == "mail" else pytest.mark.slow) for a in APPS])
async def test_the_oracle_dismisses_what_covers_its_target_and_solves_the_task(runtime, app):
    task = load_task(EASY[app])
    want = {"promo", "consent"} if app != "crm" else {"promo", "chat"}
    seed = seed_drawing(app, task.id, want)
    env = AsyncUIEnv(None, EnvConfig(perturb="overlays", screenshots=False, images=False), runtime=runtime)
    try:
        reward, info = await play(env, OracleAgent(), task, seed)
        assert set(info["perturb"]["overlays"]) == want
        # the budget grows by the clicks that close them (a person needs them too)
        assert info["max_steps"] == task.max_steps + extra_steps(Drawn(overlays=tuple(want)))
        assert reward == 1.0
        dismissed = json.loads(await env.page.evaluate(f"sessionStorage.getItem('{STORAGE_KEY}') || '{{}}'"))
        assert "promo" in dismissed  # the modal covered every target: the oracle closed it
        reward, _ = await play(env, NoopAgent(), task, seed)
        assert reward == 0.0
    finally:
        await env.close()


async def test_viewport_and_scale_give_the_drawn_screen(runtime):
    p = Perturb(viewport=True, scale=True)
    seeds = [next(s for s in range(100) if draw(p, "mail", "gmail", episode_key(None, s)) == Drawn(size, scale))
             for size, scale in (((1024, 768), 2.0), ((1440, 900), 1.25))]
    env = AsyncUIEnv("mail", EnvConfig(perturb=p), runtime=runtime)
    seen = set()
    try:
        for seed in seeds:
            obs, info = await env.reset(seed=seed, start_path="/inbox")
            d = info["perturb"]
            w, h = d["viewport"]
            seen.add((w, h, d["scale"]))
            # The screenshot is the drawn CSS viewport (a screenshot pixel is a click coordinate) ...
            assert obs["screenshot"].shape == (h, w, 3) and (env.width, env.height) == (w, h)
            assert obs in observation_space(env.config)
            # ... of a page rendered at the drawn device scale.
            assert await env.page.evaluate("[innerWidth, innerHeight, devicePixelRatio]") == [w, h, d["scale"]]
            obs, *_ = await env.step({"type": "click", "x": w + 5, "y": 5})
            assert f"outside the {w}x{h} screen" in obs["last_action_error"]
        assert len(seen) == 2
        # A plain episode on the same tab is back to the configured screen.
        env.config = EnvConfig()
        obs, info = await env.reset(seed=0, start_path="/inbox")
        assert obs["screenshot"].shape == (720, 1280, 3) and "perturb" not in info
        assert await env.page.evaluate("[innerWidth, innerHeight, devicePixelRatio]") == [1280, 720, 1]
    finally:
        await env.close()


async def test_dark_mode_changes_the_mail_inbox_pixels_and_nothing_in_the_world(runtime):
    dark = AsyncUIEnv("mail", EnvConfig(perturb="dark"), runtime=runtime)
    light = AsyncUIEnv("mail", runtime=runtime)
    try:
        od, info = await dark.reset(seed=5, start_path="/inbox")
        ol, _ = await light.reset(seed=5, start_path="/inbox")
        assert info["perturb"]["dark"] is True
        assert od["screenshot"].mean() < ol["screenshot"].mean() - 60  # a dark page, not a tint
        assert await dark.state() == await light.state()
        assert await dark.page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
        # food has no dark mode: the family is a no-op there, said in info
        food = AsyncUIEnv("food", EnvConfig(perturb="dark", screenshots=False, images=False), runtime=runtime)
        try:
            _, info = await food.reset(seed=5)
            assert info["perturb"]["dark"] is False
            assert not await food.page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
        finally:
            await food.close()
    finally:
        await dark.close()
        await light.close()


@pytest.mark.slow
@pytest.mark.filterwarnings("error")
def test_check_env_passes_with_every_family_on():
    tasks = [t.id for t in sorted(select_tasks("mail/*"), key=lambda t: (t.max_steps, t.id))[:2]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gymnasium.make("uigym/mail-v0", tasks=tasks, perturb="all")
        try:
            obs, info = env.reset(seed=0)
            assert obs in env.observation_space and info["perturb"]["dark"] is True
            check_env(env.unwrapped)
        finally:
            env.close()


# ------------------------------------------------------------------------- CI: templates under each family
async def validate_sample(runtime, family: str, n: int, look: str | None = None) -> None:
    """Every probe of `n` templates' first instances, drawn for this commit, under `family`: oracle 1, noop 0,
    near-misses 0, adversarial variants 0, harmless variants 1."""
    from agent_harness.validate import validate_tasks

    firsts = {t.id: t for t in select_tasks("*/*") if t.id.endswith("-00")}
    chosen = [firsts[i] for i in ci_sample(sorted(firsts), family, commit(), n=n)]
    config = EnvConfig(screenshots=False, images=False, perturb=family, look=look)
    results = await validate_tasks(chosen, workers=1, config=config, runtime=runtime)
    assert all(r.probes for r in results)
    bad = [r.failures() for r in results if not r.ok]
    assert not bad, f"under {family}:\n" + "\n".join(bad)


@pytest.mark.parametrize("family", FAMILIES)
async def test_a_template_validates_under_each_family(runtime, family):
    """CI (the default suite): every family on every commit, each on one template (any app, in a look drawn
    per episode) that rotates with the commit; over commits the samples cover every template."""
    await validate_sample(runtime, family, 1, look="random")


@pytest.mark.slow
@pytest.mark.parametrize("family", FAMILIES)
async def test_sampled_templates_validate_under_each_family(runtime, family):
    """Every family on UIGYM_PERTURB_SAMPLE (default 2) templates rotating with the commit."""
    await validate_sample(runtime, family, int(os.environ.get("UIGYM_PERTURB_SAMPLE", "2")), look="random")
