"""The dashboard's server-drawn charts: axis labels that a person (or a vision model) can read."""

from __future__ import annotations

import re

from apps.crm.charts import line_chart

MONTHS = ["March 2025", "April 2025", "May 2025", "June 2025", "July 2025", "August 2025", "September 2025",
          "October 2025", "November 2025", "December 2025", "January 2026", "February 2026", "March 2026"]


def _labels(svg: str) -> list[tuple[float, str, str]]:
    return [(float(x), anchor, text) for x, anchor, text in
            re.findall(r'<text x="([\d.]+)" y="[\d.]+" font-size="10" fill="#181818" text-anchor="(\w+)">([^<]+)</text>', svg)]


def _extent(x: float, anchor: str, text: str) -> tuple[float, float]:
    w = len(text) * 5.6
    return {"start": (x, x + w), "end": (x - w, x), "middle": (x - w / 2, x + w / 2)}[anchor]


def test_line_chart_month_labels_do_not_overlap_and_stay_inside():
    svg = str(line_chart(MONTHS, [float(i) for i in range(len(MONTHS))], w=380))
    labels = _labels(svg)
    assert labels[0][2] == "March 2025" and labels[0][1] == "start"
    assert len(labels) >= 4  # thinned, not dropped
    spans = [_extent(*lab) for lab in labels]
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), spans
    assert spans[0][0] >= 0 and spans[-1][1] <= 380
    assert svg.count("<circle") == len(MONTHS)  # every point is still drawn, with its tooltip


def test_line_chart_with_few_points_labels_each():
    labels = _labels(str(line_chart(["Q1", "Q2", "Q3", "Q4"], [1.0, 2.0, 3.0, 4.0])))
    assert [t for _, _, t in labels] == ["Q1", "Q2", "Q3", "Q4"]
