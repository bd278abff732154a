"""`uigym compare A B`: run B against run A on their shared tasks (agent_harness.report.compare)."""

from __future__ import annotations

import json
from pathlib import Path

import typer


def _rows(run: Path) -> list[dict]:
    from agent_harness.results import RESULTS, latest_results, read_results

    if not (run / RESULTS).exists():
        raise typer.BadParameter(f"{run} has no {RESULTS} (is it an eval output folder?)")
    return latest_results(read_results(run))


def register(app: typer.Typer) -> None:
    @app.command("compare")
    def compare_cmd(
        a: Path = typer.Argument(..., help="the baseline run folder (with a results.jsonl)"),
        b: Path = typer.Argument(..., help="the run compared against it"),
        as_json: bool = typer.Option(False, "--json", help="print the comparison as JSON"),
    ):
        """Compare two eval runs: per-template differences with 95% intervals, a paired sign test on the
        shared tasks, the tasks that flipped each way, and a one-line verdict."""
        from rich import box
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text

        from agent_harness.report.compare import compare_runs

        result = compare_runs(_rows(a), _rows(b), name_a=f"A ({a.name})", name_b=f"B ({b.name})")
        if as_json:
            typer.echo(json.dumps(result, indent=1))
            return
        console = Console()
        t = Table(title=f"B - A by template ({result['shared']} shared tasks)", box=box.SIMPLE_HEAD)
        for col, justify in (("template", "left"), ("tasks", "right"), ("A", "right"), ("B", "right"),
                             ("B - A", "right"), ("95% interval", "right")):
            t.add_column(col, justify=justify)  # type: ignore[arg-type]
        for g in result["templates"]:
            iv = g["interval"]
            t.add_row(Text(g["template"]), str(g["tasks"]), f"{g['a']:.0%}", f"{g['b']:.0%}",
                      f"{g['diff'] * 100:+.0f}", Text("-" if iv is None else f"[{iv[0] * 100:+.0f}, {iv[1] * 100:+.0f}]"))
        console.print(t)
        for label, tasks in ((f"better in B ({len(result['b_better'])})", result["b_better"]),
                             (f"better in A ({len(result['a_better'])})", result["a_better"])):
            console.print(f"{label}: " + (", ".join(tasks) or "-"), markup=False, highlight=False)
        for label, tasks in (("only in A", result["only_a"]), ("only in B", result["only_b"])):
            if tasks:
                console.print(f"{label} (left out): {len(tasks)} tasks", markup=False, highlight=False)
        if result["shared"]:
            console.print(f"A {result['rate_a']:.1%}, B {result['rate_b']:.1%} on the shared tasks",
                          markup=False, highlight=False)
        console.print(result["verdict"], style="bold", markup=False, highlight=False)
