"""Both looks of each clone side by side: `python -m agent_harness.screenshots.looks [--out docs/screenshots]`.

For each app, the same page of the same world (seed 0, the default now) in its default look and in its
second, each served by hand (`UIGYM_LOOK`) on a free port with a throwaway UIGYM_HOME and captured at
1280x720 in Chromium (clock frozen, reduced motion); then `looks-<app>.png` (the two side by side, half
size) and `looks.png` (the three apps, one row each) for the README. Fails on a failed request or a page
error, so a broken look never makes it into the docs.
"""

from __future__ import annotations

import argparse
import datetime as dt
import logging
import sys
import tempfile
import threading
from io import BytesIO
from pathlib import Path

from PIL import Image, ImageDraw
from werkzeug.serving import make_server

from agent_harness.screenshots.crm import CHROMIUM_ARGS
from apps import app_looks, load_app_module
from gym_core.browser import chromium_executable

ROOT = Path(__file__).resolve().parents[2]
# The page each app is shown on: the everyday first page of its product.
PAGES = {"mail": "/inbox", "food": "/", "crm": "/lightning/o/Opportunity/list?filterName=MyOpportunities"}
W, H = 1280, 720


def _serve(app_name: str, look: str, home: str):
    app = load_app_module(app_name).create_app(
        {"UIGYM_HOME": home, "GYM_TOKEN": "shots", "OPEN_DEFAULT_WORLD": True, "UIGYM_LOOK": look})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return app, server


def capture(p, app_name: str, look: str, home: str, problems: list[str]) -> Image.Image:
    app, server = _serve(app_name, look, home)
    try:
        spec = app.extensions["uigym_spec"]
        browser = p.chromium.launch(executable_path=chromium_executable(p.chromium.executable_path), args=CHROMIUM_ARGS)
        ctx = browser.new_context(viewport={"width": W, "height": H}, device_scale_factor=1, timezone_id="UTC",
                                  locale="en-US", reduced_motion="reduce")
        ctx.clock.set_fixed_time(spec.default_now.replace(tzinfo=dt.timezone.utc))
        page = ctx.new_page()
        page.on("pageerror", lambda e: problems.append(f"{app_name}/{look}: page error: {e}"))
        page.on("requestfailed", lambda r: problems.append(f"{app_name}/{look}: request failed: {r.url}"))
        page.on("response", lambda r: problems.append(f"{app_name}/{look}: HTTP {r.status}: {r.url}")
                if r.status >= 400 else None)
        page.goto(f"http://127.0.0.1:{server.server_port}{PAGES[app_name]}")
        page.wait_for_load_state("networkidle")
        page.evaluate("document.fonts.ready.then(() => true)")
        page.wait_for_timeout(150)
        png = page.screenshot()
        browser.close()
        return Image.open(BytesIO(png)).convert("RGB")
    finally:
        server.shutdown()


def side_by_side(images: list[tuple[str, Image.Image]]) -> Image.Image:
    """The looks of one app at half size, side by side, each labelled with its look id."""
    w, h, gap, label = W // 2, H // 2, 16, 28
    out = Image.new("RGB", (len(images) * w + (len(images) - 1) * gap, h + label), "white")
    draw = ImageDraw.Draw(out)
    for i, (name, img) in enumerate(images):
        x = i * (w + gap)
        draw.text((x + 4, 6), name, fill=(60, 60, 60))
        out.paste(img.resize((w, h), Image.LANCZOS), (x, label))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m agent_harness.screenshots.looks")
    ap.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    rows = []
    with sync_playwright() as p:
        for app_name in ("mail", "food", "crm"):
            home = tempfile.mkdtemp(prefix=f"uigym-looks-{app_name}-")
            shots = [(f"{app_name}: {look}", capture(p, app_name, look, home, problems))
                     for look in app_looks(app_name)[:2]]
            row = side_by_side(shots)
            row.save(out / f"looks-{app_name}.png")
            print(f"saved {out / f'looks-{app_name}.png'}")
            rows.append(row)
    grid = Image.new("RGB", (rows[0].width, sum(r.height for r in rows) + 12 * (len(rows) - 1)), "white")
    y = 0
    for r in rows:
        grid.paste(r, (0, y))
        y += r.height + 12
    grid.save(out / "looks.png")
    print(f"saved {out / 'looks.png'}")
    for pr in problems:
        print("problem:", pr, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
