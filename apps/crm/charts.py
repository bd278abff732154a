"""Charts as inline SVG, drawn on the server from data (deterministic, no images, no JS)."""

from __future__ import annotations

import math
from html import escape

from markupsafe import Markup

from apps._shared import locale as L
from apps._shared.display import current_locale

PALETTE = ["#52B7D8", "#E16032", "#FFB03B", "#54A77B", "#4FD2D2", "#E287B2", "#9A76D6", "#8DB83F", "#D36D7E", "#6D85E8"]
FONT = "font-family=\"Inter, 'Salesforce Sans', Arial, sans-serif\""
AXIS = "#5c5c5c"
GRID = "#e5e5e5"


def short_money(v: float) -> str:
    loc = current_locale()  # the page's locale (issue 45): en-US as ever, 310.000 $ in de-DE
    if loc != L.DEFAULT_LOCALE:
        return L.money_short(v, loc)
    a = abs(v)
    if a >= 1_000_000:
        return f"${v / 1_000_000:.1f}M".replace(".0M", "M")
    if a >= 1000:
        return f"${v / 1000:.0f}K"
    return f"${v:,.0f}"


def short_num(v: float) -> str:
    loc = current_locale()
    return f"{v:,.0f}" if loc == L.DEFAULT_LOCALE else L.number(round(v), loc)


def nice_max(v: float) -> float:
    if v <= 0:
        return 1
    exp = 10 ** math.floor(math.log10(v))
    for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if m * exp >= v:
            return m * exp
    return 10 * exp


def _svg(w: int, h: int, body: str, label: str) -> Markup:
    return Markup(f'<svg class="crm-chart" viewBox="0 0 {w} {h}" width="100%" height="{h}" role="img" '
                  f'aria-label="{escape(label)}" preserveAspectRatio="xMidYMid meet" {FONT}>{body}</svg>')


def performance_chart(days: int, closed: list, open_: list, goal: int, months: list, today_idx: int) -> Markup:
    w, h, l, r, t, b = 760, 240, 64, 16, 16, 34
    top = nice_max(max([goal] + [v for _, v in closed] + [v for _, v in open_] + [1]) * 1.05)
    X = lambda i: l + (w - l - r) * i / max(1, days - 1)  # noqa: E731
    Y = lambda v: t + (h - t - b) * (1 - v / top)  # noqa: E731
    parts = []
    for k in range(5):
        v = top * k / 4
        parts.append(f'<line x1="{l}" x2="{w - r}" y1="{Y(v):.1f}" y2="{Y(v):.1f}" stroke="{GRID}"/>')
        parts.append(f'<text x="{l - 8}" y="{Y(v) + 4:.1f}" font-size="11" fill="{AXIS}" text-anchor="end">{short_money(v)}</text>')
    for i, name in months:
        parts.append(f'<text x="{X(i) + 4:.1f}" y="{h - 12}" font-size="11" fill="{AXIS}">{escape(name)}</text>')
        parts.append(f'<line x1="{X(i):.1f}" x2="{X(i):.1f}" y1="{t}" y2="{h - b}" stroke="{GRID}"/>')
    if goal:
        parts.append(f'<line x1="{l}" x2="{w - r}" y1="{Y(goal):.1f}" y2="{Y(goal):.1f}" stroke="#FFB03B" stroke-width="2"/>')
    parts.append(f'<line x1="{X(today_idx):.1f}" x2="{X(today_idx):.1f}" y1="{t}" y2="{h - b}" stroke="#c9c9c9" stroke-dasharray="3 3"/>')
    if open_:
        pts = " ".join(f"{X(i):.1f},{Y(v):.1f}" for i, v in open_)
        parts.append(f'<polyline points="{pts}" fill="none" stroke="#52B7D8" stroke-width="2" stroke-dasharray="5 4"/>')
    if closed:
        pts = " ".join(f"{X(i):.1f},{Y(v):.1f}" for i, v in closed)
        parts.append(f'<polyline points="{pts}" fill="none" stroke="#0B827C" stroke-width="2.5"/>')
        i, v = closed[-1]
        parts.append(f'<circle cx="{X(i):.1f}" cy="{Y(v):.1f}" r="4" fill="#0B827C"/>')
    return _svg(w, h, "".join(parts), "Quarterly performance chart")


def bar_chart(labels: list[str], values: list[float], money: bool = True, horizontal: bool = True,
              color: str | None = None, w: int = 380, label: str = "Bar chart") -> Markup:
    fmt = short_money if money else short_num
    n = max(1, len(labels))
    top = nice_max(max(values + [0]) * 1.05)
    parts = []
    if horizontal:
        l, r, t, b = 118, 48, 8, 26
        bh = 22
        h = t + b + n * (bh + 8)
        for k in range(5):
            v = top * k / 4
            x = l + (w - l - r) * v / top
            parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{t}" y2="{h - b}" stroke="{GRID}"/>')
            parts.append(f'<text x="{x:.1f}" y="{h - 8}" font-size="10" fill="{AXIS}" text-anchor="middle">{fmt(v)}</text>')
        for i, (lab, v) in enumerate(zip(labels, values)):
            y = t + i * (bh + 8)
            bw = (w - l - r) * (v / top) if top else 0
            c = color or PALETTE[i % len(PALETTE)]
            short = lab if len(lab) <= 18 else lab[:17] + "\u2026"
            parts.append(f'<text x="{l - 6}" y="{y + bh / 2 + 4:.1f}" font-size="11" fill="#181818" text-anchor="end">{escape(short)}</text>')
            parts.append(f'<rect x="{l}" y="{y}" width="{max(bw, 1):.1f}" height="{bh}" fill="{c}"><title>{escape(lab)}: {fmt(v)}</title></rect>')
            parts.append(f'<text x="{l + bw + 4:.1f}" y="{y + bh / 2 + 4:.1f}" font-size="10" fill="{AXIS}">{fmt(v)}</text>')
        return _svg(w, h, "".join(parts), label)
    h, l, r, t, b = 230, 52, 8, 12, 54
    bw = max(8, min(48, (w - l - r) / n - 10))
    for k in range(5):
        v = top * k / 4
        y = t + (h - t - b) * (1 - v / top)
        parts.append(f'<line x1="{l}" x2="{w - r}" y1="{y:.1f}" y2="{y:.1f}" stroke="{GRID}"/>')
        parts.append(f'<text x="{l - 6}" y="{y + 4:.1f}" font-size="10" fill="{AXIS}" text-anchor="end">{fmt(v)}</text>')
    slot = (w - l - r) / n
    for i, (lab, v) in enumerate(zip(labels, values)):
        x = l + slot * i + (slot - bw) / 2
        bh = (h - t - b) * (v / top) if top else 0
        c = color or PALETTE[0]
        short = lab if len(lab) <= 12 else lab[:11] + "\u2026"
        parts.append(f'<rect x="{x:.1f}" y="{h - b - bh:.1f}" width="{bw:.1f}" height="{max(bh, 1):.1f}" fill="{c}"><title>{escape(lab)}: {fmt(v)}</title></rect>')
        parts.append(f'<text x="{x + bw / 2:.1f}" y="{h - b + 14}" font-size="10" fill="#181818" text-anchor="middle">{escape(short)}</text>')
    return _svg(w, h, "".join(parts), label)


def line_chart(labels: list[str], values: list[float], money: bool = True, w: int = 380, label: str = "Line chart") -> Markup:
    fmt = short_money if money else short_num
    h, l, r, t, b = 230, 52, 12, 12, 40
    n = max(1, len(labels))
    top = nice_max(max(values + [0]) * 1.05)
    X = lambda i: l + (w - l - r) * (i / max(1, n - 1))  # noqa: E731
    Y = lambda v: t + (h - t - b) * (1 - v / top)  # noqa: E731
    parts = []
    for k in range(5):
        v = top * k / 4
        parts.append(f'<line x1="{l}" x2="{w - r}" y1="{Y(v):.1f}" y2="{Y(v):.1f}" stroke="{GRID}"/>')
        parts.append(f'<text x="{l - 6}" y="{Y(v) + 4:.1f}" font-size="10" fill="{AXIS}" text-anchor="end">{fmt(v)}</text>')
    pts = " ".join(f"{X(i):.1f},{Y(v):.1f}" for i, v in enumerate(values))
    parts.append(f'<polyline points="{pts}" fill="none" stroke="{PALETTE[0]}" stroke-width="2.5"/>')
    # Label every k-th point so that no two labels overlap (~5.6 px a character at 10 px), and keep the
    # first and last inside the plot: start-anchored at the left edge, end-anchored at the right.
    slot = (w - l - r) / max(1, n - 1)
    widest = max((len(x) for x in labels), default=0) * 5.6 + 8
    k = max(1, math.ceil(widest / slot)) if n > 1 else 1
    for i, (lab, v) in enumerate(zip(labels, values)):
        parts.append(f'<circle cx="{X(i):.1f}" cy="{Y(v):.1f}" r="3.5" fill="{PALETTE[0]}"><title>{escape(lab)}: {fmt(v)}</title></circle>')
        if i % k == 0:
            anchor = "start" if i == 0 and n > 1 else "end" if i == n - 1 and n > 1 else "middle"
            x = X(i) - 4 if anchor == "start" else X(i) + 4 if anchor == "end" else X(i)
            parts.append(f'<text x="{x:.1f}" y="{h - b + 16}" font-size="10" fill="#181818" text-anchor="{anchor}">{escape(lab)}</text>')
    return _svg(w, h, "".join(parts), label)


def donut(labels: list[str], values: list[float], money: bool = False, w: int = 380, label: str = "Donut chart") -> Markup:
    fmt = short_money if money else short_num
    h = 230
    cx, cy, ro, ri = 110, 115, 88, 54
    total = sum(values) or 1
    parts = []
    a0 = -math.pi / 2
    for i, v in enumerate(values):
        if v <= 0:
            continue
        a1 = a0 + 2 * math.pi * v / total
        if a1 - a0 >= 2 * math.pi - 1e-6:
            a1 = a0 + 2 * math.pi - 1e-4
        large = 1 if a1 - a0 > math.pi else 0
        p = (f"M{cx + ro * math.cos(a0):.2f},{cy + ro * math.sin(a0):.2f} "
             f"A{ro},{ro} 0 {large} 1 {cx + ro * math.cos(a1):.2f},{cy + ro * math.sin(a1):.2f} "
             f"L{cx + ri * math.cos(a1):.2f},{cy + ri * math.sin(a1):.2f} "
             f"A{ri},{ri} 0 {large} 0 {cx + ri * math.cos(a0):.2f},{cy + ri * math.sin(a0):.2f} Z")
        parts.append(f'<path d="{p}" fill="{PALETTE[i % len(PALETTE)]}"><title>{escape(labels[i])}: {fmt(v)}</title></path>')
        a0 = a1
    parts.append(f'<text x="{cx}" y="{cy - 2}" font-size="20" font-weight="600" fill="#181818" text-anchor="middle">{fmt(sum(values))}</text>')
    parts.append(f'<text x="{cx}" y="{cy + 16}" font-size="10" fill="{AXIS}" text-anchor="middle">Total</text>')
    for i, (lab, v) in enumerate(list(zip(labels, values))[:10]):
        y = 22 + i * 19
        short = lab if len(lab) <= 17 else lab[:16] + "\u2026"
        parts.append(f'<rect x="224" y="{y - 9}" width="10" height="10" fill="{PALETTE[i % len(PALETTE)]}"/>')
        parts.append(f'<text x="240" y="{y}" font-size="11" fill="#181818">{escape(short)} ({fmt(v)})</text>')
    return _svg(w, h, "".join(parts), label)


def funnel(labels: list[str], values: list[float], money: bool = True, w: int = 380, label: str = "Funnel chart") -> Markup:
    fmt = short_money if money else short_num
    n = max(1, len(labels))
    h = 24 + n * 34
    top = max(values + [1])
    parts = []
    mid = w / 2 + 40
    maxw = w - 150
    for i, (lab, v) in enumerate(zip(labels, values)):
        bw = max(24, maxw * (v / top))
        y = 12 + i * 34
        parts.append(f'<rect x="{mid - bw / 2:.1f}" y="{y}" width="{bw:.1f}" height="28" fill="{PALETTE[i % len(PALETTE)]}"><title>{escape(lab)}: {fmt(v)}</title></rect>')
        parts.append(f'<text x="{mid:.1f}" y="{y + 18}" font-size="11" fill="#181818" text-anchor="middle" font-weight="600">{fmt(v)}</text>')
        parts.append(f'<text x="8" y="{y + 18}" font-size="11" fill="#181818">{escape(lab)}</text>')
    return _svg(w, h, "".join(parts), label)
