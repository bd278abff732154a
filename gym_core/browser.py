"""Finding and launching Chromium: Playwright's own browser where installed, else the system's."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

# Flags for a closed, deterministic, headless box. The host-resolver rule makes every host but
# loopback unresolvable, so a page can never reach another origin even if a route slipped.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-dev-shm-usage",
    "--force-color-profile=srgb",
    "--disable-smooth-scrolling",
    "--force-device-scale-factor=1",
    "--font-render-hinting=none",
    # A tab reused across episodes recycles its raster tiles; partial raster then blends the
    # anti-aliased edges of a redrawn area over the old tile's pixels (seen: a rounded search box's
    # corners differing between two resets of one world). Full raster gives the same pixels every time.
    "--disable-partial-raster",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
]

SYSTEM_CANDIDATES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]


def system_chromium() -> str | None:
    for name in SYSTEM_CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


def chromium_executable(playwright_default: str | None) -> str | None:
    """The executable to launch, or None to let Playwright use its own downloaded browser.

    Order: $UIGYM_CHROMIUM; Playwright's browser if `playwright install chromium` was run;
    a system Chromium (Debian's /usr/bin/chromium).
    """
    forced = os.environ.get("UIGYM_CHROMIUM")
    if forced:
        if not Path(forced).exists():
            raise RuntimeError(f"UIGYM_CHROMIUM={forced} does not exist")
        return forced
    if playwright_default and Path(playwright_default).exists():
        return None
    found = system_chromium()
    if found:
        return found
    raise RuntimeError(
        "no Chromium found: run `playwright install chromium`, or install your system's chromium "
        "(Debian: apt-get install chromium), or set UIGYM_CHROMIUM to a Chromium executable"
    )


def chromium_args(allow_hosts: tuple[str, ...] | list[str] = ()) -> list[str]:
    """CHROMIUM_ARGS, with `allow_hosts` (the hosts of apps served elsewhere, e.g. `mail` in
    docker compose) added to the hosts the resolver still resolves."""
    extra = [h for h in allow_hosts if h and h not in ("127.0.0.1", "localhost")]
    if not extra:
        return list(CHROMIUM_ARGS)
    rules = "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost" + "".join(f", EXCLUDE {h}" for h in extra)
    return [a if not a.startswith("--host-resolver-rules=") else f"--host-resolver-rules={rules}" for a in CHROMIUM_ARGS]


async def launch_chromium(playwright, headless: bool = True, allow_hosts: tuple[str, ...] | list[str] = ()):
    try:
        default = playwright.chromium.executable_path
    except Exception:
        default = None
    exe = chromium_executable(default)
    return await playwright.chromium.launch(headless=headless, executable_path=exe, args=chromium_args(allow_hosts))
