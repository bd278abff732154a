"""Pre-render the food emoji the clone uses into small PNGs (committed), so the app never needs a
system font: `python seed_data/assets/food/build_emoji.py`.

Source: Noto Color Emoji (SIL Open Font License 1.1, see OFL.txt), rendered with Pillow at its
bitmap size (109 px -> 136x128) and trimmed to the glyph. Reads every emoji in
seed_data/vocab/food/*.json plus EXTRA below.
"""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

HERE = Path(__file__).parent
VOCAB = HERE.parents[1] / "vocab" / "food"
FONT = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
EXTRA = ["🍽️", "🛵", "🏠", "🏢", "💳", "🎁", "⭐", "❤️", "🔥", "🏷️", "🥄", "🌿", "🧂", "🍋", "🌶️", "🧄", "🥕", "🍅"]


def key(e: str) -> str:
    return "-".join(f"{ord(c):x}" for c in e if ord(c) != 0xFE0F)


def emojis() -> list[str]:
    found: set[str] = set(EXTRA)
    cuisines = json.loads((VOCAB / "cuisines.json").read_text())
    common = json.loads((VOCAB / "common.json").read_text())
    dishes = list(common["drinks"])
    for c in cuisines.values():
        found.add(c["emoji"])
        for items in c["menu"].values():
            dishes += items
    found.update(d.split("|")[2] for d in dishes)
    return sorted(found)


def main() -> None:
    font = ImageFont.truetype(FONT, 109)
    out = HERE / "emoji"
    out.mkdir(exist_ok=True)
    for e in emojis():
        im = Image.new("RGBA", (160, 160), (0, 0, 0, 0))
        ImageDraw.Draw(im).text((0, 0), e, font=font, embedded_color=True)
        box = im.getbbox()
        if not box:
            raise SystemExit(f"emoji {e!r} rendered blank")
        im.crop(box).save(out / f"{key(e)}.png", optimize=True)
    print(f"{len(emojis())} emoji -> {out}")


if __name__ == "__main__":
    main()
