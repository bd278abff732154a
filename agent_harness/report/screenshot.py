"""Screenshots of a written HTML report in Chromium, for the README (issue #40):

    python -m agent_harness.report.screenshot REPORT_DIR OUT_PREFIX [--episode PAGE --step N] [--full]

writes OUT_PREFIX-runs.png (the runs table, the budget lines and the comparison's verdict) and
OUT_PREFIX-plots.png (the plots); with --episode (a page under REPORT_DIR, e.g. episodes/1/x__s0.html),
OUT_PREFIX-step.png: that episode's step N, its screen with the action drawn on it; with --full,
OUT_PREFIX-page.png: the whole index page (a training run's report). The pages are opened from disk
(file://), as a reader opens them offline; a page error or an image that does not load fails the run.
"""

from __future__ import annotations

import asyncio
from pathlib import Path


async def _open(browser, url: str, errors: list[str]):
    page = await browser.new_page(viewport={"width": 1400, "height": 900})
    page.on("pageerror", lambda e: errors.append(str(e)))
    await page.goto(url)
    await page.evaluate("Promise.all([...document.images].map(i => { i.loading = 'eager'; return i.decode()"
                        ".catch(() => null); }))")
    broken = await page.evaluate("[...document.images].filter(i => !i.complete || !i.naturalWidth).map(i => i.src)")
    if broken or errors:
        raise SystemExit(f"{url} did not render whole: images {broken}, errors {errors}")
    return page


async def shoot(report: Path, prefix: Path, episode: str | None = None, step: int = 1,
                full: bool = False) -> list[Path]:
    from playwright.async_api import async_playwright

    from gym_core.browser import launch_chromium

    errors: list[str] = []
    async with async_playwright() as pw:
        browser = await launch_chromium(pw)
        page = await _open(browser, (report / "index.html").resolve().as_uri(), errors)
        shots = []
        if full:
            whole = prefix.with_name(prefix.name + "-page.png")
            await page.screenshot(path=str(whole), full_page=True)
            shots.append(whole)
        top = await page.evaluate("document.querySelector('.plots') ? document.querySelector('h2 + .plots')"
                                  ".previousElementSibling.getBoundingClientRect().top + window.scrollY : 900")
        runs = prefix.with_name(prefix.name + "-runs.png")
        await page.screenshot(path=str(runs), clip={"x": 0, "y": 0, "width": 1400, "height": min(900, top)},
                              full_page=True)
        plots = prefix.with_name(prefix.name + "-plots.png")
        await page.locator(".plots").screenshot(path=str(plots))
        shots += [runs, plots]
        if episode:
            ep = await _open(browser, (report / episode).resolve().as_uri(), errors)
            shot = prefix.with_name(prefix.name + "-step.png")
            await ep.locator(f"#step-{step}").screenshot(path=str(shot))
            shots.append(shot)
        await browser.close()
    return shots


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report", type=Path)
    ap.add_argument("prefix", type=Path)
    ap.add_argument("--episode", help="an episode page under REPORT_DIR")
    ap.add_argument("--step", type=int, default=1)
    ap.add_argument("--full", action="store_true", help="the whole index page too")
    a = ap.parse_args()
    for p in asyncio.run(shoot(a.report, a.prefix, a.episode, a.step, a.full)):
        print(p)
