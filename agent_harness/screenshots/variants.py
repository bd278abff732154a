"""A few variants side by side: `python -m agent_harness.screenshots.variants [--out docs/screenshots]`.

`--german [APP ...]`: an app's start page in the German UI language (lang=de, with German formats) alone, full size:
`<app>-de.png` (mail's inbox, the default; food's home: `--german food`; the CRM's home: `--german crm`).

The same page of the same world (seed 0) as the env shows it to an agent (AsyncUIEnv, so exactly the observation's
pixels) in the plain screen and in variants (gym_core/variant.py), two per app row, half size, each labelled with
its variant: `variants.png` for the README.
"""

from __future__ import annotations

import argparse
import asyncio
from io import BytesIO
from pathlib import Path

from PIL import Image

from agent_harness.screenshots.looks import PAGES, side_by_side

ROOT = Path(__file__).resolve().parents[2]
# (app, variant) per row; None is the plain screen.
ROWS = [
    [("mail", None), ("mail", "theme=dark,zoom=0.8,density=compact,locale=de-DE")],
    [("crm", "locale=en-GB,font=1.25"), ("crm", "look=hubspot,theme=contrast,zoom=1.25,locale=de-DE")],
    [("food", "zoom=1.5"), ("food", "look=ubereats,zoom=0.8,locale=de-DE,overlays=load")],
]


async def capture(app: str, variant: str | None) -> Image.Image:
    from gym_core import AsyncUIEnv, EnvConfig

    env = AsyncUIEnv(app, EnvConfig(variant=variant))
    try:
        await env.reset(seed=0, start_path=PAGES[app])
        return Image.open(BytesIO(env.last_png)).convert("RGB")
    finally:
        await env.close()


async def shoot() -> list[Image.Image]:
    from gym_core.runtime import Runtime

    try:
        return [side_by_side([(f"{app}: {v or 'no variant'}", await capture(app, v)) for app, v in row]) for row in ROWS]
    finally:
        await Runtime.current().close()


async def _german(app: str, path: Path) -> None:
    from gym_core.runtime import Runtime

    try:
        (await capture(app, "lang=de,locale=de-DE")).save(path, optimize=True)
    finally:
        await Runtime.current().close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m agent_harness.screenshots.variants")
    ap.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    ap.add_argument("--german", nargs="*", metavar="APP",
                    help="only <app>-de.png (mail when none is named): the start page in lang=de,locale=de-DE")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.german is not None:
        for app in args.german or ["mail"]:
            asyncio.run(_german(app, out / f"{app}-de.png"))
            print(f"saved {out / f'{app}-de.png'}")
        return 0
    rows = asyncio.run(shoot())
    grid = Image.new("RGB", (rows[0].width, sum(r.height for r in rows) + 12 * (len(rows) - 1)), "white")
    y = 0
    for r in rows:
        grid.paste(r, (0, y))
        y += r.height + 12
    grid.save(out / "variants.png", optimize=True)
    print(f"saved {out / 'variants.png'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
