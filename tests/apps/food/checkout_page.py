"""Reading the checkout page as a user and a browser do: the numbers its order summary shows, and the form
fields Place Order submits (in document order, repeated names kept, as a browser serialises a form)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from werkzeug.datastructures import MultiDict

# The summary's line labels -> the order's columns (a line the summary leaves out is 0).
LINES = {
    "Subtotal": "subtotal_cents", "Delivery Fee": "delivery_fee_cents", "Service Fee": "service_fee_cents",
    "Small Order Fee": "small_order_fee_cents", "Express Delivery": "express_fee_cents", "Estimated Tax": "tax_cents",
    "Tax": "tax_cents",
    "Promotion": "discount_cents", "Forkful credits": "credits_applied_cents", "Courier Tip": "tip_cents",
    "Total": "total_cents",
}


def cents(text: str) -> int:
    m = re.fullmatch(r"(-?)\$([\d,]+)\.(\d\d)", text.strip())
    assert m, f"not an amount: {text!r}"
    v = int(m[2].replace(",", "")) * 100 + int(m[3])
    return -v if m[1] else v


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip()


def summary(html: str) -> dict[str, int]:
    """{order column: cents} as the checkout page's order summary shows them (discounts and credits positive)."""
    return lines(html, 'id="co-summary"')


def lines(html: str, marker: str) -> dict[str, int]:
    """The amounts of the price breakdown that starts at `marker` (the checkout summary, an order's totals)."""
    aside = html[html.index(marker):]
    out = {v: 0 for v in LINES.values()}
    pairs = re.findall(r"<dt>(.*?)</dt>\s*<dd>(.*?)</dd>", aside, re.S)
    pairs += re.findall(r'<div class="tip-head"><b>(Courier Tip)</b><span>(.*?)</span>', aside)
    pairs += re.findall(r'<div class="sum-total"><span>(Total)</span><span>(.*?)</span>', aside)
    for label, amount in pairs:
        label = _text(label)
        key = LINES[label.split(" (")[0]]
        out[key] = abs(cents(_text(amount)))
    return out


class _Form(HTMLParser):
    def __init__(self, form_id: str):
        super().__init__(convert_charrefs=True)
        self.form_id, self.inside, self.fields = form_id, False, MultiDict()
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.inside = a.get("id") == self.form_id
            return
        if not self.inside or "disabled" in a or not a.get("name"):
            return
        if tag == "input":
            kind = (a.get("type") or "text").lower()
            if kind in ("radio", "checkbox"):
                if "checked" in a:
                    self.fields.add(a["name"], a.get("value", "on"))
            elif kind not in ("submit", "button", "file", "image", "reset"):
                self.fields.add(a["name"], a.get("value", ""))
        elif tag == "textarea":
            self._textarea = a["name"]
            self.fields.add(a["name"], "")

    def handle_data(self, data):
        if self._textarea is not None:
            vals = self.fields.getlist(self._textarea)
            vals[-1] += data
            self.fields.setlist(self._textarea, vals)

    def handle_endtag(self, tag):
        if tag == "textarea":
            self._textarea = None
        elif tag == "form":
            self.inside = False


def form_fields(html: str, form_id: str = "co-form") -> MultiDict:
    p = _Form(form_id)
    p.feed(html)
    return p.fields
