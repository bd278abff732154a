"""`uigym report`: a static HTML report of one or more eval runs, or of a training run (its learning curve)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Optional

import typer


def register(app: typer.Typer) -> None:
    @app.command("report")
    def report_cmd(
        runs: list[Path] = typer.Argument(..., help="eval output folders (each with a results.jsonl); two or more "
                                                    "are compared side by side; or one `uigym train` folder: its "
                                                    "learning curve"),
        out: Optional[Path] = typer.Option(None, help="report folder (default: RUN/report for one run, "
                                                      "reports/compare-<time> for several)"),
        title: Optional[str] = typer.Option(None),
        copy_images: bool = typer.Option(False, help="copy screenshots into the report (a folder that stands "
                                                     "alone) instead of linking into the run folders"),
    ):
        """Write a static HTML report: summaries, pass@k, breakdowns, errors, and a trajectory viewer; print each
        run's summary and where the report is."""
        from rich.console import Console

        from agent_harness.report import write_report
        from agent_harness.report.training import MetricsError, is_training_run, write_training_report

        training = [r for r in runs if not (r / "results.jsonl").exists() and is_training_run(r)]
        if training:  # a `uigym train` folder: its learning curve
            if len(runs) > 1:
                raise typer.BadParameter(f"{training[0]} is a training run: report it on its own "
                                         f"(uigym report {training[0]})", param_hint="RUNS")
            try:
                index = write_training_report(runs[0], out or runs[0] / "report", title=title)
            except MetricsError as e:
                from agent_harness.cli import fail

                fail(str(e))
            from agent_harness.report.training import read_training_run

            for note in read_training_run(runs[0]).notes:
                Console().print(f"[yellow]{note}[/yellow]")
            Console().print(f"report: {index}")
            return
        for r in runs:
            if not (r / "results.jsonl").exists():
                raise typer.BadParameter(f"{r} has no results.jsonl (not an eval output folder, nor a training "
                                         "run's: uigym_train.json, eval/metrics.jsonl)", param_hint="RUNS")
        if out is None:
            out = runs[0] / "report" if len(runs) == 1 else \
                Path("reports") / f"compare-{dt.datetime.now().strftime('%Y%m%d-%H%M%S')}"
        index = write_report(runs, out, title=title, copy_images=copy_images)
        # What the report says first, here too: one run's summary (its tables, step budget and ungraded line, as
        # `uigym eval` printed them), or each compared run's summary table.
        from agent_harness.results import latest_results, read_results
        from agent_harness.summary import print_summary, summary_table

        console = Console()
        if len(runs) == 1:
            print_summary(latest_results(read_results(runs[0])), title=str(runs[0]), console=console, out=runs[0])
        else:
            for r in runs:
                console.print(summary_table(latest_results(read_results(r)), title=str(r)))
        console.print(f"report: {index}")
