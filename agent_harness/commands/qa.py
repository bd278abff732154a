"""`uigym qa`: prove a clone's UI and data completeness and its tasks' health; exit 1 on any defect."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.text import Text


def register(app: typer.Typer) -> None:
    @app.command("qa")
    def qa_cmd(
        app_name: str = typer.Option(..., "--app", help="mail, food, crm, 'all', a comma list, or a dotted module "
                                                         "path (tests.fixture_apps.qa_clean)"),
        pages: int = typer.Option(40, min=1, help="page and dialog/menu states crawled beyond the start pages, at most"),
        out: Path = typer.Option(Path("qa-report"), help="report folder (report.json, report.html, shots/)"),
        workers: int = typer.Option(2, min=1, max=32, help="envs exercising controls in parallel"),
        max_elements: int = typer.Option(60, min=1, help="new control groups exercised per state"),
        samples: int = typer.Option(2, min=1, help="instances exercised per group of alike controls (list rows)"),
        per_template: int = typer.Option(2, min=1, help="pages crawled per URL template (/thread/{n})"),
        depth: int = typer.Option(2, min=0, max=4, help="actions chained to reach dialog/menu states"),
        time_limit: float = typer.Option(0, min=0, help="seconds; stop starting new jobs after this (0: none)"),
        max_jobs: int = typer.Option(0, min=0, help="start at most this many jobs: crawls, probes, queries (0: no cap)"),
        order_seed: Optional[int] = typer.Option(None, help="take the jobs in an order drawn from this seed (default: "
                                                            "as found), so a capped crawl covers another part"),
        tasks: bool = typer.Option(True, "--tasks/--no-tasks", help="validate the app's tasks: oracle 1 / noop 0 / "
                                                                   "near-miss 0 (an episode each; the goal lint runs anyway)"),
        lint: bool = typer.Option(True, "--lint/--no-lint", help="lint the app's task goals (no browser)"),
        task_glob: str = typer.Option("*", "--task-glob", help="which of the app's tasks"),
        queries: bool = typer.Option(True, "--queries/--no-queries", help="data completeness queries"),
        max_queries: int = typer.Option(6, min=1, help="vocabulary words tried per query path"),
        seed: int | None = typer.Option(None, help="world seed (default: the app's declaration)"),
        as_json: bool = typer.Option(False, "--json", help="print the coverage summary as JSON"),
        verbose: bool = typer.Option(False, "--verbose", "-v", help="one line per crawl/probe/query job on stderr"),
        look: Optional[str] = typer.Option(None, help="crawl the app in this look (`uigym looks`; default: its "
                                                      "first); its tasks are validated in it"),
        variant: Optional[str] = typer.Option(None, help="crawl in this screen variant (`uigym variants`: "
                                                         "'lang=de', 'german', 'theme=dark'); its tasks are "
                                                         "validated in it; a page language checks every page "
                                                         "for English chrome"),
    ):
        """Crawl every reachable page and dialog of an app in fresh worlds, exercise every visible control like
        a user, run the app's declared searches and filters, check its tasks; write a JSON and an HTML report.
        Exit 1 when there are defects."""
        import asyncio
        import json

        from rich.console import Console

        from agent_harness.qa import QAConfig, run_qa
        from agent_harness.qa.report import render_html
        from apps import APP_MODULES, available_apps, load_app_module
        from gym_core.runtime import Runtime

        console, err = Console(), Console(stderr=True)
        if app_name == "all":
            names = available_apps()
        else:
            names = [a.strip() for a in app_name.split(",") if a.strip()]
        if any("." in n for n in names):
            import os
            import sys

            if os.getcwd() not in sys.path:  # dotted app modules (test fixtures) live in the working tree
                sys.path.insert(0, os.getcwd())
        for n in names:
            try:
                load_app_module(n)
            except (KeyError, ModuleNotFoundError) as e:
                err.print(f"[red]error:[/red] {e} (known: {', '.join(sorted(APP_MODULES))})")
                raise typer.Exit(2)
        if not names:
            err.print("[red]error:[/red] no app to check")
            raise typer.Exit(2)
        if look is not None:
            from apps import app_looks

            missing = [n for n in names if look not in app_looks(n)]
            if missing:
                err.print(f"[red]error:[/red] {', '.join(missing)} has no look {look!r}; "
                          + "; ".join(f"{n}: {' '.join(app_looks(n))}" for n in missing))
                raise typer.Exit(2)
        if variant is not None:
            from apps import app_looks as _looks
            from gym_core.variant import VariantError, parse_variant, refuse_lang

            try:
                spec = parse_variant(variant)
                for n in names:
                    refuse_lang(spec, n, look or (_looks(n) or [None])[0])
            except VariantError as e:
                err.print(f"[red]error:[/red] --variant: {e}")
                raise typer.Exit(2)
        cfg = QAConfig(pages=pages, per_template=per_template, max_elements=max_elements, samples=samples,
                       depth=depth, workers=workers, time_limit_s=time_limit, queries=queries,
                       max_queries=max_queries, tasks=tasks, lint=lint, task_glob=task_glob, seed=seed,
                       verbose=verbose, look=look, order_seed=order_seed, max_jobs=max_jobs,
                       variant=variant)

        async def main():
            reports = []
            try:
                for n in names:
                    console.print(f"[bold]uigym qa[/bold] {n}: crawling (pages≤{pages}, workers={workers})...")
                    reports.append(await run_qa(n, cfg))
            finally:
                await Runtime.current().close()
            return reports

        try:
            reports = asyncio.run(main())
        except ValueError as e:  # a bad declaration
            err.print(f"[red]error:[/red] {e}")
            raise typer.Exit(2)
        multi = len(reports) > 1
        for r in reports:
            r.write(out / r.app.replace(".", "_") if multi else out)
        if multi:
            (out / "report.html").write_text(render_html(reports))

        table, summary = coverage_table(reports)
        if as_json:
            print(json.dumps(summary, indent=1))
        else:
            console.print(table)
            for r in reports:
                for d in r.defects[:40]:
                    el = d.element or {}
                    what = f" {el.get('role', '')} {el.get('name', '')!r}" if el.get("role") else ""
                    line = f"[{r.app}] {d.kind}{what} on {d.page}: {d.detail}" + (f" (×{d.count})" if d.count > 1 else "")
                    # The defect's own words stay literal (a page's text may hold "[...]"); the mark is red.
                    console.print(Text("✗ ", style="red") + Text(line), highlight=False)
                if len(r.defects) > 40:
                    console.print(f"... and {len(r.defects) - 40} more in the report")
                if r.errors:
                    console.print(f"[yellow]{len(r.errors)} things could not be exercised (see the report)[/yellow]")
        console.print(f"report: {out / 'report.html'}")
        if any(not r.ok for r in reports):
            raise typer.Exit(1)


# Short, stacked headers, as the eval's summary has them (agent_harness/summary.py): the table fits 80 columns
# (the report has the rest: page templates, groups, outcomes).
COVERAGE_COLUMNS = ("app", "pages", "dialogs", "elements", "exer-\ncised", "not\nexer-\ncised", "queries", "tasks",
                    "defects", "s")


def coverage_table(reports: list) -> tuple:
    """The coverage table printed after a run (one row per app's report), and each app's coverage dict."""
    from rich import box
    from rich.table import Table

    table = Table(title="uigym qa: coverage", box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False,
                  padding=(0, 0, 0, 0))
    for col in COVERAGE_COLUMNS:
        table.add_column(col, justify="left" if col == "app" else "right", no_wrap=True,
                         min_width=max(len(line) for line in col.splitlines()))
    summary = {}
    for r in reports:
        c = r.coverage()
        summary[r.app] = c
        table.add_row(r.app, str(c["pages"]), str(c["dialog_states"]), str(c["elements_seen"]),
                      str(c["exercised"]), str(c["not_exercised"]), str(c["queries"]),
                      str(c["tasks"]), f"[{'green' if r.ok else 'red'}]{c['defects']}[/]", f"{c['seconds']:.0f}")
    return table, summary
