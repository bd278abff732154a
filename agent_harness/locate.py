"""Resolve a task's semantic target (role/name, text, label...) to a box on the screen.

Privileged: reads the live page. Used by the oracle to turn a gold solution into coordinates, and
by tools that explain where a target was.
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.async_api import ElementHandle, Locator, Page
from playwright.async_api import Error as PlaywrightError

from gym_core.perturb import OVERLAY_ATTR
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
# Locator.bounding_box() gives), the box of the nearest ancestor that scrolls it, and the box of a pinned bar (a
# fixed or sticky header or footer less than half the window high, e.g. a dialog's "Add to order" footer) lying over
# its centre, in one round trip.
# A perturbation overlay (gym_core/perturb.py) is not a bar: the player dismisses it instead.
GEOMETRY_JS = """
el => {
  const r = el.getBoundingClientRect();
  const parent = (%s)(el);
  let cover = null;
  const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
  if ((r.width || r.height) && cx >= 0 && cy >= 0 && cx < innerWidth && cy < innerHeight) {
    const hit = document.elementFromPoint(cx, cy);
    if (hit && hit !== el && !el.contains(hit) && !hit.contains(el) && !hit.closest('[%s]')) {
      for (let n = hit; n && n !== document.body; n = n.parentElement) {
        const pos = getComputedStyle(n).position;
        if (pos === 'fixed' || pos === 'sticky') {
          const c = n.getBoundingClientRect();
          // A bar: less than half the window high (a drawer or a scrim over the page is not one).
          if (!n.contains(el) && c.height < innerHeight / 2) cover = [c.left, c.top, c.width, c.height];
          break;
        }
      }
    }
  }
  return {box: (r.width || r.height) ? [r.left, r.top, r.width, r.height] : null, parent, cover};
}
""" % (SCROLL_PARENT_JS.strip(), OVERLAY_ATTR)


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
    cover: tuple[float, float, float, float] | None = None  # a pinned bar's box over its centre, None: none

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
    return Found(handle, Box(*geo["box"]) if geo["box"] else None, tuple(geo["parent"]) if geo["parent"] else None,
                 tuple(geo["cover"]) if geo.get("cover") else None)


async def box_of(loc: Locator) -> Box | None:
    b = await loc.bounding_box()
    return Box(**b) if b else None


def in_view(b: Box, width: int, height: int, margin: int = 2) -> bool:
    cx, cy = b.center
    return margin <= cx < width - margin and margin <= cy < height - margin


# The least of a target's height a player clicks beside a pinned bar: less, and it scrolls the target clear.
MIN_CLEAR_PX = 8


def clear_box(found: Found, width: int, height: int) -> Box | None:
    """The part of the target's box a click reaches: the part that shows inside the viewport and its scroll container
    and, where a pinned bar (`Found.cover`) lies over its centre, the larger of that part's pieces above and below the
    bar (a person clicks the part of a field they can see; its centre may lie under a dialog's footer or just past
    its scroller's edge). The box itself where all of it shows; None when too little of it shows."""
    b = found.box
    if b is None:
        return None
    lo, hi = 0.0, float(height)
    if found.parent:
        lo, hi = max(lo, found.parent[1]), min(hi, found.parent[1] + found.parent[3])
    bands = [(lo, hi)]
    if found.cover:
        top, bottom = found.cover[1], found.cover[1] + found.cover[3]
        bands = [(lo, min(hi, top)), (max(lo, bottom), hi)]
    parts = [(max(b.y, l), min(b.y + b.height, h)) for l, h in bands]
    y0, y1 = max(parts, key=lambda p: p[1] - p[0])
    if y0 <= b.y and y1 >= b.y + b.height:
        return b
    if y1 - y0 >= min(MIN_CLEAR_PX, b.height):
        return Box(b.x, y0, b.width, y1 - y0)
    if found.cover:  # a bar that covers the target's height but not its width (a toast over half a button, seen in a
        # short window at a browser zoom): the part beside it, as a person clicks the part of a button they can see
        cl, cr = found.cover[0], found.cover[0] + found.cover[2]
        top, bottom = max(b.y, lo), min(b.y + b.height, hi)
        sides = [(b.x, min(b.x + b.width, cl)), (max(b.x, cr), b.x + b.width)]
        x0, x1 = max(sides, key=lambda p: p[1] - p[0])
        if x1 - x0 >= min(MIN_CLEAR_PX, b.width) and bottom - top >= min(MIN_CLEAR_PX, b.height):
            return Box(x0, top, x1 - x0, bottom - top)
    return None


def scroll_plan(found: Found, width: int, height: int) -> tuple[int, int, int] | None:
    """Where to put the mouse and how far to wheel so that the target's centre comes into view, clear of a pinned
    bar over it. None when it is already in view (click `clear_box(found, width, height)`)."""
    b, parent = found.box, found.parent
    if b is None:
        raise TargetNotFound("target has no box (hidden or detached)")
    if parent:
        px, py, pw, ph = parent
        left, top = max(px, 0), max(py, 0)
        right, bottom = min(px + pw, width), min(py + ph, height)
    else:
        left, top, right, bottom = 0, 0, width, height
    cx, cy = b.center
    # In the viewport and not clipped away by its scroll container (a listbox's own scroll area)...
    if in_view(b, width, height) and (not parent or (parent[1] - 1 <= cy <= parent[1] + parent[3] + 1)):
        if clear_box(found, width, height) is not None:  # ...with enough of it showing to click
            return None
        if found.cover:  # under a pinned bar: wheel it into the middle of the larger free band, above or below it
            bar_top, bar_bottom = found.cover[1], found.cover[1] + found.cover[3]
            if min(bottom, bar_top) - top >= bottom - max(top, bar_bottom):
                bottom = min(bottom, bar_top)
            else:
                top = max(top, bar_bottom)
    mx, my = int((left + right) / 2), int((top + bottom) / 2)
    return mx, my, int(cy - my)
