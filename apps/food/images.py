"""Deterministic Pillow artwork: dishes on styled plates, store heroes and logos, cuisine icons.

Emoji glyphs come from the PNGs pre-rendered from Noto Color Emoji in seed_data/assets/food/emoji/
(OFL; see the OFL.txt there), so nothing depends on a system font. Every image is a pure function of
its inputs (hashes pick colours and layouts) and is cached in memory.
"""

from __future__ import annotations

import io
import zlib
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

EMOJI_DIR = Path(__file__).resolve().parents[2] / "seed_data" / "assets" / "food" / "emoji"

TABLES = [  # (base, stripe) wood and stone table tops
    ((196, 160, 120), (184, 146, 106)), ((166, 124, 91), (152, 112, 80)), ((224, 214, 200), (214, 203, 188)),
    ((92, 72, 60), (84, 65, 54)), ((210, 196, 176), (199, 184, 163)), ((60, 64, 70), (54, 58, 64)),
    ((232, 226, 216), (222, 215, 204)), ((178, 140, 100), (166, 128, 90)),
]
PLATES = [(255, 255, 255), (247, 243, 236), (238, 232, 222), (233, 239, 243), (52, 52, 56), (243, 233, 228)]
CLOTHS = [(214, 64, 52), (40, 96, 160), (230, 180, 60), (60, 140, 100), (200, 200, 200)]


def _h(*parts) -> int:
    return zlib.crc32("|".join(str(p) for p in parts).encode())


def emoji_key(e: str) -> str:
    return "-".join(f"{ord(c):x}" for c in e if ord(c) != 0xFE0F)


@lru_cache(maxsize=256)
def emoji(e: str) -> Image.Image:
    path = EMOJI_DIR / f"{emoji_key(e)}.png"
    if not path.exists():
        path = EMOJI_DIR / f"{emoji_key('🍽️')}.png"
    return Image.open(path).convert("RGBA")


def _paste_emoji(im: Image.Image, e: str, cx: int, cy: int, size: int, shadow: bool = True) -> None:
    g = emoji(e)
    scale = size / max(g.size)
    g = g.resize((max(1, int(g.width * scale)), max(1, int(g.height * scale))), Image.LANCZOS)
    x, y = cx - g.width // 2, cy - g.height // 2
    if shadow:
        alpha = g.split()[3].point(lambda a: int(a * 0.35))
        sh = Image.new("RGBA", g.size, (0, 0, 0, 0))
        sh.putalpha(alpha)
        sh = sh.filter(ImageFilter.GaussianBlur(max(2, size // 25)))
        im.alpha_composite(sh, (x + size // 30, y + size // 18))
    im.alpha_composite(g, (x, y))


def _table(w: int, h: int, seed: int) -> Image.Image:
    base, stripe = TABLES[seed % len(TABLES)]
    im = Image.new("RGBA", (w, h), base + (255,))
    d = ImageDraw.Draw(im)
    step = max(18, h // 6)
    for i, y in enumerate(range(0, h, step)):
        if i % 2:
            d.rectangle([0, y, w, y + step - 1], fill=stripe + (255,))
        d.line([0, y, w, y], fill=tuple(max(0, c - 18) for c in base) + (255,), width=1)
    # a cloth corner on some images
    if seed % 3 == 0:
        col = CLOTHS[(seed // 3) % len(CLOTHS)]
        cw = w // 3
        d.polygon([(w - cw, h), (w, h - cw), (w, h)], fill=col + (255,))
        for k in range(0, cw, max(6, cw // 8)):
            d.line([(w - cw + k, h), (w, h - cw + k)], fill=(255, 255, 255, 90), width=2)
    return im


def _plate(im: Image.Image, cx: int, cy: int, r: int, color: tuple[int, int, int]) -> None:
    sh = Image.new("RGBA", im.size, (0, 0, 0, 0))
    ImageDraw.Draw(sh).ellipse([cx - r + r // 12, cy - r + r // 8, cx + r + r // 12, cy + r + r // 8], fill=(0, 0, 0, 70))
    im.alpha_composite(sh.filter(ImageFilter.GaussianBlur(r // 10)))
    d = ImageDraw.Draw(im)
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=color + (255,))
    rim = tuple(max(0, c - 14) for c in color)
    inner = int(r * 0.78)
    d.ellipse([cx - inner, cy - inner, cx + inner, cy + inner], fill=rim + (255,))
    inner2 = int(r * 0.74)
    d.ellipse([cx - inner2, cy - inner2, cx + inner2, cy + inner2], fill=color + (255,))


def _jpeg(im: Image.Image) -> bytes:
    buf = io.BytesIO()
    im.convert("RGB").save(buf, "JPEG", quality=86, optimize=True)
    return buf.getvalue()


def _png(im: Image.Image) -> bytes:
    buf = io.BytesIO()
    im.save(buf, "PNG", optimize=True)
    return buf.getvalue()


@lru_cache(maxsize=2048)
def dish(name: str, e: str, w: int = 320, h: int = 320) -> bytes:
    """A dish photo: the dish's emoji on a plate on a table top."""
    seed = _h(name, e)
    im = _table(w, h, seed)
    r = int(min(w, h) * 0.42)
    cx, cy = w // 2 + (seed % 7 - 3) * w // 100, h // 2 + 4
    _plate(im, cx, cy, r, PLATES[(seed >> 4) % len(PLATES)])
    _paste_emoji(im, e, cx, cy - r // 20, int(r * 1.15))
    if (seed >> 8) % 2 and w > h:
        _paste_emoji(im, "🌿", cx + r + r // 3, cy - r // 2, r // 3)
    return _jpeg(im)


@lru_cache(maxsize=512)
def store_hero(name: str, emojis: tuple[str, ...], color: str, w: int = 640, h: int = 360) -> bytes:
    """A store's cover: its signature dishes on a table, main plate in the middle."""
    seed = _h(name)
    im = _table(w, h, seed)
    main = emojis[0] if emojis else "🍽️"
    side = [e for e in emojis[1:3]] or [main]
    r = int(h * 0.40)
    cx, cy = w // 2, h // 2 + h // 20
    # side plates partly off the frame
    _plate(im, int(w * 0.08), int(h * 0.22), int(r * 0.62), PLATES[(seed >> 3) % len(PLATES)])
    _paste_emoji(im, side[0], int(w * 0.08), int(h * 0.22), int(r * 0.7))
    _plate(im, int(w * 0.93), int(h * 0.82), int(r * 0.62), PLATES[(seed >> 5) % len(PLATES)])
    _paste_emoji(im, side[-1], int(w * 0.93), int(h * 0.82), int(r * 0.7))
    _plate(im, cx, cy, r, PLATES[(seed >> 7) % len(PLATES)])
    _paste_emoji(im, main, cx, cy - r // 20, int(r * 1.15))
    return _jpeg(im)


def _hex(c: str) -> tuple[int, int, int]:
    c = c.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


@lru_cache(maxsize=512)
def store_logo(name: str, e: str, color: str, size: int = 128) -> bytes:
    s4 = size * 4
    im = Image.new("RGBA", (s4, s4), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.ellipse([0, 0, s4 - 1, s4 - 1], fill=_hex(color) + (255,))
    d.ellipse([s4 * 0.17, s4 * 0.17, s4 * 0.83, s4 * 0.83], fill=(255, 255, 255, 255))
    im = im.resize((size, size), Image.LANCZOS)
    _paste_emoji(im, e, size // 2, size // 2, int(size * 0.5), shadow=False)
    return _png(im)


@lru_cache(maxsize=128)
def cuisine_icon(e: str, bg: str, size: int = 144) -> bytes:
    s4 = size * 4
    im = Image.new("RGBA", (s4, s4), (0, 0, 0, 0))
    ImageDraw.Draw(im).ellipse([0, 0, s4 - 1, s4 - 1], fill=_hex(bg) + (255,))
    im = im.resize((size, size), Image.LANCZOS)
    _paste_emoji(im, e, size // 2, size // 2 + 2, int(size * 0.62))
    return _png(im)


@lru_cache(maxsize=8)
def logo_mark(size: int = 64) -> bytes:
    """Forkful's own mark: a red rounded square with a white fork."""
    s4 = size * 4
    im = Image.new("RGBA", (s4, s4), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle([0, 0, s4 - 1, s4 - 1], radius=s4 // 4, fill=(255, 48, 8, 255))
    w = s4 // 16
    cx = s4 // 2
    for dx in (-3 * w, -w, w, 3 * w):
        d.rounded_rectangle([cx + dx - w // 2, s4 * 0.2, cx + dx + w // 2, s4 * 0.46], radius=w // 2, fill="white")
    d.rounded_rectangle([cx - 4 * w, s4 * 0.42, cx + 4 * w, s4 * 0.52], radius=w, fill="white")
    d.rounded_rectangle([cx - w, s4 * 0.48, cx + w, s4 * 0.82], radius=w, fill="white")
    return _png(im.resize((size, size), Image.LANCZOS))
