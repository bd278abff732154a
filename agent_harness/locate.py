"""Resolve a task's semantic target (role/name, text, label...) to a box on the screen.

Privileged: reads the live page. Used by the oracle to turn a gold solution into coordinates, and
by tools that explain where a target was.
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.async_api import ElementHandle, Locator, Page
from playwright.async_api import Error as PlaywrightError

from tasks import Target

SCROLL_PARENT_JS = """
el => {
  for (let p = el.parentElement; p; p = p.parentElement) {
    const s = getComputedStyle(p);
    if (/(auto|scroll)/.test(s.overflowY) && p.scrollHeight > p.clientHeight + 1) {
      const r = p.getBoundingClientRect();
      return [r.left, r.top, r.width, r.height];
    }
  }
  return null;
}
"""


# One read of a resolved element: its box (the viewport's coordinates: the clones have no frames, so this is what
# Locator.bounding_box() gives) and the box of the nearest ancestor that scrolls it, in one round trip.
GEOMETRY_JS = """
el => {
  const r = el.getBoundingClientRect();
  const parent = (%s)(el);
  return {box: (r.width || r.height) ? [r.left, r.top, r.width, r.height] : null, parent};
}
""" % SCROLL_PARENT_JS.strip()


class TargetNotFound(RuntimeError):
    pass


@dataclass
class Box:
    x: float
    y: float
    width: float
    height: float

    @property
    def center(self) -> tuple[int, int]:
        return int(self.x + self.width / 2), int(self.y + self.height / 2)


def locator(scope: Page | Locator, t: Target) -> Locator:
    if t.within is not None:
        scope = locator(scope, t.within)
    if t.role:
        loc = scope.get_by_role(t.role, name=t.name, exact=t.exact) if t.name else scope.get_by_role(t.role)
    elif t.text:
        loc = scope.get_by_text(t.text, exact=t.exact)
    elif t.label:
        loc = scope.get_by_label(t.label, exact=t.exact)
    elif t.placeholder:
        loc = scope.get_by_placeholder(t.placeholder, exact=t.exact)
    else:
        loc = scope.locator(t.css)
    loc = loc.filter(visible=True)
    return loc.last if t.nth == -1 else loc.nth(t.nth)


async def find(page: Page, t: Target, timeout_ms: int = 5000) -> Locator:
    loc = locator(page, t)
    try:
        await loc.wait_for(state="visible", timeout=timeout_ms)
    except PlaywrightError:
        raise TargetNotFound(f"no visible {t.describe()} on {page.url}") from None
    return loc


@dataclass
class Found:
    """A target resolved once to its element, with where it is: what a player reads before it points at it. Each
    Playwright locator call resolves the role/name query again (~10 ms on a clone's page), so the oracle resolves
    each target once per look at the screen. `release()` lets the page forget the element."""
    handle: ElementHandle
    box: Box | None
    parent: tuple[float, float, float, float] | None  # the scroll container's box, None: the page scrolls it

    async def release(self) -> None:
        try:
            await self.handle.dispose()
        except PlaywrightError:
            pass


async def locate(page: Page, t: Target, timeout_ms: int = 5000) -> Found:
    """`find` and the target's geometry in two round trips: the first visible match's element (waited for as
    `find` waits), then its box and scroll container."""
    try:
        handle = await locator(page, t).element_handle(timeout=timeout_ms)
    except PlaywrightError:
        raise TargetNotFound(f"no visible {t.describe()} on {page.url}") from None
    try:
        geo = await handle.evaluate(GEOMETRY_JS)
    except PlaywrightError:
        await Found(handle, None, None).release()
        raise TargetNotFound(f"{t.describe()} went away on {page.url}") from None
    return Found(handle, Box(*geo["box"]) if geo["box"] else None, tuple(geo["parent"]) if geo["parent"] else None)


async def box_of(loc: Locator) -> Box | None:
    b = await loc.bounding_box()
    return Box(**b) if b else None


def in_view(b: Box, width: int, height: int, margin: int = 2) -> bool:
    cx, cy = b.center
    return margin <= cx < width - margin and margin <= cy < height - margin


def scroll_plan(found: Found, width: int, height: int) -> tuple[int, int, int] | None:
    """Where to put the mouse and how far to wheel so that the target's centre comes into view.
    None when it is already in view."""
    b, parent = found.box, found.parent
    if b is None:
        raise TargetNotFound("target has no box (hidden or detached)")
    if in_view(b, width, height):
        # In the viewport, but maybe clipped by its scroll container (a listbox's own scroll area).
        cx, cy = b.center
        if not parent or (parent[1] - 1 <= cy <= parent[1] + parent[3] + 1):
            return None
    if parent:
        px, py, pw, ph = parent
        left, top = max(px, 0), max(py, 0)
        right, bottom = min(px + pw, width), min(py + ph, height)
    else:
        left, top, right, bottom = 0, 0, width, height
    mx, my = int((left + right) / 2), int((top + bottom) / 2)
    cx, cy = b.center
    return mx, my, int(cy - my)
