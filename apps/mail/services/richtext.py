"""The compose editor's formatted text: ONE rule for what a message body is.

Compose's body is a rich editor (Gmail's formatting bar). A message keeps two fields: `body`, the plain text
(what search, snippets, quoting and the graders read), and `body_html`, the formatted text sanitized here with
nh3 (Ammonia), by the clones' one whitelist (apps/_shared/richtext.py). `letter_body` is the only way in: the
views, the tools and the templates all call it.

- With `body_html`, the HTML is sanitized and `body` is derived from it, line for line as the browser shows
  it (so typing "a", Enter, "b" gives "a\\nb", exactly what the old textarea gave); `body_html` is kept only
  when it says more than the text (some formatting), else it is stored as "".
- Without it, `body` is the text given (CRLF -> LF) and `body_html` is "".
"""

from __future__ import annotations

import html as _html
import re
from html.parser import HTMLParser
from typing import Any

from apps._shared.richtext import ATTRIBUTES, STYLE_PROPERTIES, TAGS, clean  # noqa: F401 - the one whitelist
from apps.mail.services.errors import ServiceError

MAX_HTML = 200_000

_BLOCKS = {"div", "p", "li", "blockquote", "ul", "ol"}


class _Lines(HTMLParser):
    """Plain text of sanitized HTML as the browser lays it out: a block starts a new line when the current one
    has anything; a <br> ends a line unless it is the last thing before a block edge (a placeholder)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tokens: list[tuple[str, str]] = []
        self.lists: list[list] = []

    def handle_starttag(self, tag, attrs):
        if tag == "br":
            self.tokens.append(("br", ""))
        elif tag in _BLOCKS:
            self.tokens.append(("blk", ""))
            if tag in ("ol", "ul"):
                self.lists.append([tag, 0])
            elif tag == "li" and self.lists:
                lst = self.lists[-1]
                lst[1] += 1
                self.tokens.append(("txt", f"{lst[1]}. " if lst[0] == "ol" else "- "))

    def handle_endtag(self, tag):
        if tag in _BLOCKS:
            self.tokens.append(("blk", ""))
            if tag in ("ol", "ul") and self.lists:
                self.lists.pop()

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_data(self, data):
        if data:
            self.tokens.append(("txt", data.replace("\u00a0", " ")))

    def text(self) -> str:
        out: list[str] = []
        line = False  # the current line exists (has text, or an empty line held open by a <br>)
        pending = False  # a block edge after a line: the next content starts a new line
        toks = self.tokens
        for i, (kind, val) in enumerate(toks):
            if kind == "blk":
                if line:
                    pending, line = True, False
                continue
            if pending:
                out.append("\n")
                pending = False
            if kind == "txt":
                out.append(val)
                line = True
            else:  # br
                nxt = next((k for k, _ in toks[i + 1:] if k != "txt" or _), None)
                if nxt in (None, "blk"):
                    line = True  # the placeholder that keeps the (maybe empty) line open
                else:
                    out.append("\n")
                    line = False
        return "".join(out)


def text_of(html: str) -> str:
    p = _Lines()
    p.feed(html)
    p.close()
    return p.text()


def html_of(text: str) -> str:
    """Plain text as editor HTML (one <div> a line, <br> for an empty one), e.g. a draft reopened in compose."""
    if not text:
        return ""
    return "".join(f"<div>{_html.escape(line) if line else '<br>'}</div>" for line in text.split("\n"))


_PLAIN_TAG = re.compile(r"<(?!/?(?:div|p|br)\b)[a-zA-Z/]|style=")


def letter_body(body: Any, body_html: Any = None) -> tuple[str, str]:
    """(body, body_html) for a message written with `body` (plain) or `body_html` (the editor's HTML)."""
    if body_html is None or body_html == "":
        return str(body or "").replace("\r\n", "\n"), ""
    if not isinstance(body_html, str):
        raise ServiceError("'body_html' must be text")
    if len(body_html) > MAX_HTML:
        raise ServiceError(f"'body_html' is at most {MAX_HTML} characters")
    safe = clean(body_html)
    text = text_of(safe)
    return text, (safe if _PLAIN_TAG.search(safe) else "")


def append_text(html: str, text: str) -> str:
    """`text` (a forwarded message's header and body) added below formatted `html`."""
    return f"{html}<br><br>{''.join(f'{_html.escape(l)}<br>' for l in text.split(chr(10)))}" if html else ""
