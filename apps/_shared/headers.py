"""Text a request typed never makes a response header large.

Chromium refuses a response whose headers pass 256 KB (ERR_RESPONSE_HEADERS_TOO_BIG): a toast cookie holding
a 100 KB record title left the agent on Chromium's error page although the record was saved. So every header
an app builds from user text goes through here:

- `short_text`: a message for a header (the CRM's toast cookie), cut in the middle to MAX_TEXT_CHARS with an
  ellipsis, so both its start and its end ("... was created.") stay readable;
- `bounded_path`: a redirect target taken from the request (a `_back` / `next` field, the Referer), or None
  when it is longer than MAX_PATH_CHARS (the caller then falls back to its default page).

Percent-encoded, MAX_TEXT_CHARS characters are at most 12 bytes each (a 4-byte UTF-8 character), so a toast
cookie stays under 2 KB, and every header of a response under 8 KB.
"""

from __future__ import annotations

MAX_TEXT_CHARS = 160
MAX_PATH_CHARS = 2048
ELLIPSIS = "\u2026"


def short_text(text: str, limit: int = MAX_TEXT_CHARS) -> str:
    """`text` if it has at most `limit` characters, else its start and end around an ellipsis (`limit` in all)."""
    if len(text) <= limit:
        return text
    tail = (limit - 1) // 3
    head = limit - 1 - tail
    return text[:head] + ELLIPSIS + text[len(text) - tail:]


def bounded_path(path: str | None, limit: int = MAX_PATH_CHARS) -> str | None:
    """`path` if it is short enough to send back in a Location header, else None."""
    return path if path and len(path) <= limit else None
