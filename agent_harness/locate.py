"""Resolve a task's semantic target (role/name, text, label...) to a box on the screen.

Privileged: reads the live page. Used by the oracle to turn a gold solution into coordinates, and
by tools that explain where a target was.
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.async_api import Locator, Page
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


async def box_of(loc: Locator) -> Box | None:
    b = await loc.bounding_box()
    return Box(**b) if b else None


def in_view(b: Box, width: int, height: int, margin: int = 2) -> bool:
    cx, cy = b.center
    return margin <= cx < width - margin and margin <= cy < height - margin


async def scroll_plan(loc: Locator, width: int, height: int) -> tuple[int, int, int] | None:
    """Where to put the mouse and how far to wheel so that the target's centre comes into view.
    None when it is already in view."""
    b = await box_of(loc)
    if b is None:
        raise TargetNotFound("target has no box (hidden or detached)")
    parent = await loc.evaluate(SCROLL_PARENT_JS)
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
