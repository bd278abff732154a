"""Deterministic Pillow food photography: dishes on plates, boards, in bowls and glasses on a table top,
store covers set with several of the store's dishes, round logos, cuisine icons.

Food comes from Microsoft's Fluent Emoji 3D renders (MIT; vendored in seed_data/assets/food/fluent3d/
by scripts/vendor_fluent_emoji.py from the npm package @lobehub/fluent-emoji-3d), with the flat Noto
Color Emoji PNGs in seed_data/assets/food/emoji/ (OFL) as the fallback for any emoji the 3D set lacks
(`emoji_source` says which one an emoji gets). A scene: a wooden or stone table in perspective, props
behind the dish out of focus (a second plate, a glass, a salt shaker), the dish on its vessel with a
contact shadow, a napkin with cutlery in front, a soft key light and a vignette. Every image is a pure
function of its inputs (hashes seed every choice; same inputs -> identical bytes) and is cached in memory.
"""

from __future__ import annotations

import io
import random
import re
import zlib
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageStat

ASSETS = Path(__file__).resolve().parents[2] / "seed_data" / "assets" / "food"
FLUENT_DIR = ASSETS / "fluent3d"  # the 3D renders (MIT)
EMOJI_DIR = ASSETS / "emoji"  # Noto Color Emoji (OFL): the fallback
FALLBACK = "🍽️"

# Emoji the scenes draw besides the world's own (scripts/vendor_fluent_emoji.py vendors these too).
PROPS = ("🍴", "🥄", "🧂", "🍷", "🌿", "🍋", "🌶️", "🧄", "🍅")

# The render already holds its own container (a bowl, a cup, a pan, a box): it stands on the table.
SELF_CONTAINED = frozenset("🍜 🍲 🍛 🍝 🥗 🥣 🍱 🍨 🍮 🍳 🥡 ☕ 🍵 🥤 🧋 🥛 🍹 🍚 🧈 🍦 🍧 🍯".split())
# Small things served as a heap in a bowl.
BOWLED = frozenset("🫐 🫘 🥜 🫛 🫒 🍓 🍇 🍒".split())
# Breads, sandwiches and pizza go on a wooden board.
BOARDED = frozenset("🍞 🥖 🥐 🧀 🍔 🥪 🍕 🌭 🥯 🫓 🥨 🌯 🥙 🌮 🫔".split())
DRINK_WORDS = re.compile(r"\b(juice|lemonade|tea|coffee|latte|brew|lassi|smoothie|slush|shake|water|soda|coke|"
                         r"jarritos|horchata|milk|agua|sorrel|shot|chai|cola|punch|spritzer)\b", re.I)
SIDES = ("🥗", "🍟", "🥖", "🍚", "🥟", "🍤", "🧆", "🥙", "🍢", "🌽", "🥐", "🍲")

WOODS = [  # (plank, plank variation) wood table tops
    (196, 160, 120), (150, 104, 70), (222, 204, 180), (112, 80, 58), (176, 128, 86), (210, 176, 136),
]
STONES = [(232, 229, 224), (66, 68, 74), (212, 206, 198), (44, 46, 50)]
PLATES = [(252, 252, 250), (246, 241, 233), (236, 231, 222), (230, 236, 240), (58, 58, 62), (244, 233, 226)]
BOWLS = [(250, 248, 244), (216, 226, 232), (64, 76, 92), (196, 104, 72), (236, 226, 206)]
BOARDS = [(186, 140, 92), (160, 114, 72), (206, 168, 120)]
CLOTHS = [(214, 64, 52), (40, 96, 160), (230, 180, 60), (60, 140, 100), (232, 228, 220), (120, 120, 128)]
LIQUIDS = [(r"coffee|brew|latte|chai|horchata", (126, 82, 50)), (r"tea", (176, 104, 44)),
           (r"water|soda|sparkling", (214, 232, 240)), (r"milk|shake|lassi", (238, 228, 210))]


def _h(*parts) -> int:
    return zlib.crc32("|".join(str(p) for p in parts).encode())


def emoji_key(e: str) -> str:
    return "-".join(f"{ord(c):x}" for c in e if ord(c) != 0xFE0F)


def emoji_source(e: str) -> str:
    """Which set draws this emoji: 'fluent3d', 'noto' (the 3D set lacks it) or 'missing' (drawn as 🍽️)."""
    k = f"{emoji_key(e)}.png"
    if (FLUENT_DIR / k).exists():
        return "fluent3d"
    return "noto" if (EMOJI_DIR / k).exists() else "missing"


@lru_cache(maxsize=256)
def emoji(e: str) -> Image.Image:
    src = emoji_source(e)
    if src == "missing":
        return emoji(FALLBACK)
    return Image.open((FLUENT_DIR if src == "fluent3d" else EMOJI_DIR) / f"{emoji_key(e)}.png").convert("RGBA")


@lru_cache(maxsize=2048)
def _sprite(e: str, size: int, angle: int = 0) -> tuple[Image.Image, Image.Image]:
    """The emoji scaled so its longer side is `size` (optionally rotated), and its soft drop shadow."""
    g = emoji(e)
    scale = size / max(g.size)
    g = g.resize((max(1, round(g.width * scale)), max(1, round(g.height * scale))), Image.LANCZOS)
    if angle:
        g = g.rotate(angle, resample=Image.BICUBIC, expand=True)
    return g, _soft(g.getchannel("A").point(lambda a: a * 2 // 5), max(2, size // 22))


def _soft(mask: Image.Image, radius: float) -> Image.Image:
    """`mask` blurred, on a canvas grown by 3 radii each side (pad = (new width - old width) // 2), so the
    blur never meets the canvas edge (that would cut the shadow with a hard line)."""
    pad = int(3 * radius) + 2
    big = Image.new("L", (mask.width + 2 * pad, mask.height + 2 * pad), 0)
    big.paste(mask, (pad, pad))
    return big.filter(ImageFilter.GaussianBlur(radius))


def _ink(im: Image.Image, mask: Image.Image, xy: tuple[int, int], color=(0, 0, 0)) -> None:
    layer = Image.new("RGBA", mask.size, color + (0,))
    layer.putalpha(mask)
    _put(im, layer, *xy)


def _put(im: Image.Image, layer: Image.Image, x: int, y: int) -> None:
    """alpha_composite `layer` with its top-left at (x, y), which may lie outside `im`."""
    sx, sy = max(0, -x), max(0, -y)
    if sx >= layer.width or sy >= layer.height or x >= im.width or y >= im.height:
        return
    part = layer.crop((sx, sy, min(layer.width, im.width - x), min(layer.height, im.height - y)))
    im.alpha_composite(part, (x + sx, y + sy))


@lru_cache(maxsize=2048)
def _drop(e: str, size: int, angle: int = 0, alpha: float = 1.0) -> Image.Image:
    """The sprite's drop shadow as a layer (cached)."""
    return _shadow_layer(_sprite(e, size, angle)[1], alpha)


def _shadow_layer(mask: Image.Image, alpha: float = 1.0) -> Image.Image:
    layer = Image.new("RGBA", mask.size, (20, 12, 6, 0))
    layer.putalpha(mask if alpha == 1.0 else mask.point(lambda a: int(a * alpha)))
    return layer


@lru_cache(maxsize=2048)
def _ground(e: str, size: int, angle: int = 0) -> Image.Image:
    """The render's shadow cast on the table: its silhouette squashed flat, darkest at the base."""
    g, _ = _sprite(e, size, angle)
    flat = g.getchannel("A").resize((g.width, max(2, g.height // 4)), Image.BILINEAR)
    sh = Image.new("L", (flat.width, flat.height + 2), 0)
    sh.paste(flat.point(lambda a: a * 3 // 5), (0, 0))
    ImageDraw.Draw(sh).ellipse([g.width * 0.18, flat.height * 0.55, g.width * 0.82, flat.height + 1], fill=170)
    return _shadow_layer(_soft(sh, max(2, size // 28)))


def _food(im: Image.Image, e: str, cx: int, bottom: int, size: int, angle: int = 0) -> None:
    """The render standing with its base at `bottom`, centred on cx, casting a shadow on what is under it."""
    g, sh = _sprite(e, size, angle)
    x, y = cx - g.width // 2, bottom - g.height
    pad = (sh.width - g.width) // 2
    _put(im, _drop(e, size, angle, 0.45), x - pad + size // 40, y - pad + size // 30)
    gr = _ground(e, size, angle)  # ends just below the base: the food sits on it
    flat = g.height // 4 + 2
    _put(im, gr, cx - gr.width // 2 + size // 30, bottom + size // 50 - (gr.height + flat) // 2)
    _put(im, g, x, y)


def _shade(c: tuple[int, int, int], d: int) -> tuple[int, int, int]:
    return tuple(max(0, min(255, v + d)) for v in c)


# --- the table ---------------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def _table(w: int, h: int, variant: int) -> Image.Image:
    """A table top in perspective: wooden planks running away to a vanishing point, or stone with veins."""
    rng = random.Random(variant)
    if variant % 3 == 2:  # stone
        base = STONES[(variant // 3) % len(STONES)]
        im = Image.new("RGBA", (w, h), base + (255,))
        veins = Image.new("L", (w, h), 0)
        d = ImageDraw.Draw(veins)
        for _ in range(5):
            x, y = rng.uniform(-0.2, 1.2) * w, rng.uniform(0, 1) * h
            pts = []
            for _ in range(9):
                pts.append((x, y))
                x += rng.uniform(0.05, 0.18) * w
                y += rng.uniform(-0.12, 0.12) * h
            d.line(pts, fill=rng.randint(40, 90), width=max(1, w // 400))
        veins = veins.filter(ImageFilter.GaussianBlur(1.2))
        _ink(im, veins, (0, 0), _shade(base, -60) if sum(base) > 380 else _shade(base, 50))
        return im
    base = WOODS[variant % len(WOODS)]
    im = Image.new("RGBA", (w, h), base + (255,))
    d = ImageDraw.Draw(im)
    vx = w * rng.uniform(0.35, 0.65)
    k = 0.62  # how much the planks narrow towards the top
    pw = w / rng.uniform(3.2, 4.6)
    x0 = -w * 0.8 + rng.uniform(0, pw)
    edges = []
    x = x0
    while x < w * 1.8:
        edges.append(x)
        x += pw
    for i in range(len(edges) - 1):
        b0, b1 = edges[i], edges[i + 1]
        t0, t1 = vx + (b0 - vx) * k, vx + (b1 - vx) * k
        tone = _shade(base, rng.randint(-14, 14))
        d.polygon([(b0, h), (b1, h), (t1, 0), (t0, 0)], fill=tone + (255,))
        for _ in range(7):  # grain along the plank
            f = rng.uniform(0.05, 0.95)
            wob = rng.uniform(-0.012, 0.012) * w
            pts = []
            for j in range(7):
                t = j / 6
                yb = h * (1 - t)
                xb = b0 + (b1 - b0) * f
                xt = t0 + (t1 - t0) * f
                pts.append((xb + (xt - xb) * t + wob * ((j % 3) - 1), yb))
            d.line(pts, fill=_shade(tone, rng.choice((-22, -14, 10))) + (255,), width=1)
        d.line([(b0, h), (t0, 0)], fill=_shade(base, -48) + (255,), width=max(1, w // 320))
    return im.filter(ImageFilter.GaussianBlur(0.6))


@lru_cache(maxsize=32)
def _light(w: int, h: int) -> tuple[Image.Image, Image.Image]:
    """Layers for a soft warm key light from the upper left and a vignette."""
    g = Image.radial_gradient("L")  # 0 at the centre, 255 at the corners
    key = g.resize((int(w * 1.8), int(h * 2.2)), Image.BILINEAR)
    ox, oy = int(key.width / 2 - w * 0.3), int(key.height / 2 - h * 0.05)
    key = key.crop((ox, oy, ox + w, oy + h)).point(lambda v: max(0, 150 - v) * 45 // 150)
    vig = g.resize((w, h), Image.BILINEAR).point(lambda v: max(0, v - 120) * 120 // 135)
    key_layer, vig_layer = Image.new("RGBA", (w, h), (255, 246, 230, 0)), Image.new("RGBA", (w, h), (0, 0, 0, 0))
    key_layer.putalpha(key)
    vig_layer.putalpha(vig)
    return key_layer, vig_layer


def _finish(im: Image.Image) -> Image.Image:
    for layer in _light(*im.size):
        im.alpha_composite(layer)
    return im


def _depth_blur(im: Image.Image, upto: float, radius: float) -> Image.Image:
    """Blur the far (upper) part of the frame, fading to sharp at `upto` of the height."""
    w, h = im.size
    band = min(h, int(h * upto) + int(3 * radius) + 2)  # only the far band, blurred at half size (fast)
    far = im.crop((0, 0, w, band))
    blurred = far.resize((max(1, w // 2), max(1, band // 2)), Image.BILINEAR).filter(
        ImageFilter.GaussianBlur(radius / 2)).resize((w, band), Image.BILINEAR)
    im.paste(Image.composite(blurred, far, _depth_mask(w, band, int(h * upto))), (0, 0))
    return im


@lru_cache(maxsize=32)
def _depth_mask(w: int, h: int, upto: int) -> Image.Image:
    ramp = Image.linear_gradient("L").resize((1, max(1, upto)), Image.BILINEAR)
    ramp = ImageChops.invert(ramp)
    mask = Image.new("L", (w, h), 0)
    mask.paste(ramp.resize((w, max(1, upto))), (0, 0))
    return mask


# --- vessels -----------------------------------------------------------------------------------------

@lru_cache(maxsize=512)
def _vessel(kind: str, rx: int, color: tuple[int, int, int]) -> Image.Image:
    """A plate, board or bowl seen at an angle, drawn at 3x and scaled down (antialiased)."""
    S = 3
    R = rx * S
    ry = int(R * 0.62)
    depth = int(R * (0.42 if kind == "bowl" else 0.07))
    W, H = 2 * R + 4 * S, 2 * ry + depth + 4 * S
    im = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    cx, cy = W // 2, ry + 2 * S
    dark = _shade(color, -46)
    if kind == "bowl":
        d.chord([cx - R, cy - ry - depth // 3, cx + R, cy + ry + depth], 0, 180, fill=dark + (255,))
        body = Image.new("L", (W, H), 0)
        ImageDraw.Draw(body).chord([cx - R, cy - ry - depth // 3, cx + R, cy + ry + depth], 0, 180, fill=255)
        hl = Image.new("L", (W, H), 0)
        ImageDraw.Draw(hl).ellipse([cx - R * 0.7, cy + ry * 0.1, cx + R * 0.1, cy + ry * 0.9 + depth * 0.6], fill=120)
        hl = ImageChops.multiply(hl.filter(ImageFilter.GaussianBlur(R // 8)), body)
        _ink(im, hl, (0, 0), _shade(color, 30))
        d.ellipse([cx - R, cy - ry, cx + R, cy + ry], fill=_shade(color, 12) + (255,))
        d.ellipse([cx - R * 0.93, cy - ry * 0.9, cx + R * 0.93, cy + ry * 0.93], fill=_shade(color, -30) + (255,))
        inner = Image.new("L", (W, H), 0)
        ImageDraw.Draw(inner).ellipse([cx - R * 0.9, cy - ry * 0.8, cx + R * 0.9, cy + ry * 0.92], fill=255)
        glow = Image.new("L", (W, H), 0)
        ImageDraw.Draw(glow).ellipse([cx - R * 0.7, cy - ry * 0.2, cx + R * 0.9, cy + ry * 0.95], fill=140)
        _ink(im, ImageChops.multiply(glow.filter(ImageFilter.GaussianBlur(R // 6)), inner), (0, 0), _shade(color, 18))
    else:
        d.ellipse([cx - R, cy - ry + depth, cx + R, cy + ry + depth], fill=dark + (255,))
        d.ellipse([cx - R, cy - ry, cx + R, cy + ry], fill=color + (255,))
        if kind == "plate":  # the well: a faint ring, darker at its far edge
            ring = Image.new("L", (W, H), 0)
            rd = ImageDraw.Draw(ring)
            rd.ellipse([cx - R * 0.72, cy - ry * 0.72, cx + R * 0.72, cy + ry * 0.72], fill=70)
            rd.ellipse([cx - R * 0.7, cy - ry * 0.66, cx + R * 0.7, cy + ry * 0.74], fill=0)
            _ink(im, ring.filter(ImageFilter.GaussianBlur(S * 2)), (0, 0), _shade(color, -60))
        else:  # board grain
            rng = random.Random(rx)
            grain = Image.new("L", (W, H), 0)
            gd = ImageDraw.Draw(grain)
            for _ in range(14):
                y = cy + rng.uniform(-0.9, 0.9) * ry
                gd.line([(cx - R, y), (cx + R, y + rng.uniform(-4, 4) * S)], fill=rng.randint(30, 70), width=S)
            mask = Image.new("L", (W, H), 0)
            ImageDraw.Draw(mask).ellipse([cx - R, cy - ry, cx + R, cy + ry], fill=255)
            _ink(im, ImageChops.multiply(grain, mask), (0, 0), _shade(color, -50))
        sheen = Image.new("L", (W, H), 0)
        ImageDraw.Draw(sheen).arc([cx - R * 0.96, cy - ry * 0.96, cx + R * 0.96, cy + ry * 0.96], 190, 290,
                                  fill=150, width=S * 3)
        _ink(im, sheen.filter(ImageFilter.GaussianBlur(S * 2)), (0, 0), (255, 255, 255))
    return im.resize((W // S, H // S), Image.LANCZOS)


@lru_cache(maxsize=256)
def _vessel_shadow(vw: int, vh: int, rx: int) -> Image.Image:
    ry = int(rx * 0.62)
    sh = Image.new("L", (vw, vh + ry // 6), 0)
    ImageDraw.Draw(sh).ellipse([0, ry // 4, vw - 1, vh + ry // 6 - 1], fill=110)
    return _shadow_layer(_soft(sh, max(3, rx // 9)))


def _place_vessel(im: Image.Image, kind: str, cx: int, cy: int, rx: int, color: tuple[int, int, int]) -> None:
    v = _vessel(kind, rx, color)
    ry = int(rx * 0.62)
    sh = _vessel_shadow(v.width, v.height, rx)
    pad = (sh.width - v.width) // 2
    _put(im, sh, cx - v.width // 2 - pad + rx // 14, cy - ry - pad + ry // 12)
    _put(im, v, cx - v.width // 2, cy - ry - 1)


@lru_cache(maxsize=64)
def _glass(gw: int, liquid: tuple[int, int, int] | None) -> Image.Image:
    """A tumbler (optionally filled), drawn at 3x: translucent walls, an elliptical rim, highlights."""
    S = 3
    W, H = gw * S, int(gw * 1.45) * S
    im = Image.new("RGBA", (W + 8, H + 8), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    top, bot = W * 0.5, W * 0.4
    cx = W // 2 + 4
    ey = W * 0.12
    body = [(cx - top, ey), (cx + top, ey), (cx + bot, H - ey), (cx - bot, H - ey)]
    d.polygon(body, fill=(235, 242, 246, 70))
    d.ellipse([cx - bot, H - 2 * ey, cx + bot, H], fill=(235, 242, 246, 90))
    if liquid:
        lt = H * 0.3
        f = (lt - ey) / (H - 2 * ey)
        lw = top + (bot - top) * f
        d.polygon([(cx - lw, lt), (cx + lw, lt), (cx + bot, H - ey), (cx - bot, H - ey)], fill=liquid + (225,))
        d.ellipse([cx - bot, H - 2 * ey, cx + bot, H], fill=liquid + (225,))
        d.ellipse([cx - lw, lt - ey * 0.8, cx + lw, lt + ey * 0.8], fill=_shade(liquid, 22) + (240,))
    d.ellipse([cx - top, 0, cx + top, 2 * ey], outline=(255, 255, 255, 200), width=S * 2)
    d.line([(cx - top * 0.7, ey * 1.6), (cx - bot * 0.72, H - ey * 1.4)], fill=(255, 255, 255, 170), width=S * 4)
    d.line([(cx + top * 0.8, ey * 1.6), (cx + bot * 0.85, H - ey * 1.4)], fill=(255, 255, 255, 90), width=S * 2)
    return im.resize((im.width // S, im.height // S), Image.LANCZOS)


def _liquid(name: str, e: str) -> tuple[int, int, int]:
    for pat, col in LIQUIDS:
        if re.search(pat, name, re.I):
            return col
    g = emoji(e).resize((16, 16), Image.BILINEAR)
    solid = g.getchannel("A").point(lambda a: 255 if a > 200 else 0)
    if not solid.getbbox():
        return (200, 160, 90)
    return tuple(int(v) for v in ImageStat.Stat(g.convert("RGB"), mask=solid).mean)


def _napkin(im: Image.Image, x: int, y: int, w: int, h: int, color, angle: float, seed: int) -> None:
    """A folded cloth napkin lying on the table with a spoon across it (in focus, in front)."""
    cloth, sh = _napkin_layers(w, h, tuple(color), round(angle), seed % 2)
    pad = (sh.width - cloth.width) // 2
    _put(im, sh, x - pad + 4, y - pad + 8)
    _put(im, cloth, x, y)


@lru_cache(maxsize=256)
def _napkin_layers(w: int, h: int, color: tuple[int, int, int], angle: int,
                   flip: int) -> tuple[Image.Image, Image.Image]:
    """The napkin (with its spoon) and its shadow layer, cached: a scene only places them."""
    S = 2
    W, H = w * S, h * S
    cloth = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(cloth)
    inset = W * 0.1  # the far edge is shorter: the napkin lies on the table
    d.polygon([(inset, 0), (W - inset, 0), (W, H), (0, H)], fill=color + (255,))
    d.line([(W * 0.5, 0), (W * 0.5, H)], fill=_shade(color, -34) + (255,), width=S * 2)
    d.line([(W * 0.5 + S * 2, 0), (W * 0.5 + S * 2, H)], fill=_shade(color, 28) + (220,), width=S)
    d.polygon([(inset, 0), (W - inset, 0), (W - inset * 0.9, H * 0.07), (inset * 0.9, H * 0.07)],
              fill=_shade(color, -18) + (255,))
    cloth = cloth.resize((w, h), Image.LANCZOS)
    spoon = _sprite("🥄", int(h * 1.05), 38 if flip else -38)[0]
    _put(cloth, spoon, w // 2 - spoon.width // 2, h // 2 - spoon.height // 2)
    cloth = cloth.rotate(angle, resample=Image.BICUBIC, expand=True)
    return cloth, _shadow_layer(_soft(cloth.getchannel("A").point(lambda a: a * 2 // 5), 5))


# --- scenes ------------------------------------------------------------------------------------------

def _count(name: str) -> int:
    m = re.search(r"\((\d+)\)", name)
    return max(1, min(int(m.group(1)), 4)) if m else 1


def _serve(im: Image.Image, e: str, cx: int, cy: int, rx: int, rng: random.Random, pieces: int = 1,
           name: str = "") -> None:
    """One dish at (cx, cy) (its vessel's centre) about rx wide (half-width): vessel by what the food is."""
    if e in SELF_CONTAINED:
        _food(im, e, cx, cy + int(rx * 0.6), int(rx * 1.7))
        return
    if name and DRINK_WORDS.search(name):
        gw = int(rx * 0.9)
        gl = _glass(gw, _liquid(name, e))
        bottom = cy + int(rx * 0.55)
        sh = Image.new("L", (gl.width, gl.height // 5), 0)
        ImageDraw.Draw(sh).ellipse([0, 0, gl.width - 1, gl.height // 5 - 1], fill=120)
        sh = _soft(sh, 6)
        pad = (sh.width - gl.width) // 2
        _put(im, _shadow_layer(sh), cx - gl.width // 2 - int(rx * 0.2) - pad + 8, bottom - gl.height // 8 - pad)
        _put(im, gl, cx - gl.width // 2 - int(rx * 0.2), bottom - gl.height)
        _food(im, e, cx + int(rx * 0.55), bottom + int(rx * 0.06), int(rx * 0.75))
        return
    kind = "bowl" if e in BOWLED else "board" if e in BOARDED else "plate"
    colors = BOWLS if kind == "bowl" else BOARDS if kind == "board" else PLATES
    color = colors[rng.randrange(len(colors))]
    _place_vessel(im, kind, cx, cy, int(rx * 0.85) if kind == "bowl" else rx, color)
    if kind == "bowl":
        for dx, dy, s in ((-0.3, 0.0, 0.72), (0.3, 0.02, 0.72), (0.0, 0.14, 0.8)):
            _food(im, e, cx + int(dx * rx), cy + int((dy + 0.1) * rx), int(s * rx))
        return
    if pieces == 1:
        _food(im, e, cx, cy + int(rx * 0.32), int(rx * 1.25), rng.choice((-8, -4, 0, 4, 8)))
        return
    spots = {2: ((-0.3, 0.1), (0.32, 0.22)), 3: ((-0.38, 0.08), (0.38, 0.08), (0.0, 0.34)),
             4: ((-0.3, -0.02), (0.32, -0.02), (-0.34, 0.36), (0.34, 0.36))}[pieces]
    for dx, dy in spots:
        _food(im, e, cx + int(dx * rx), cy + int(dy * rx), int(rx * (0.92 if pieces == 2 else 0.78)),
              rng.choice((-10, -5, 0, 5, 10)))


def _back_props(im: Image.Image, rng: random.Random, spots: list[tuple[int, int, int]]) -> None:
    """Props at the back of the table, drawn before the depth blur: a second dish, a glass, a shaker."""
    kinds = ["dish", "glass", "shaker", "wine"]
    rng.shuffle(kinds)
    for (x, y, r), kind in zip(spots, kinds):
        if kind == "dish":
            _serve(im, rng.choice(SIDES), x, y, r, rng)
        elif kind == "glass":
            gl = _glass(int(r * 0.9), rng.choice((None, (214, 232, 240), (236, 200, 90))))
            _put(im, gl, x - gl.width // 2, y - gl.height + r // 2)
        elif kind == "shaker":
            _food(im, "🧂", x, y + r // 3, int(r * 0.9))
        else:
            _food(im, "🍷", x, y + r // 3, int(r * 1.3))


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
    """A dish photo: the dish on its plate/board/bowl (or in a glass) on a table, props behind out of focus."""
    seed = _h(name, e)
    rng = random.Random(seed)
    im = _table(w, h, seed % 24).copy()
    m = min(w, h)
    rx = int(m * 0.40)
    cx = w // 2 + rng.randint(-m // 30, m // 30)
    cy = int(h * 0.56)
    if w > h * 1.4:  # wide: room for props at the sides
        side = rng.choice((-1, 1))
        _back_props(im, rng, [(cx - side * int(w * 0.36), int(h * 0.2), int(m * 0.3)),
                              (cx + side * int(w * 0.33), int(h * 0.12), int(m * 0.2))])
    else:
        _back_props(im, rng, [(rng.choice((int(w * 0.06), int(w * 0.94))), int(h * 0.1), int(m * 0.26))])
    im = _depth_blur(im, 0.5, max(2.5, m / 70))
    if w > h * 1.4 and rng.random() < 0.7:
        col = CLOTHS[rng.randrange(len(CLOTHS))]
        nw = int(h * 0.42)
        side_x = int(w * 0.76) if cx < w // 2 + 1 and rng.random() < 0.5 else int(w * 0.06)
        _napkin(im, side_x, int(h * 0.6), nw, int(nw * 0.7), col, rng.uniform(-10, 10), seed)
    _serve(im, e, cx, cy, rx, rng, _count(name), name)
    return _jpeg(_finish(im))


@lru_cache(maxsize=512)
def store_hero(name: str, emojis: tuple[str, ...], color: str, w: int = 640, h: int = 360) -> bytes:
    """A store's cover: several of its dishes set on a table, the signature one in front, a brand-coloured
    napkin, glasses out of focus."""
    seed = _h(name)
    rng = random.Random(seed)
    im = _table(w, h, seed % 24).copy()
    main = emojis[0] if emojis else FALLBACK
    rest = list(emojis[1:]) or [main]
    wide = w > h * 2.5
    if wide:  # the banner: a row of dishes across the table
        back = [(int(w * x), int(h * y), int(h * s)) for x, y, s in
                ((0.1, 0.3, 0.34), (0.3, 0.2, 0.3), (0.7, 0.2, 0.3), (0.9, 0.32, 0.34))]
        front = (w // 2, int(h * 0.58), int(h * 0.44))
    else:
        back = [(int(w * x), int(h * y), int(h * s)) for x, y, s in
                ((0.1, 0.3, 0.3), (0.9, 0.28, 0.28), (0.5, 0.04, 0.22))]
        front = (w // 2, int(h * 0.6), int(h * 0.42))
    for i, (x, y, r) in enumerate(back):
        if i < len(rest) or i == 0:
            _serve(im, rest[i % len(rest)], x, y, r, rng)
        else:
            gl = _glass(int(r * 0.7), rng.choice((None, (214, 232, 240))))
            _put(im, gl, x - gl.width // 2, y - gl.height + r // 2)
    im = _depth_blur(im, 0.45, max(2.5, h / 90))
    nw = int(h * (0.5 if wide else 0.42))
    _napkin(im, int(w * (0.76 if wide else 0.72)), int(h * 0.62), nw, int(nw * 0.7), _hex(color),
            rng.uniform(-10, 10), seed)
    _serve(im, main, *front, rng)
    return _jpeg(_finish(im))


def _hex(c: str) -> tuple[int, int, int]:
    c = c.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


@lru_cache(maxsize=512)
def store_logo(name: str, e: str, color: str, size: int = 128) -> bytes:
    s4 = size * 4
    im = Image.new("RGBA", (s4, s4), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.ellipse([0, 0, s4 - 1, s4 - 1], fill=_hex(color) + (255,))
    d.ellipse([s4 * 0.12, s4 * 0.12, s4 * 0.88, s4 * 0.88], fill=(255, 255, 255, 255))
    im = im.resize((size, size), Image.LANCZOS)
    g, sh = _sprite(e, int(size * 0.56))
    pad = (sh.width - g.width) // 2
    _put(im, _drop(e, int(size * 0.56), 0, 0.6), size // 2 - g.width // 2 - pad,
         size // 2 - g.height // 2 - pad + size // 40)
    _put(im, g, size // 2 - g.width // 2, size // 2 - g.height // 2)
    return _png(im)


@lru_cache(maxsize=128)
def cuisine_icon(e: str, bg: str, size: int = 144) -> bytes:
    """The cuisine's 3D render on a round tinted ground, with a soft shadow under it."""
    s4 = size * 4
    im = Image.new("RGBA", (s4, s4), (0, 0, 0, 0))
    ImageDraw.Draw(im).ellipse([0, 0, s4 - 1, s4 - 1], fill=_hex(bg) + (255,))
    im = im.resize((size, size), Image.LANCZOS)
    g, sh = _sprite(e, int(size * 0.7))
    pad = (sh.width - g.width) // 2
    x, y = size // 2 - g.width // 2, size // 2 - g.height // 2
    _put(im, _drop(e, int(size * 0.7), 0, 0.8), x - pad + size // 40, y - pad + size // 22)
    _put(im, g, x, y)
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
