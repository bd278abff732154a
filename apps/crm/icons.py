"""SLDS icons, inlined as SVG at render time from the vendored @salesforce-ux/icons files.

Templates call `sicon('standard:lead')` (an object icon on its coloured tile) or
`uicon('utility:chevrondown', 'slds-button__icon')` (a bare utility glyph). Every icon name must
appear as a quoted 'kind:name' literal somewhere under apps/ so scripts/vendor_assets.py vendors it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from markupsafe import Markup, escape

ICON_DIR = Path(__file__).resolve().parent.parent / "_shared" / "static" / "vendor" / "salesforce-ux-icons"
_VIEWBOX = re.compile(r'viewBox="([^"]+)"')
_INNER = re.compile(r"<svg[^>]*>(.*)</svg>", re.S)


class MissingIcon(KeyError):
    pass


@lru_cache(maxsize=None)
def svg_parts(ref: str) -> tuple[str, str]:
    kind, _, name = ref.partition(":")
    path = ICON_DIR / kind / f"{name}.svg"
    if not path.is_file():
        raise MissingIcon(f"SLDS icon {ref!r} is not vendored: run scripts/vendor_assets.py")
    text = path.read_text()
    vb = _VIEWBOX.search(text)
    inner = _INNER.search(text)
    return (vb.group(1) if vb else "0 0 520 520"), (inner.group(1) if inner else "")


def uicon(ref: str, cls: str = "slds-icon slds-icon_x-small slds-icon-text-default", extra: str = "") -> Markup:
    vb, inner = svg_parts(ref)
    return Markup(f'<svg class="{escape(cls)}" viewBox="{vb}" aria-hidden="true" focusable="false"{extra}>{inner}</svg>')


def sicon(ref: str, size: str = "small", title: str | None = None, cls: str = "") -> Markup:
    """An object icon on its coloured tile (slds-icon-standard-<name>)."""
    kind, _, name = ref.partition(":")
    tile = f"slds-icon-{kind}-{name.replace('_', '-')}"
    size_cls = f" slds-icon_{size}" if size else ""
    label = f'<span class="slds-assistive-text">{escape(title)}</span>' if title else ""
    return Markup(f'<span class="slds-icon_container {tile} {escape(cls)}">'
                  f'{uicon(ref, "slds-icon" + size_cls)}{label}</span>')
