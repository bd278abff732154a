"""Variants (gym_core/variant.py, issue 45): parsing, the seeded draw, what each axis does in a real browser, and that
the world, the grade and the tools never see the variant; the same variant and seed give the same pixels."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_harness.agents import NoopAgent, OracleAgent
from agent_harness.episode import run_episode
from agent_harness.trajectory import Trajectory
from apps import app_looks
from apps._shared import locale as L
from apps._shared.display import encode_display
from gym_core import AsyncUIEnv, EnvConfig
from gym_core.perturb import OVERLAY_ATTR, Drawn, episode_key
from gym_core.variant import (
    AXES, PRESETS, Variant, VariantError, VariantSpec, covering_sample, draw_variant, offered, parse_variant,
)
from tasks import load_task

APPS = ("mail", "food", "crm")
EASY = {"mail": "mail/star-latest-from-00", "food": "food/switch-address-00", "crm": "crm/complete-todays-task-00"}
# Every axis away from its default at once (mail offers all of them).
HEAVY = "theme=dark,zoom=1.25,density=compact,font=1.25,locale=de-DE,overlays=mid"


# ------------------------------------------------------------------------------------------------- parse
def test_parse_the_documented_forms():
    assert parse_variant(None) == parse_variant("") == parse_variant("default") == VariantSpec()
    s = parse_variant("look=outlook, zoom=80%, font=1.25, locale=de_DE, theme=Dark")
    assert (s.look, s.zoom, s.font, s.locale, s.theme) == ("outlook", 0.8, 1.25, "de-DE", "dark")
    assert parse_variant("zoom=0.67|1.5").zoom == (0.67, 1.5) and parse_variant("zoom=150").zoom == 1.5
    every = parse_variant("random")
    assert all(getattr(every, a) == "random" for a in AXES)
    assert parse_variant("random,look=outlook").look == "outlook"  # a named axis over "random"
    assert parse_variant("low-vision") == parse_variant(PRESETS["low-vision"])
    assert str(parse_variant("look=outlook,zoom=0.8")) == "look=outlook,zoom=0.8"
    assert parse_variant(parse_variant("theme=dark")) == parse_variant({"theme": "dark"})
    for name, text in PRESETS.items():
        assert parse_variant(name) == parse_variant(text), name


@pytest.mark.parametrize("bad,says", [
    ("zoom=0.5", "0.67, 0.75, 0.8"), ("theme=pink", "light, dark, contrast"), ("foo=1", "the axes are look"),
    ("locale=fr-FR", "en-US, en-GB, de-DE"), ("look=notalook", "gmail"), ("xyz", "axis=value"),
    ("lang=fr", "choose from en, de"), ("zoom=", "has no value"),
])
def test_a_bad_variant_is_a_clear_error_listing_the_axes_or_values(bad, says):
    with pytest.raises(VariantError, match=None) as e:
        parse_variant(bad)
    assert says in str(e.value)
    with pytest.raises(ValueError):
        EnvConfig(variant=bad)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(), st.lists(st.sampled_from(
    ["zoom=0.8", "theme=dark", "random", "compact", "x=1", "font=2", "look=outlook", "", "locale=en-GB"])).map(",".join)))
def test_parse_gives_a_spec_or_a_variant_error(text):
    try:
        spec = parse_variant(text)
    except VariantError as e:
        assert str(e)
        return
    assert isinstance(spec, VariantSpec)


# -------------------------------------------------------------------------------------------------- draw
def test_the_draw_is_seeded_per_axis_and_offers_only_what_the_app_has():
    key = episode_key("mail/x-00", 7)
    every = parse_variant("random")
    assert draw_variant(every, "mail", "gmail", key) == draw_variant(every, "mail", "gmail", key)
    # Each axis from its own stream: naming another axis never changes what one draws.
    alone = draw_variant(parse_variant("zoom=random"), "mail", "gmail", key)
    assert alone.zoom == draw_variant(every, "mail", "gmail", key).zoom
    seen: dict[str, set] = {a: set() for a in AXES if a != "look"}
    for app in APPS:
        for s in range(200):
            v = draw_variant(every, app, app_looks(app)[0], episode_key(f"{app}/t-00", s))
            for a in seen:
                assert getattr(v, a) in offered(a, app, v.look), (app, a, getattr(v, a))
                seen[a].add(getattr(v, a))
            assert (v.overlay_kinds != ()) == (v.overlays != "none") and (v.overlay_step > 0) == (v.overlays == "mid")
    assert seen["theme"] == {"light", "dark", "contrast"} and len(seen["zoom"]) == len(AXES["zoom"].values)
    # A value the app lacks gives the default, and the recorded variant says so.
    assert draw_variant(parse_variant("density=compact,theme=dark"), "food", "doordash", key).density == "default"
    assert draw_variant(parse_variant("theme=dark"), "food", "doordash", key).theme == "light"
    # The screen perturbations show in the variant where it names no such axis.
    v = draw_variant(VariantSpec(), "mail", "gmail", key, Drawn(dark=True, overlays=("promo",)))
    assert (v.theme, v.overlays, v.overlay_kinds) == ("dark", "load", ("promo",))


def test_a_look_offers_a_zoom_and_font_only_as_high_as_it_is_proven():
    from apps import variant_limits

    assert variant_limits("crm", "salesforce") == {"zoom": 1.25, "font": 1.0} and variant_limits("mail", "gmail") == {}
    assert 1.5 in offered("zoom", "mail", "gmail") and max(offered("zoom", "mail", "outlook")) == 1.25
    assert max(offered("font", "crm", "hubspot")) == 1.25 and 1.5 in offered("font", "food", "doordash")
    key = episode_key("crm/x-00", 1)
    # asked for above it: the nearest the look is proven in, recorded as such
    assert draw_variant(parse_variant("zoom=1.5"), "crm", "salesforce", key).zoom == 1.25
    assert draw_variant(parse_variant("zoom=1.5"), "mail", "gmail", key).zoom == 1.5
    for s in range(100):
        assert draw_variant(parse_variant("random"), "crm", "hubspot", episode_key("crm/t-00", s)).font <= 1.25


def test_label_info_and_display():
    v = Variant(look="outlook", zoom=0.8, density="compact", locale="de-DE")
    assert v.label("gmail") == "look=outlook,zoom=0.8,density=compact,locale=de-DE"
    assert Variant(look="gmail").label("gmail") == "default"
    info = v.info("gmail")
    assert json.loads(json.dumps(info)) == info and info["label"] == v.label("gmail")
    assert v.display == {"density": "compact", "locale": "de-DE"} and Variant().display == {}
    assert encode_display(**v.display) == "density=compact&locale=de-DE" and encode_display() == ""


def test_the_ci_sample_covers_every_value_each_app_offers_and_rotates():
    for app in APPS:
        looks = app_looks(app)
        specs = covering_sample(app, looks, "abc")
        for a in AXES:
            want = set(looks) if a == "look" else {v for lk in looks for v in offered(a, app, lk)}
            assert {getattr(s, a) for s in specs} == want, (app, a)
        for s in specs:  # each pinned, and each value offered by its own look
            assert "random" not in str(s)
            assert s.theme in offered("theme", app, s.look) and s.density in offered("density", app, s.look)
        assert covering_sample(app, looks, "abc") == specs and covering_sample(app, looks, "abd") != specs


def test_locale_formats():
    d = dt.datetime(2026, 3, 5, 15, 21)
    assert [L.money(1234.5, loc) for loc in L.LOCALES] == ["$1,234.50", "US$1,234.50", "1.234,50\xa0$"]
    assert [L.time(d, loc) for loc in L.LOCALES] == ["3:21 PM", "15:21", "15:21"]
    assert [L.skeleton(d, "MMMd", loc) for loc in L.LOCALES] == ["Mar 5", "5 Mar", "5. März"]
    assert [L.date_short(d, loc) for loc in L.LOCALES] == ["3/5/26", "05/03/2026", "05.03.26"]


# --------------------------------------------------------------------------------------- in the browser
async def test_zoom_lays_the_page_out_in_fewer_css_pixels_on_the_same_screen_and_maps_the_points(runtime):
    env = AsyncUIEnv("mail", EnvConfig(variant="zoom=1.5", set_of_marks=True), runtime=runtime)
    try:
        obs, info = await env.reset(seed=0, start_path="/inbox")
        assert info["variant"]["zoom"] == 1.5 and obs["screenshot"].shape == (720, 1280, 3)
        w, h = await env.page.evaluate("[innerWidth, innerHeight]")
        assert (w, h) == (853, 480)
        # A mark's box is on the screen: the page's box times the zoom.
        star = next(m for m in obs["marks"] if m["name"].startswith("Not starred") or m["name"] == "Compose")
        x, y, w, h = (int(v) for v in star["box"])
        css = await env.page.evaluate(
            "([x, y]) => { const e = document.elementFromPoint(x, y); return e ? e.closest('button,a,[role]') !== null : false }",
            [(x + w / 2) / 1.5, (y + h / 2) / 1.5])
        assert css
        # A click at the mark's centre (screen pixels) lands on it.
        compose = next(m for m in obs["marks"] if m["name"] == "Compose")
        cx, cy = int(compose["box"][0] + compose["box"][2] / 2), int(compose["box"][1] + compose["box"][3] / 2)
        obs, *_ = await env.step({"type": "click", "x": cx, "y": cy})
        assert not obs["last_action_error"]
        assert await env.page.evaluate("!!document.querySelector('[role=dialog]')")
        # A plain episode on the same tab is back to 100%.
        env.config = EnvConfig()
        obs, info = await env.reset(seed=0, start_path="/inbox")
        assert await env.page.evaluate("[innerWidth, innerHeight, devicePixelRatio]") == [1280, 720, 1]
        assert info["variant"]["label"] == "default"
    finally:
        await env.close()


async def test_every_zoom_draws_exactly_the_window_with_the_page_in_fewer_css_pixels(runtime):
    env = AsyncUIEnv("food", EnvConfig(screenshots=True), runtime=runtime)  # proven at every zoom
    try:
        for z in AXES["zoom"].values:
            env.config = EnvConfig(variant=f"zoom={z}")
            obs, info = await env.reset(seed=0)
            assert obs["screenshot"].shape == (720, 1280, 3), z
            w, h = await env.page.evaluate("[innerWidth, innerHeight]")
            assert (w, h) == env.css_size and abs(w - 1280 / z) <= 0.5 and abs(h - 720 / z) <= 0.5, z
    finally:
        await env.close()


async def test_the_same_variant_and_seed_give_the_same_pixels(runtime):
    a = AsyncUIEnv("mail", EnvConfig(variant=HEAVY.replace("overlays=mid", "overlays=load")), runtime=runtime)
    b = AsyncUIEnv("mail", EnvConfig(variant=HEAVY.replace("overlays=mid", "overlays=load")), runtime=runtime)
    plain = AsyncUIEnv("mail", runtime=runtime)
    try:
        o1, i1 = await a.reset(seed=3, start_path="/inbox")
        o2, _ = await a.reset(seed=3, start_path="/inbox")  # the reused tab
        o3, i3 = await b.reset(seed=3, start_path="/inbox")  # another tab
        assert i1["variant"] == i3["variant"]
        assert np.array_equal(o1["screenshot"], o2["screenshot"]) and np.array_equal(o1["screenshot"], o3["screenshot"])
        op, _ = await plain.reset(seed=3, start_path="/inbox")
        assert not np.array_equal(o1["screenshot"], op["screenshot"])
    finally:
        for e in (a, b, plain):
            await e.close()


async def test_density_locale_theme_and_font_reach_the_page_and_never_the_world(runtime):
    env = AsyncUIEnv("mail", EnvConfig(variant="density=compact,locale=de-DE,theme=contrast,font=1.5"), runtime=runtime)
    plain = AsyncUIEnv("mail", runtime=runtime)
    try:
        await env.reset(seed=2, start_path="/inbox")
        await plain.reset(seed=2, start_path="/inbox")
        page = env.page
        assert "density-compact" in await page.evaluate("document.body.className")
        assert await page.evaluate("document.documentElement.dataset.locale") == "de-DE"
        assert "März" in await page.evaluate("document.body.innerText")  # "11. März": a list date in de-DE
        assert await page.evaluate("matchMedia('(forced-colors: active)').matches")
        assert await page.evaluate("getComputedStyle(document.documentElement).fontSize") == "24px"
        assert await env.state() == await plain.state()  # the world holds no variant
        assert (await env.state())["account"][0]["display_density"] == "default"
        # A density the user picks in the app is the world's, and from then on the world's shows.
        r = await page.evaluate("""async () => (await fetch('/api/settings', {method: 'POST',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify({display_density: 'comfortable'})})).status""")
        assert r == 200
        await page.reload()
        assert "density-comfortable" in await page.evaluate("document.body.className")
        assert await page.evaluate("document.documentElement.dataset.locale") == "de-DE"  # the locale stays
        # The next episode on the same (parked) tab without a variant shows the app's defaults again.
        env.config = EnvConfig()
        await env.reset(seed=2, start_path="/inbox")
        assert await env.page.evaluate("document.documentElement.dataset.locale") == "en-US"
        assert "density-default" in await env.page.evaluate("document.body.className")
        assert [c["name"] for c in await env.context.cookies()] == ["uigym_world"]
    finally:
        await env.close()
        await plain.close()


async def test_mid_episode_overlays_appear_after_their_step(runtime):
    task = load_task(EASY["mail"])
    spec = parse_variant("overlays=mid")
    seed = next(s for s in range(200) if draw_variant(spec, "mail", "gmail", episode_key(task.id, s)).overlay_step == 2)
    env = AsyncUIEnv(None, EnvConfig(variant=spec), runtime=runtime)
    try:
        obs, info = await env.reset(task=task, seed=seed)
        assert info["variant"]["overlays"] == "mid" and info["variant"]["overlay_step"] == 2
        count = f"document.querySelectorAll('[{OVERLAY_ATTR}]').length"
        assert await env.page.evaluate(count) == 0
        await env.step({"type": "move", "x": 5, "y": 5})
        assert await env.page.evaluate(count) == 0
        await env.step({"type": "move", "x": 6, "y": 6})
        assert await env.page.evaluate(count) >= 1
        await env.page.reload()  # and on the next page of the episode
        assert await env.page.evaluate(count) >= 1
    finally:
        await env.close()


@pytest.mark.parametrize("app", [pytest.param(a, marks=() if a == "mail" else pytest.mark.slow) for a in APPS])
async def test_the_world_and_the_grade_do_not_depend_on_the_variant(runtime, app, tmp_path: Path):
    """The oracle in the plain screen and in a variant with every axis away from its default: the same grade (1; a
    noop 0) and the same end state of the world; the variant is recorded in the reset info, the trajectory and the
    results row."""
    task = load_task(EASY[app])
    heavy = "theme=contrast,zoom=0.8,font=1.5,locale=en-GB,overlays=mid" + (",density=compact" if app != "food" else "")
    ends, rows = [], []
    for i, variant in enumerate((None, heavy)):
        env = AsyncUIEnv(None, EnvConfig(variant=variant, screenshots=i == 1), runtime=runtime)
        try:
            row = await run_episode(env, OracleAgent(), task, tmp_path / str(i), sample=4, label="oracle")
            ends.append(await env.state())
            rows.append(row)
            assert (await run_episode(env, NoopAgent(), task, tmp_path / f"noop{i}", 4, "noop"))["reward"] == 0.0
        finally:
            await env.close()
    assert [r["reward"] for r in rows] == [1.0, 1.0], rows
    assert ends[0] == ends[1]
    assert rows[0]["variant"]["label"] == "default"
    v = rows[1]["variant"]
    assert v["zoom"] == 0.8 and v["locale"] == "en-GB" and v["overlays"] == "mid" and v["theme"] == "contrast"
    traj = Trajectory.load(tmp_path / "1" / rows[1]["episode_dir"] / "trajectory.json")
    assert traj.variant == v


async def test_tools_mode_has_no_variant(runtime):
    from gym_core.tool_env import AsyncToolEnv

    env = AsyncToolEnv("mail", EnvConfig(variant="zoom=0.8"), runtime=runtime)
    try:
        _, info = await env.reset(task=EASY["mail"], seed=0)
        assert "variant" not in info
    finally:
        await env.close()


# ------------------------------------------------------------------------------------ CLI, splits, report
def test_cli_lists_the_axes_and_refuses_a_bad_variant():
    from typer.testing import CliRunner

    from agent_harness.cli import app

    r = CliRunner().invoke(app, ["variants"])
    assert r.exit_code == 0, r.output
    for a in AXES:
        assert f"{a}:" in r.output
    assert "low-vision: theme=contrast,zoom=1.5,font=1.5" in r.output and "food: light contrast" in r.output
    for cmd in (["eval", "--tasks", "mail/star-latest-from-00"], ["tasks", "validate", "--tasks", "mail/star-latest-from-00"]):
        r = CliRunner().invoke(app, [*cmd, "--variant", "zoom=0.5"])
        assert r.exit_code != 0 and "0.67" in r.output, r.output


def test_splits_name_a_band_of_one_axis_and_merge_with_the_variant():
    from gym_core.variant import SPLITS, merge_variant, split_variant

    for axis, (train, held) in SPLITS.items():
        tr, he = getattr(parse_variant(train), axis), getattr(parse_variant(held), axis)
        tr, he = set(tr if isinstance(tr, tuple) else (tr,)), set(he if isinstance(he, tuple) else (he,))
        assert not tr & he and split_variant(f"heldout-{axis}") == held and split_variant(f"train-{axis}") == train
    assert split_variant("heldout-look") is None and split_variant("test") is None
    m = merge_variant("locale=de-DE,zoom=1", split_variant("heldout-zoom"))
    assert m.locale == "de-DE" and m.zoom == (0.67, 0.75, 1.5)


def test_the_report_gives_the_pass_rate_per_axis_value_with_intervals():
    from agent_harness.report.stats import VARIANT_AXES, variant_breakdowns
    from agent_harness.summary import variant_table

    assert VARIANT_AXES == tuple(AXES)
    rows = []
    for i in range(40):
        v = Variant(look="gmail", zoom=1.5 if i % 2 else 1.0, locale="de-DE" if i % 4 == 0 else "en-US").info("gmail")
        rows.append({"task_id": f"mail/t-{i % 5:02d}", "template": f"t{i % 5}", "app": "mail", "reward": float(i % 3 != 0),
                     "passed": i % 3 != 0, "steps": 3, "seconds": 1.0, "variant": v})
    rows.append({"task_id": "mail/t-00", "template": "t0", "app": "mail", "reward": 1.0, "passed": True, "steps": 1,
                 "seconds": 1.0, "variant": None})  # tools mode: no variant, left out
    groups = variant_breakdowns(rows)
    assert set(groups) == {"variant:zoom", "variant:locale"}  # the axes the episodes differ on
    zoom = dict(groups["variant:zoom"])
    assert zoom["1.5"]["graded"] == 20 and zoom["1"]["graded"] == 20
    assert zoom["1.5"]["wilson"] is not None and zoom["1.5"]["wilson"][0] <= zoom["1.5"]["pass_rate"] <= zoom["1.5"]["wilson"][1]
    assert variant_table(rows) is not None and variant_table(rows[:1]) is None
