"""Finding and launching Chromium: Playwright's own browser where installed, else the system's."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

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

# Pages that never load a picture (EnvConfig(images=False)): Blink requests none, so neither the request guard
# nor Playwright's driver sees a request for each.
NO_IMAGES_ARG = "--blink-settings=imagesEnabled=false"

SYSTEM_CANDIDATES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]
# Headless, Playwright itself launches Chromium's headless shell (the old headless mode, no browser UI
# layer), not the full browser: on 2 cores it plays an episode ~30% faster (bench/headless_shell.py).
# Debian ships it as its own package, beside `chromium`.
HEADLESS_SHELL_CANDIDATES = ["chromium-headless-shell"]


def system_chromium(headless: bool = True) -> str | None:
    for name in (HEADLESS_SHELL_CANDIDATES if headless else []) + SYSTEM_CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


def chromium_executable(playwright_default: str | None, headless: bool = True) -> str | None:
    """The executable to launch, or None to let Playwright use its own downloaded browser.

    Order: $UIGYM_CHROMIUM; Playwright's browser if `playwright install chromium` was run (headless, it
    picks its own headless shell); a system Chromium: headless, Debian's /usr/bin/chromium-headless-shell
    before /usr/bin/chromium.
    """
    forced = os.environ.get("UIGYM_CHROMIUM")
    if forced:
        if not Path(forced).exists():
            raise RuntimeError(f"UIGYM_CHROMIUM={forced} does not exist")
        return forced
    if playwright_default and Path(playwright_default).exists():
        return None
    found = system_chromium(headless)
    if found:
        return found
    raise RuntimeError(
        "no Chromium found: run `playwright install chromium`, or install your system's chromium "
        "(Debian: apt-get install chromium chromium-headless-shell), or set UIGYM_CHROMIUM to a Chromium executable"
    )


def chromium_args(allow_hosts: tuple[str, ...] | list[str] = ()) -> list[str]:
    """CHROMIUM_ARGS, with `allow_hosts` (the hosts of apps served elsewhere, e.g. `mail` in
    docker compose) added to the hosts the resolver still resolves."""
    extra = [h for h in allow_hosts if h and h not in ("127.0.0.1", "localhost")]
    if not extra:
        return list(CHROMIUM_ARGS)
    rules = "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost" + "".join(f", EXCLUDE {h}" for h in extra)
    return [a if not a.startswith("--host-resolver-rules=") else f"--host-resolver-rules={rules}" for a in CHROMIUM_ARGS]


async def launch_chromium(playwright, headless: bool = True, allow_hosts: tuple[str, ...] | list[str] = (),
                          images: bool = True):
    """`images=False`: a browser whose pages load no pictures (Blink's own setting: no request is made)."""
    try:
        default = playwright.chromium.executable_path
    except Exception:
        default = None
    exe = chromium_executable(default, headless)
    args = chromium_args(allow_hosts) + ([] if images else [NO_IMAGES_ARG])
    return await playwright.chromium.launch(headless=headless, executable_path=exe, args=args)


def origin(url: str) -> tuple | None:
    """(scheme, host, port) of an http(s) URL; None for anything else, or for a URL with credentials."""
    try:
        u = urlsplit(url)
        port = u.port or {"http": 80, "https": 443}.get(u.scheme)
    except ValueError:
        return None
    if u.scheme not in ("http", "https") or u.username is not None or u.password is not None:
        return None
    return (u.scheme, (u.hostname or "").lower(), port)


async def guard_documents(browser, allowed: Callable[[], set], guarded: set) -> None:
    """A browser-wide lock on documents: in the browser contexts named in `guarded` (the envs'), every page
    load of every tab, a popup's first one included, is paused until it is seen to go to one of the
    `allowed()` origins (the app servers' pages), and failed otherwise. The env's per-tab guard
    (gym_core/env.py) sees every request of its own tab, but a new tab runs its first request before
    anyone can attach to it; the apps' CSP already keeps their pages from opening one (no allow-popups),
    this is the browser's own answer. Documents only: a second pause on every image and fetch would cost
    a round trip each, and the per-tab guard has those. Contexts that are no env's (a test's annotator
    browsing the recorder's page) are let be."""
    cdp = await browser.new_browser_cdp_session()

    async def decide(ev: dict) -> None:
        try:
            # A tab's main frame id is its target id; an iframe's is not (then: judged as an env's).
            ctx = (await cdp.send("Target.getTargetInfo", {"targetId": ev["frameId"]}))["targetInfo"]["browserContextId"]
        except Exception:  # noqa: BLE001
            ctx = None
        ok = (ctx is not None and ctx not in guarded) or origin(ev["request"]["url"]) in allowed()
        try:
            if ok:
                await cdp.send("Fetch.continueRequest", {"requestId": ev["requestId"]})
            else:
                await cdp.send("Fetch.failRequest", {"requestId": ev["requestId"], "errorReason": "BlockedByClient"})
        except Exception:  # noqa: BLE001 - the tab or the browser went away meanwhile
            pass

    cdp.on("Fetch.requestPaused", lambda ev: asyncio.ensure_future(decide(ev)))
    await cdp.send("Fetch.enable", {"patterns": [{"urlPattern": "*", "resourceType": "Document"}]})
