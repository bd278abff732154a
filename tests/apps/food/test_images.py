"""Forkful's imagery (apps/food/images.py): the 3D renders are used wherever the set has the emoji, every
picture is a pure function of its inputs (same bytes twice, after clearing the caches, and in a fresh
process), and each comes at the size the pages ask for."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageFilter, ImageStat

from apps.food import SPEC, images
from apps.food.views.media import SIZES
from seed_data.food import build_world

ROOT = Path(__file__).resolve().parents[3]
NOW = SPEC.default_now

# Emoji the 3D set (@lobehub/fluent-emoji-3d 1.1.0) lacks, drawn from the Noto fallback: none today.
KNOWN_FALLBACKS: set[str] = set()


def _world_emoji(seed: int) -> set[str]:
    rows = build_world(seed, NOW)
    return ({it["emoji"] for it in rows["menu_items"]} | {c["emoji"] for c in rows["cuisines"]}
            | {s["emoji"] for s in rows["stores"]})


@pytest.fixture(scope="module")
def world_emoji() -> set[str]:
    return _world_emoji(0) | _world_emoji(1) | _world_emoji(2)


def _clear_caches() -> None:
    for v in vars(images).values():
        if hasattr(v, "cache_clear"):
            v.cache_clear()


def _open(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


SAMPLES = [  # (function, args): one of each kind of scene
    ("dish", ("Pepperoni Pizza", "🍕", 640, 320)), ("dish", ("Gyoza (6)", "🥟", 320, 320)),
    ("dish", ("Tonkotsu Ramen", "🍜", 160, 160)), ("dish", ("Edamame", "🫛", 640, 320)),
    ("dish", ("Fresh Orange Juice", "🍊", 320, 320)), ("dish", ("Mystery", "\u2603", 320, 320)),
    ("store_hero", ("Luigi's", ("🍕", "🧀", "🥗"), "#C8102E")),
    ("store_hero", ("Luigi's/banner", ("🍕", "🧀", "🥗", "🥖"), "#C8102E", 1200, 300)),
    ("store_logo", ("Luigi's", "🍕", "#C8102E")), ("cuisine_icon", ("🍣", "#E8DDD2")),
]


def _digest() -> dict[str, str]:
    return {f"{fn}{args}": hashlib.sha256(getattr(images, fn)(*args)).hexdigest() for fn, args in SAMPLES}


def test_same_inputs_same_bytes_twice_and_in_a_fresh_process():
    first = _digest()
    _clear_caches()
    assert _digest() == first
    code = ("import json, sys; sys.path.insert(0, '.'); from tests.apps.food.test_images import _digest; "
            "print(json.dumps(_digest()))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == first
    assert len(set(first.values())) == len(first)  # and different inputs give different pictures


def test_every_emoji_of_seeds_0_to_2_is_a_3d_render(world_emoji):
    fallbacks = {e for e in world_emoji | set(images.PROPS) if images.emoji_source(e) != "fluent3d"}
    assert fallbacks == KNOWN_FALLBACKS
    for e in sorted(world_emoji)[:5]:  # and emoji() really loads the vendored 3D file
        path = images.FLUENT_DIR / f"{images.emoji_key(e)}.png"
        assert images.emoji(e).tobytes() == Image.open(path).convert("RGBA").tobytes()


def test_fallbacks_noto_then_the_plate():
    assert images.emoji_source("🍕") == "fluent3d"
    assert images.emoji_source("\u2603") == "missing"  # a snowman: in neither set
    assert images.emoji("\u2603").tobytes() == images.emoji(images.FALLBACK).tobytes()
    # every 3D render has its Noto twin, so removing one from the 3D set still draws the dish
    noto = {p.name for p in images.EMOJI_DIR.glob("*.png")}
    assert {p.name for p in images.FLUENT_DIR.glob("*.png")} - noto <= {f"{images.emoji_key(e)}.png"
                                                                        for e in images.PROPS}


def test_vendored_set_is_what_the_script_lists_small_and_licensed():
    sys.path.insert(0, str(ROOT / "scripts"))
    import vendor_fluent_emoji as vendor

    files = {p.name for p in images.FLUENT_DIR.glob("*.png")}
    assert files == {f"{images.emoji_key(e)}.png" for e in vendor.wanted()}
    assert sum(p.stat().st_size for p in images.FLUENT_DIR.glob("*.png")) < 6_000_000
    assert "MIT License" in (images.FLUENT_DIR / "LICENSE").read_text()
    source = (images.FLUENT_DIR / "SOURCE.txt").read_text(encoding="utf-8")
    assert source.startswith("@lobehub/fluent-emoji-3d 1.1.0 (MIT)")
    assert all(name in source for name in files)
    for p in sorted(images.FLUENT_DIR.glob("*.png"))[:10]:
        im = Image.open(p)
        assert im.mode == "RGBA" and max(im.size) <= 256


def test_sizes_the_pages_ask_for():
    for w, h in SIZES.values():  # /img/dish/<id>-<sq|wide|thumb>.jpg
        im = _open(images.dish("Pad Thai", "🍜", w, h))
        assert (im.format, im.size) == ("JPEG", (w, h))
    assert _open(images.store_hero("X", ("🍕", "🥗"), "#C8102E")).size == (640, 360)  # cards, 296x167
    assert _open(images.store_hero("X/banner", ("🍕",), "#C8102E", 1200, 300)).size == (1200, 300)  # 960x240
    logo = _open(images.store_logo("X", "🍕", "#C8102E"))
    assert (logo.format, logo.size, logo.mode) == ("PNG", (128, 128), "RGBA")
    assert logo.getpixel((0, 0))[3] == 0 and logo.getpixel((64, 64))[3] == 255  # round, on transparent
    icon = _open(images.cuisine_icon("🍣", "#E8DDD2"))
    assert (icon.format, icon.size) == ("PNG", (144, 144))


def test_a_dish_is_a_scene_not_a_flat_fill():
    im = _open(images.dish("Pepperoni Pizza", "🍕", 640, 320)).convert("RGB")
    colours = len(im.resize((160, 80)).getcolors(maxcolors=160 * 80))
    assert colours > 2000  # wood grain, blur, shading: a photograph-like spread of colours
    top, bottom = im.crop((0, 0, 640, 60)), im.crop((0, 130, 640, 190))
    def sharpness(part: Image.Image) -> float:
        return ImageStat.Stat(part.convert("L").filter(ImageFilter.FIND_EDGES)).mean[0]

    assert sharpness(top) < sharpness(bottom)  # the far table is out of focus, the dish is not


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.text(max_size=40), e=st.one_of(st.sampled_from(sorted(_world_emoji(0))), st.text(max_size=3)),
       size=st.sampled_from(sorted(SIZES.values())))
def test_any_name_and_emoji_draw_a_deterministic_dish(name, e, size):
    data = images.dish(name, e, *size)
    im = _open(data)
    assert (im.format, im.size) == ("JPEG", size)
    images.dish.cache_clear()
    assert images.dish(name, e, *size) == data
