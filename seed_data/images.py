"""Deterministic images drawn with Pillow: letter avatars (Gmail's coloured circle with an initial)
and attachment previews/files. Same inputs, same bytes (for one Pillow version)."""

from __future__ import annotations

import hashlib
import io
import random
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

# Google-ish letter-avatar palette.
AVATAR_COLORS = [
    "#1A73E8", "#D93025", "#188038", "#E37400", "#A142F4", "#12B5CB", "#E52592", "#5F6368",
    "#00897B", "#795548", "#3F51B5", "#7CB342", "#F4511E", "#8E24AA", "#0B8043", "#C2185B",
]


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


def avatar_color(name: str) -> str:
    """The avatar colour of a name (stable across processes: no Python hash())."""
    return AVATAR_COLORS[_digest(name.strip().lower())[0] % len(AVATAR_COLORS)]


def initial(name: str) -> str:
    for ch in name.strip():
        if ch.isalnum():
            return ch.upper()
    return "?"


@lru_cache(maxsize=8)
def _font(font_path: str | None, px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    if font_path and Path(font_path).exists():
        return ImageFont.truetype(font_path, px)
    return ImageFont.load_default(px)


def avatar_png(name: str, size: int, font_path: str | None = None) -> bytes:
    """A `size` x `size` PNG: coloured circle, white initial, transparent corners."""
    size = max(16, min(int(size), 256))
    scale = 4
    big = size * scale
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse((0, 0, big - 1, big - 1), fill=avatar_color(name))
    font = _font(font_path, int(big * 0.5))
    d.text((big / 2, big / 2), initial(name), fill="#FFFFFF", font=font, anchor="mm")
    img = img.resize((size, size), Image.LANCZOS)
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)
    return buf.getvalue()


def attachment_preview(filename: str, mime: str, key: str, width: int = 640, font_path: str | None = None) -> Image.Image:
    """A believable page for an attachment: a photo-like gradient for images, a document page otherwise."""
    rng = random.Random(_digest(f"{key}:{filename}"))
    if mime.startswith("image/"):
        h = int(width * 0.75)
        img = Image.new("RGB", (width, h))
        d = ImageDraw.Draw(img)
        top = tuple(rng.randint(60, 200) for _ in range(3))
        bottom = tuple(rng.randint(20, 140) for _ in range(3))
        for y in range(h):
            t = y / h
            d.line([(0, y), (width, y)], fill=tuple(int(a + (b - a) * t) for a, b in zip(top, bottom)))
        for _ in range(6):  # soft hills / shapes
            x, y, r = rng.randint(0, width), rng.randint(h // 2, h), rng.randint(60, 220)
            col = tuple(max(0, c - rng.randint(10, 60)) for c in bottom)
            d.ellipse((x - r, y - r // 2, x + r, y + r // 2), fill=col)
        sx, sy = rng.randint(60, width - 60), rng.randint(30, h // 3)
        d.ellipse((sx - 28, sy - 28, sx + 28, sy + 28), fill=(250, 236, 180))
        return img
    h = int(width * 1.294)
    img = Image.new("RGB", (width, h), "#FFFFFF")
    d = ImageDraw.Draw(img)
    font = _font(font_path, 22)
    small = _font(font_path, 13)
    d.text((48, 48), filename.rsplit(".", 1)[0][:40], fill="#202124", font=font)
    y = 100
    if "spreadsheet" in mime:
        for r in range(18):
            for c in range(5):
                x0 = 48 + c * 108
                d.rectangle((x0, y, x0 + 108, y + 26), outline="#DADCE0", fill="#E8F0FE" if r == 0 else "#FFFFFF")
                if r and c:
                    d.text((x0 + 8, y + 6), f"{rng.randint(10, 9999):,}", fill="#3C4043", font=small)
                elif r:
                    d.text((x0 + 8, y + 6), f"Item {r}", fill="#3C4043", font=small)
            y += 26
        return img
    while y < h - 80:
        if rng.random() < 0.12:
            y += 18
            continue
        w = rng.randint(int(width * 0.45), width - 96)
        d.rectangle((48, y, 48 + w, y + 8), fill="#DADCE0")
        y += 20
    return img


def attachment_bytes(filename: str, mime: str, key: str, font_path: str | None = None) -> tuple[bytes, str]:
    """The downloadable file for an attachment: (bytes, mime). PDFs and JPEGs are real files."""
    img = attachment_preview(filename, mime, key, font_path=font_path)
    buf = io.BytesIO()
    if mime == "image/jpeg":
        img.save(buf, "JPEG", quality=85)
        return buf.getvalue(), mime
    if mime == "text/plain":
        rng = random.Random(_digest(f"{key}:{filename}"))
        lines = [f"2026-03-0{rng.randint(1, 9)}T0{rng.randint(0, 9)}:{rng.randint(10, 59)}:00Z ERROR sync: "
                 f"429 Too Many Requests (retry {i})" for i in range(1, 40)]
        return ("\n".join(lines) + "\n").encode(), mime
    img.save(buf, "PDF", resolution=72.0)
    return buf.getvalue(), "application/pdf"


SKIN = ["#f1c27d", "#e0ac69", "#c68642", "#8d5524", "#ffdbac", "#d7a27a"]
HAIR = ["#2c1b10", "#4a2f1b", "#7a4a24", "#b07a3b", "#d8b26e", "#1c1c1c", "#8e8e8e", "#a0522d"]
BACKDROPS = [("#cfe3f7", "#8fb5e0"), ("#f7e2cf", "#e0b48f"), ("#d7efd8", "#93c79a"), ("#eadcf7", "#b99be0"),
             ("#f7d4dc", "#e095a8"), ("#e4e4e4", "#a9a9a9"), ("#fdf0c4", "#e6c35c"), ("#d2f0ef", "#7cc6c2")]


@lru_cache(maxsize=1)
def _first_names() -> tuple[frozenset, frozenset]:
    from faker.providers.person.en_US import Provider

    female, male = set(Provider.first_names_female), set(Provider.first_names_male)
    return frozenset(female - male), frozenset(male - female)  # names both lists hold stay unknown


def presented_gender(name: str) -> str | None:
    """'female' / 'male' when the first name is one of Faker's en_US names of only that gender (the seed's
    people come from there), else None."""
    first = (name or "").strip().split(" ")[0]
    female, male = _first_names()
    return "female" if first in female else "male" if first in male else None


# How often a photo shows long hair: these simple portraits have no other cue, and one should never
# contradict the name beside it.
LONG_HAIR = {"female": 1.0, "male": 0.0, None: 0.5}


def photo_avatar_png(key: str, size: int, name: str = "") -> bytes:
    """A deterministic 'profile photo': a person's head and shoulders on a soft backdrop (for contacts
    that have a photo; everyone else gets a letter avatar). `name` keeps the portrait plausible for it."""
    size = max(16, min(int(size), 256))
    rng = random.Random(_digest("photo:" + key.strip().lower()))
    big = 256
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    top, bottom = rng.choice(BACKDROPS)
    bg = Image.new("RGB", (big, big))
    d = ImageDraw.Draw(bg)
    t0, t1 = [tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in (top, bottom)]
    for y in range(big):
        f = y / big
        d.line([(0, y), (big, y)], fill=tuple(int(a + (b - a) * f) for a, b in zip(t0, t1)))
    skin, hair = rng.choice(SKIN), rng.choice(HAIR)
    shirt = tuple(rng.randint(40, 200) for _ in range(3))
    cx = big // 2 + rng.randint(-10, 10)
    d.ellipse((cx - 110, 178, cx + 110, 330), fill=shirt)  # shoulders
    d.rectangle((cx - 22, 140, cx + 22, 190), fill=skin)  # neck
    long_hair = rng.random() < LONG_HAIR[presented_gender(name)]
    if long_hair:
        d.ellipse((cx - 66, 44, cx + 66, 200), fill=hair)
    d.ellipse((cx - 52, 52, cx + 52, 170), fill=skin)  # face
    d.chord((cx - 56, 40, cx + 56, 130), 180, 360, fill=hair)  # hair on top
    eye_y = 108 + rng.randint(-4, 4)
    for ex in (cx - 20, cx + 20):
        d.ellipse((ex - 4, eye_y - 4, ex + 4, eye_y + 4), fill="#3b2a20")
    d.arc((cx - 18, 118, cx + 18, 148), 20, 160, fill="#8a4b3c", width=3)
    mask = Image.new("L", (big, big), 0)
    ImageDraw.Draw(mask).ellipse((0, 0, big - 1, big - 1), fill=255)
    img.paste(bg, (0, 0), mask)
    img = img.resize((size, size), Image.LANCZOS)
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)
    return buf.getvalue()
