"""`uigym report`: a static HTML report of one or more eval runs."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Optional

import typer


def register(app: typer.Typer) -> None:
    @app.command("report")
    def report_cmd(
        runs: list[Path] = typer.Argument(..., help="eval output folders (each with a results.jsonl); two or more "
                                                    "are compared side by side"),
        out: Optional[Path] = typer.Option(None, help="report folder (default: RUN/report for one run, "
                                                      "reports/compare-<time> for several)"),
        title: Optional[str] = typer.Option(None),
        copy_images: bool = typer.Option(False, help="copy screenshots into the report (a folder that stands "
                                                     "alone) instead of linking into the run folders"),
    ):
        """Write a static HTML report: summaries, pass@k, breakdowns, errors, and a trajectory viewer."""
        from rich.console import Console

        from agent_harness.report import write_report

        for r in runs:
            if not (r / "results.jsonl").exists():
                raise typer.BadParameter(f"{r} has no results.jsonl", param_hint="RUNS")
        if out is None:
            out = runs[0] / "report" if len(runs) == 1 else \
                Path("reports") / f"compare-{dt.datetime.now().strftime('%Y%m%d-%H%M%S')}"
        index = write_report(runs, out, title=title, copy_images=copy_images)
        Console().print(f"report: {index}")
