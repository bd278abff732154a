"""Formatted text from outside, sanitized: ONE whitelist for every clone that shows HTML it did not write (mail's
compose editor and received HTML emails, the CRM's logged and email-to-case emails). nh3 (Ammonia) keeps the
formatting a mail client keeps (inline colours, sizes, fonts, lists, links) and drops the rest (scripts, event
handlers, other tags, attributes and style properties). Callers render `Markup(clean(stored))`, never stored HTML
as it is."""

from __future__ import annotations

import nh3

TAGS = {"b", "strong", "i", "em", "u", "s", "strike", "font", "span", "div", "p", "br", "ol", "ul", "li",
        "blockquote", "a", "sub", "sup"}
_STYLED = {"style"}
ATTRIBUTES = {"font": {"color", "face", "size"}, "a": {"href"}, "span": _STYLED, "div": _STYLED, "p": _STYLED,
              "blockquote": _STYLED, "li": _STYLED, "ol": _STYLED, "ul": _STYLED}
STYLE_PROPERTIES = {"color", "background-color", "font-family", "font-size", "font-weight", "font-style",
                    "text-decoration", "text-align", "margin-left", "margin", "padding-left", "border-left"}


def clean(html: str) -> str:
    """`html` with everything but the whitelisted formatting removed (scripts, handlers, other attributes/styles)."""
    return nh3.clean(html, tags=TAGS, attributes=ATTRIBUTES, filter_style_properties=STYLE_PROPERTIES,
                     url_schemes={"http", "https", "mailto"}, link_rel="noopener noreferrer")
