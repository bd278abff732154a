"""Screenshots of a written HTML report in Chromium, for the README (issue #40):

    python -m agent_harness.report.screenshot REPORT_DIR OUT_PREFIX

writes OUT_PREFIX-runs.png (the runs table, the budget lines and the comparison's verdict) and
OUT_PREFIX-plots.png (the plots). The page is opened from disk (file://), as a reader opens it offline; a page
error or an image that does not load fails the run.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path


async def shoot(report: Path, prefix: Path) -> list[Path]:
    from playwright.async_api import async_playwright

    from gym_core.browser import launch_chromium

    errors: list[str] = []
    async with async_playwright() as pw:
        browser = await launch_chromium(pw)
        page = await browser.new_page(viewport={"width": 1400, "height": 900})
        page.on("pageerror", lambda e: errors.append(str(e)))
        await page.goto((report / "index.html").resolve().as_uri())
        broken = await page.evaluate("[...document.images].filter(i => !i.complete || !i.naturalWidth).map(i => i.src)")
        if broken or errors:
            raise SystemExit(f"the report did not render whole: images {broken}, errors {errors}")
        top = await page.evaluate("document.querySelector('.plots') ? document.querySelector('h2 + .plots')"
                                  ".previousElementSibling.getBoundingClientRect().top + window.scrollY : 900")
        runs = prefix.with_name(prefix.name + "-runs.png")
        await page.screenshot(path=str(runs), clip={"x": 0, "y": 0, "width": 1400, "height": min(900, top)},
                              full_page=True)
        plots = prefix.with_name(prefix.name + "-plots.png")
        await page.locator(".plots").screenshot(path=str(plots))
        await browser.close()
    return [runs, plots]


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    for p in asyncio.run(shoot(Path(sys.argv[1]), Path(sys.argv[2]))):
        print(p)
