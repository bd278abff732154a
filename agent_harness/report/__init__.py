"""Reports on eval runs: statistics (stats.py) and a static HTML report with a trajectory viewer (html.py)."""

from agent_harness.report.html import load_runs, overlay_svg, write_report
from agent_harness.report.stats import pass_at_k, pass_at_ks, summarize

__all__ = ["write_report", "load_runs", "overlay_svg", "pass_at_k", "pass_at_ks", "summarize"]
