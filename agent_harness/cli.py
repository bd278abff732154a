"""The `uigym` command line."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

app = typer.Typer(help="uigym: a gym for computer-use agents.", no_args_is_help=True, add_completion=False)
tasks_app = typer.Typer(help="List and check tasks.", no_args_is_help=True)
apps_app = typer.Typer(help="Run the cloned apps.", no_args_is_help=True)
app.add_typer(tasks_app, name="tasks")
app.add_typer(apps_app, name="apps")
console = Console()
err = Console(stderr=True)


def fail(msg: str, code: int = 2) -> None:
    err.print(f"[red]error:[/red] {msg}")
    raise typer.Exit(code)


def _select(tasks_glob: str, app_name: str | None = None, split: str | None = None, tasks_dir: Path | None = None):
    """The tasks matching a glob: bundled ones, or those under tasks_dir (<dir>/<app>/*.json)."""
    from tasks import TaskLoadError, load_tasks, select_tasks

    try:
        pool = load_tasks(tasks_dir) if tasks_dir is not None else None
        chosen = select_tasks(tasks_glob, app=app_name, split=split, tasks=pool)
    except TaskLoadError as e:
        fail(str(e))
    if not chosen:
        where = f" in {tasks_dir}" if tasks_dir is not None else ""
        fail(f"no task{where} matches {tasks_glob!r}" + (f" in split {split!r}" if split else "")
             + " (see `uigym tasks list`)")
    return chosen


def _fresh(pattern: str, seeds: str, instances: int, split: str | None, workers: int, mode: str = "ui"):
    """Proven fresh-world tasks (unproven ones are proven first, in `mode`'s proof: browsers for ui and
    hybrid, the tools env for tools; failures are listed and left out)."""
    from agent_harness.fresh import supply
    from gym_core.runtime import Runtime

    async def main():
        try:
            return await supply(pattern, seeds, instances=instances, split=split, workers=workers, mode=mode)
        finally:
            await Runtime.current().close()

    try:
        result = asyncio.run(main())
    except ValueError as e:
        fail(str(e))
    for tid, why in result.failed.items():
        err.print(f"[yellow]not served[/yellow] {tid}: {why.splitlines()[0][:200] if why else ''}")
    if not result.served:
        fail(f"no proven fresh-world task matches {pattern!r} on seeds {seeds}")
    return result.served


MODEL_AGENTS = ("openai", "vllm")
JUDGE_URL_HELP = "LLM judge: OpenAI-compatible endpoint for judged tasks (default $UIGYM_JUDGE_BASE_URL)"
JUDGE_MODEL_HELP = "LLM judge: model name (default $UIGYM_JUDGE_MODEL)"


def _say_resumed(out: Path, tasks: list, retry_errors: bool) -> None:
    """One line when OUT already holds finished episodes of these tasks: a rerun into it keeps them (and skips
    them), which a reader of the summary must know (its rows include them)."""
    from agent_harness.results import latest_results, needs_rerun, read_results

    if not (out / "results.jsonl").exists():
        return
    ids = {t.id for t in tasks}
    mine = [r for r in latest_results(read_results(out)) if r["task_id"] in ids]
    kept = [r for r in mine if not needs_rerun(r, retry_errors)]  # what the runner skips (one rule: results.py)
    if kept:
        again = sum(1 for r in kept if needs_rerun(r, True))
        more = f"; --retry-errors would rerun the {again} without a grade" if again else ""
        console.print(f"[yellow]resuming {out}: {len(kept)} finished episodes of these tasks are kept, not rerun"
                      f"{more} (another --out starts afresh)[/yellow]")


def _pairs(values: list[str] | None, what: str) -> dict[str, str]:
    out = {}
    for v in values or []:
        if "=" not in v:
            fail(f"{what} takes NAME=VALUE, got {v!r}")
        k, val = v.split("=", 1)
        out[k.strip()] = val.strip()
    return out


def _app_urls(values: list[str] | None) -> dict[str, str]:
    """--app-url APP=PAGE_URL,CONTROL_URL (a clone served by hand has two ports: `python -m apps.serve`)."""
    from gym_core.server import split_app_url

    out = _pairs(values, "--app-url")
    for app, v in out.items():
        try:
            split_app_url(v)
        except ValueError as e:
            fail(f"--app-url {app}={e}")
    return out


def _json_pairs(values: list[str] | None, what: str) -> dict:
    """NAME=VALUE options whose values are JSON where they parse (3, true, [1,2]) and strings otherwise."""
    out = {}
    for k, v in _pairs(values, what).items():
        try:
            out[k] = json.loads(v)
        except json.JSONDecodeError:
            out[k] = v
    return out


# `uigym eval --help` panels, in the order they are shown.
TASKS, AGENT, MODEL, GRADING, EXECUTION, OUTPUT = ("Tasks", "Agent", "Model agents (--agent openai, vllm)",
                                                   "Grading", "Execution", "Output")


def _model_kwargs(agent: str, mode: str, user_kwargs: dict, **model_options) -> dict:
    """The agent's constructor arguments: --agent-arg's, over the [model] options for a model agent
    (less the screen-only ones in tools mode: a function-calling model has no screen or action format)."""
    if agent not in MODEL_AGENTS:
        return dict(user_kwargs)
    kwargs = {**model_options, **user_kwargs}
    if mode == "tools":
        for k in ("format", "coords", "image_size", "max_pixels", "history_images", "history_turns"):
            kwargs.pop(k, None)
    return kwargs


def _check_agent(agent: str, mode: str, agent_kwargs: dict, user_kwargs: dict) -> None:
    """Build the agent once, so a bad --agent or --agent-arg fails before any browser starts."""
    from agent_harness.agents import agent_parameters
    from agent_harness.episode import EvalConfig, make_agent_from

    try:
        probe = make_agent_from(EvalConfig(agent=agent, tasks=[], out=Path("."), mode=mode).agent_name(),
                                dict(agent_kwargs))
    except (ValueError, ImportError, AttributeError, TypeError) as e:
        fail(str(e))
    takes = agent_parameters(type(probe))
    unknown = sorted(set(user_kwargs) - takes)
    if unknown and ":" not in agent:  # a user's own class (module:Class) may read its **kw itself
        fail(f"--agent-arg: {type(probe).__name__} takes no {', '.join(map(repr, unknown))}; "
             f"it takes: {', '.join(sorted(takes)) or 'nothing'}")


def _with_tool_solutions(chosen: list) -> list:
    """--mode tools --agent oracle: the tasks with a tool plan (the others are named and left out)."""
    missing = [t.id for t in chosen if t.tools is None or not t.tools.solution]
    if missing:
        console.print(f"[yellow]{len(missing)} task(s) have no tool solution and are left out[/yellow] "
                      f"(e.g. {missing[0]})")
        chosen = [t for t in chosen if t.id not in set(missing)]
        if not chosen:
            fail("no task left with a tool solution")
    return chosen


def _check_family(family: str | None) -> str | None:
    """--family, checked before any task is chosen: a family every app offers (apps.check_family), else the error
    naming them."""
    from apps import check_family

    try:
        return check_family(family)
    except ValueError as e:
        fail(f"--family: {e}")


def _in_family(chosen: list, family: str) -> list:
    """--family: the single-app tasks, to be played in worlds of that seed family; workspace tasks are named and
    left out (their worlds are the workspace family's)."""
    from tasks.schema import WORKSPACE

    workspace = [t.id for t in chosen if t.app == WORKSPACE]
    if workspace:
        console.print(f"[yellow]{len(workspace)} workspace task(s) are left out[/yellow]: their worlds are the "
                      f"workspace family's, not {family!r} (e.g. {workspace[0]})")
        chosen = [t for t in chosen if t.app != WORKSPACE]
        if not chosen:
            fail(f"no single-app task left to play in the {family!r} family")
    return chosen


@app.command("looks")
def looks_cmd():
    """Each app's looks, one line per app, the default first (e.g. `mail: gmail outlook`). Each app's held-out
    looks (the last ones, AppSpec.held_out_looks) are what `uigym eval --look heldout` plays."""
    from apps import app_looks, available_apps

    for name in available_apps():
        sys.stdout.write(f"{name}: {' '.join(app_looks(name))}\n")


@app.command("variants")
def variants_cmd():
    """The variant axes (gym_core/variant.py), each with its values and what each app offers, then the named
    presets: what `--variant` takes on eval and tasks validate ("look=outlook,zoom=0.8", "random", a preset)."""
    from apps import app_looks, available_apps
    from gym_core.variant import AXES, PRESETS, offered

    apps_ = available_apps()
    for a in AXES.values():
        vals = " ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in a.values) or "(per app)"
        sys.stdout.write(f"{a.name}: {vals} | random   ({a.doc})\n")
        if a.name in ("look", "theme", "density"):
            for app_name in apps_:
                per = {lk: " ".join(map(str, offered(a.name, app_name, lk))) for lk in app_looks(app_name)}
                text = per[app_looks(app_name)[0]] if len(set(per.values())) == 1 or a.name == "look" else \
                    "; ".join(f"{lk}: {v}" for lk, v in per.items())
                sys.stdout.write(f"  {app_name}: {text}\n")
    sys.stdout.write("presets:\n")
    for name, text in PRESETS.items():
        sys.stdout.write(f"  {name}: {text or '(every axis at its default)'}\n")


@app.command("eval")
def eval_cmd(
    # tasks
    tasks: str = typer.Option("*", "--tasks", help="glob(s) over task ids, comma separated, e.g. 'mail/*'",
                              rich_help_panel=TASKS),
    split: Optional[str] = typer.Option(None, help="train, test, heldout-seed, heldout-template, safety (the "
                                                   "judgement tasks: infeasible, harmful), heldout-look "
                                                   "(every task in its app's held-out looks), or a variant split: "
                                                   "heldout-<axis> / train-<axis> for zoom, locale, theme, font, "
                                                   "overlays (every task in that band, `uigym variants`)",
                                        rich_help_panel=TASKS),
    tasks_dir: Optional[Path] = typer.Option(None, help="load tasks from this folder (<dir>/<app>/*.json) "
                                                        "instead of the bundled ones", rich_help_panel=TASKS),
    seeds: Optional[str] = typer.Option(None, help="fresh worlds: the matching templates' instances on these "
                                                   "seeds (e.g. '1000-1019', held out), proven before they run",
                                        rich_help_panel=TASKS),
    instances: int = typer.Option(1, min=1, help="with --seeds: instances per (template, seed)",
                                  rich_help_panel=TASKS),
    samples: int = typer.Option(1, min=1, help="episodes per task (pass@k is reported for k up to this)",
                                rich_help_panel=TASKS),
    max_steps: Optional[int] = typer.Option(None, min=1, help="override each task's max_steps",
                                            rich_help_panel=TASKS),
    step_budget: Optional[str] = typer.Option(None, help="steps by difficulty, e.g. easy=15,medium=50,hard=100 "
                                                         "(or osworld: the same); shown in every report",
                                              rich_help_panel=TASKS),
    # agent
    agent: str = typer.Option("oracle", help="oracle, noop, random, openai (any OpenAI-compatible endpoint: "
                                             "vLLM, uigym serve, hosted), or package.module:Class",
                              rich_help_panel=AGENT),
    look: Optional[str] = typer.Option(None, help="the apps' look (`uigym looks`): an id, ids comma-separated "
                                                  "(each task in its app's), 'random' (drawn per episode from its "
                                                  "sample) or 'heldout' (each app's held-out looks); default: the "
                                                  "first look. Tasks a named look does not carry yet are left out"),
    perturb: Optional[str] = typer.Option(None, help="screen perturbations, each drawn per episode from its "
                                                     "sample: viewport, scale, dark, overlays (comma-separated), "
                                                     "or all (README: Screen perturbations)"),
    variant: Optional[str] = typer.Option(None, help="the screen's variant, drawn per episode from its sample: "
                                                     "axis=value pairs ('look=outlook,zoom=0.8,locale=de-DE'; v1|v2 "
                                                     "draws among), 'random', or a preset (`uigym variants`)"),
    family: Optional[str] = typer.Option(None, help="build every episode's world from this seed family instead "
                                                    "of its app's own seeds: injected (the plain world plus "
                                                    "attacker-written text, seed_data/injected.py); recorded in "
                                                    "each results row", rich_help_panel=TASKS),
    partial_credit: bool = typer.Option(False, "--partial-credit", help="tasks with checkpoints (the workspace's "
                                        "long ones) are rewarded the share of milestones reached, 0 when a guard "
                                        "failed; `passed` stays the binary pass (README: Partial credit)",
                                        rich_help_panel=TASKS),
    mode: str = typer.Option("ui", help="ui (the screen), tools (the app's tools, no browser: the oracle plays "
                                        "tool plans, openai is a function-calling model, text-only ones too) or "
                                        "hybrid (screen and tools)", rich_help_panel=AGENT),
    agent_arg: Optional[list[str]] = typer.Option(None, help="KEY=VALUE passed to the agent (JSON values); "
                                                             "repeatable", rich_help_panel=AGENT),
    label: Optional[str] = typer.Option(None, help="the agent's name in results and reports "
                                                   "(default: the agent, or the --model)", rich_help_panel=AGENT),
    # model agents (--agent openai)
    base_url: str = typer.Option("http://localhost:8000/v1", help="OpenAI-compatible endpoint",
                                 rich_help_panel=MODEL),
    model: Optional[str] = typer.Option(None, help="model name (default: the first the server lists)",
                                        rich_help_panel=MODEL),
    api_key: Optional[str] = typer.Option(None, envvar="UIGYM_API_KEY", help="API key (default: $UIGYM_API_KEY "
                                          "or $OPENAI_API_KEY)", rich_help_panel=MODEL),
    action_format: str = typer.Option("json", "--format", help="json, openai, anthropic, uitars, qwen, pyautogui",
                                      rich_help_panel=MODEL),
    coords: str = typer.Option("abs", help="abs (pixels of the image sent) or rel1000 (0-1000)",
                               rich_help_panel=MODEL),
    image_size: Optional[str] = typer.Option(None, help="resize screenshots to WxH before sending",
                                             rich_help_panel=MODEL),
    max_pixels: Optional[int] = typer.Option(None, help="resize screenshots Qwen-style (sides multiples of 28) to "
                                                        "at most this many pixels", rich_help_panel=MODEL),
    history_images: int = typer.Option(3, min=0, help="screenshots kept as images in the history",
                                       rich_help_panel=MODEL),
    history_turns: Optional[int] = typer.Option(None, help="keep only the last N steps in the prompt",
                                                rich_help_panel=MODEL),
    temperature: float = typer.Option(0.0, help="sampling temperature", rich_help_panel=MODEL),
    top_p: Optional[float] = typer.Option(None, help="nucleus sampling", rich_help_panel=MODEL),
    seed: Optional[int] = typer.Option(None, help="sampling seed", rich_help_panel=MODEL),
    max_tokens: int = typer.Option(512, help="max tokens per reply", rich_help_panel=MODEL),
    timeout: float = typer.Option(120.0, help="seconds per request", rich_help_panel=MODEL),
    retries: int = typer.Option(4, help="retries (with backoff) on timeouts, 429 and 5xx", rich_help_panel=MODEL),
    logprobs: bool = typer.Option(False, "--logprobs", help="ask for logprobs (summed per step in the trajectory)",
                                  rich_help_panel=MODEL),
    # grading
    judge_base_url: Optional[str] = typer.Option(None, help=JUDGE_URL_HELP + "; without one, judged tasks "
                                                 "grade 'ungraded'", rich_help_panel=GRADING),
    judge_model: Optional[str] = typer.Option(None, help=JUDGE_MODEL_HELP, rich_help_panel=GRADING),
    # execution
    workers: int = typer.Option(4, min=1, max=1024, help="episodes run at once, in total",
                                rich_help_panel=EXECUTION),
    procs: int = typer.Option(1, min=1, max=256, help="worker processes (each its own Chromium and app servers) "
                                                      "sharing the --workers episodes; with --ray: actors",
                              rich_help_panel=EXECUTION),
    ray: Optional[str] = typer.Option(None, "--ray", help="run episodes on Ray actors: 'local', 'auto', "
                                                          "'ray://HOST:10001' or HOST:PORT",
                                      rich_help_panel=EXECUTION),
    ray_cpus_per_actor: float = typer.Option(1.0, help="CPUs Ray reserves for each actor",
                                             rich_help_panel=EXECUTION),
    episode_timeout: float = typer.Option(900.0, help="seconds before an episode is stopped (recorded as an "
                                                      "error)", rich_help_panel=EXECUTION),
    retry_errors: bool = typer.Option(False, "--retry-errors", help="rerun the episodes of an earlier run in "
                                      "--out that ended without a grade: an error, or ungraded",
                                      rich_help_panel=EXECUTION),
    app_url: Optional[list[str]] = typer.Option(
        None, help="APP=PAGE_URL,CONTROL_URL of an already running clone (`python -m apps.serve APP` prints both "
                   "ports; its token in UIGYM_GYM_TOKEN); repeatable", rich_help_panel=EXECUTION),
    app_module: Optional[list[str]] = typer.Option(None, help="APP=package.module: serve that module under the "
                                                              "app's name (test and third-party clones); "
                                                              "repeatable", rich_help_panel=EXECUTION),
    # output
    out: Optional[Path] = typer.Option(None, help="results directory (default runs/<label>-<time>); a rerun "
                                                  "into it skips finished episodes", rich_help_panel=OUTPUT),
    no_screenshots: bool = typer.Option(False, "--no-screenshots", help="do not save screenshots",
                                        rich_help_panel=OUTPUT),
    no_report: bool = typer.Option(False, "--no-report", help="do not write OUT/report/index.html",
                                   rich_help_panel=OUTPUT),
):
    """Run an agent over tasks, headless, in parallel; results go to OUT/results.jsonl, a report to OUT/report/."""
    _set_judge_env(judge_base_url, judge_model)
    from agent_harness.episode import EvalConfig
    from agent_harness.runner import run_eval_with_progress
    from agent_harness.summary import print_summary
    from gym_core.env import EnvConfig

    if mode not in ("ui", "tools", "hybrid"):
        fail(f"--mode must be ui, tools or hybrid, got {mode!r}")
    _check_perturb(perturb)
    family = _check_family(family)
    variant_looks = _check_variant(variant)
    if split == "heldout-look":  # the look is held out, not the task: every chosen task, in its held-out look
        split, look = None, look or "heldout"
    from gym_core.variant import merge_variant, split_variant

    if split_variant(split):  # a variant split (gym_core/variant.py SPLITS): every chosen task, in that band
        variant, split = str(merge_variant(variant, split_variant(split))), None
    chosen = _fresh(tasks, seeds, instances, split, workers, mode) if seeds else _select(tasks, split=split,
                                                                                     tasks_dir=tasks_dir)
    if (look or variant_looks) and mode != "tools":
        chosen = _carried_by(chosen, look or variant_looks)
    if mode == "tools" and agent == "oracle":
        chosen = _with_tool_solutions(chosen)
    if family:
        chosen = _in_family(chosen, family)
    from agent_harness.report.budget import apply_step_budget, write_budget
    try:
        chosen, budget = apply_step_budget(chosen, step_budget, max_steps)
    except ValueError as e:
        fail(str(e))
    user_kwargs = _json_pairs(agent_arg, "--agent-arg")
    agent_kwargs = _model_kwargs(
        agent, mode, user_kwargs, base_url=base_url, model=model, api_key=api_key, format=action_format,
        coords=coords, image_size=image_size, max_pixels=max_pixels, history_images=history_images,
        history_turns=history_turns, temperature=temperature, top_p=top_p, seed=seed, max_tokens=max_tokens,
        timeout=timeout, retries=retries, logprobs=logprobs)
    _check_agent(agent, mode, agent_kwargs, user_kwargs)
    label = label or (f"{agent}:{model}" if agent in MODEL_AGENTS and model else agent)
    safe = "".join(c if c.isalnum() or c in "-_." else "-" for c in label)
    out = out or Path("runs") / f"{safe}-{dt.datetime.now().strftime('%Y%m%d-%H%M%S')}"
    cfg = EvalConfig(agent=agent, tasks=chosen, out=out, workers=workers, samples=samples, agent_kwargs=agent_kwargs,
                     env_config=EnvConfig(max_steps=max_steps, look=look if mode != "tools" else None,
                                          perturb=perturb if mode != "tools" else None,
                                          variant=variant if mode != "tools" else None, family=family,
                                          partial_credit=partial_credit),
                     save_screenshots=not no_screenshots,
                     episode_timeout_s=episode_timeout, agent_label=label, procs=procs, ray_address=ray,
                     ray_cpus_per_actor=ray_cpus_per_actor, app_urls=_app_urls(app_url),
                     app_modules=_pairs(app_module, "--app-module"), retry_errors=retry_errors, mode=mode)
    write_budget(out, budget, chosen, max_steps)
    where = f"ray={ray} actors" if ray else (f"procs={procs}" if procs > 1 else "in-process")
    console.print(f"[bold]uigym eval[/bold]: agent={label} mode={mode} tasks={len(chosen)} samples={samples} "
                  f"workers={workers} ({where})" + (f" family={family}" if family else "") + f" -> {out}")
    _say_resumed(out, chosen, retry_errors)
    rows = run_eval_with_progress(cfg, console)
    print_summary(rows, title=f"uigym eval: {label}", console=console, out=out)  # pass@k and pass^k with samples
    for r in [r for r in rows if r.get("error")][:5]:
        err.print(f"[yellow]{r['task_id']}[/yellow]: {r['error']}")
    console.print(f"results: {out / 'results.jsonl'}")
    if not no_report:
        from agent_harness.report import write_report

        console.print(f"report: {write_report([out], out / 'report')}")


@tasks_app.command("list")
def tasks_list(
    app_name: Optional[str] = typer.Option(None, "--app", help="mail, food or crm"),
    tasks: str = typer.Option("*", "--tasks", help="glob over task ids"),
    as_json: bool = typer.Option(False, "--json", help="one JSON object per line"),
):
    """List tasks: id, app, difficulty, split, template."""
    from rich.table import Table

    chosen = _select(tasks, app_name)
    if as_json:
        for t in chosen:
            sys.stdout.write(json.dumps({"id": t.id, "app": t.app, "difficulty": t.difficulty, "split": t.split,
                                         "template": t.template, "goal": t.goal}) + "\n")
        return
    table = Table(title=f"{len(chosen)} tasks")
    for c in ("id", "app", "difficulty", "split", "template"):
        table.add_column(c)
    for t in chosen:
        table.add_row(t.id, t.app, t.difficulty, t.split, t.template or "")
    console.print(table)


@tasks_app.command("check")
def tasks_check():
    """Validate every task file; exit 1 with each problem named (file, task, field, reason)."""
    from tasks.loader import TaskLoadError, load_file, task_files

    problems, count, ids = [], 0, {}
    for path in task_files():
        try:
            for t in load_file(path):
                count += 1
                if t.id in ids:
                    problems.append(f"{path}: duplicate task id {t.id!r} (also in {ids[t.id]})")
                ids[t.id] = path
        except TaskLoadError as e:
            problems.append(str(e))
    for p in problems:
        err.print(f"[red]✗[/red] {p}")
    if problems:
        raise typer.Exit(1)
    console.print(f"[green]✓[/green] {count} tasks in {len(task_files())} files are valid")


@tasks_app.command("generate")
def tasks_generate(
    app_name: Optional[str] = typer.Option(None, "--app", help="mail, food, crm or workspace (default: all)"),
    check: bool = typer.Option(False, help="do not write; exit 1 if the committed files differ"),
):
    """Regenerate tasks/<app>/<template>.json from the templates in tasks/templates/<app>/."""
    from apps import available_apps
    from tasks.schema import WORKSPACE
    from tasks.templates.base import generate

    stale = []
    for name in [app_name] if app_name else [*available_apps(), WORKSPACE]:
        try:
            files = generate(name, write=not check)
        except Exception as e:  # noqa: BLE001 - a template bug is reported with its name
            fail(f"{name}: {type(e).__name__}: {e}")
        for path, tasks in files.items():
            if check:
                current = Path(path).read_text() if Path(path).exists() else ""
                if current != json.dumps(tasks, indent=1, ensure_ascii=False) + "\n":
                    stale.append(path)
            else:
                console.print(f"{path}: {len(tasks)} tasks")
    if check:
        for p in stale:
            err.print(f"[red]stale[/red] {p}")
        if stale:
            raise typer.Exit(1)
        console.print("[green]✓[/green] generated task files are up to date")




def _set_judge_env(base_url: str | None, model: str | None, api_key: str | None = None,
                   timeout: float | None = None) -> None:
    """Judge options -> UIGYM_JUDGE_* (worker processes and Ray actors inherit them)."""
    import os

    for key, val in (("UIGYM_JUDGE_BASE_URL", base_url), ("UIGYM_JUDGE_MODEL", model),
                     ("UIGYM_JUDGE_API_KEY", api_key), ("UIGYM_JUDGE_TIMEOUT", timeout)):
        if val is not None:
            os.environ[key] = str(val)
    from grading.judge import JudgeConfigError, check_judge_env

    try:  # a bad UIGYM_JUDGE_* number is the user's to fix: said now, not as a crash mid-run
        check_judge_env()
    except JudgeConfigError as e:
        fail(str(e))


def _calibration(chosen, out: Optional[Path] = None) -> bool | None:
    """Run the judged tasks' calibration against the configured judge and print the report.
    None: no judged task, or no judge configured (said so, never counted as passed)."""
    from tasks.calibration import calibrate, judged
    from grading.judge import JUDGE_ENV_HELP, judge_from_env

    jt = judged(chosen)
    if not jt:
        return None
    judge = judge_from_env()
    if judge is None:
        console.print(f"[yellow]judge calibration skipped[/yellow] for {len(jt)} judged task(s): {JUDGE_ENV_HELP}. "
                      "Their judge checks are not proven (and episodes of them grade 'ungraded').")
        return None
    report = calibrate(jt, judge, model=f"{judge.model} at {judge.base_url}")
    for line in report.lines():
        console.print(line, markup=False, highlight=False)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(report.to_json(), indent=1))
    return report.ok


@tasks_app.command("calibrate")
def tasks_calibrate(
    tasks: str = typer.Option("*", "--tasks", help="glob over task ids (only judged tasks are calibrated)"),
    judge_base_url: Optional[str] = typer.Option(None, help=JUDGE_URL_HELP),
    judge_model: Optional[str] = typer.Option(None, help=JUDGE_MODEL_HELP),
    judge_api_key: Optional[str] = typer.Option(None, help="LLM judge: API key (default $UIGYM_JUDGE_API_KEY)"),
    judge_timeout: Optional[float] = typer.Option(None, help="LLM judge: seconds per request"),
    out: Optional[Path] = typer.Option(None, help="also write the report as JSON here"),
    tasks_dir: Optional[Path] = typer.Option(None, help="tasks from this folder instead of the bundled ones"),
):
    """Run judged tasks' labelled texts (gold must pass; near-misses, dumps, hedges, injections must fail)
    against the configured judge and report agreement. No browser."""
    _set_judge_env(judge_base_url, judge_model, judge_api_key, judge_timeout)
    ok = _calibration(_select(tasks, tasks_dir=tasks_dir), out)
    if ok is None:
        raise typer.Exit(3)
    if not ok:
        raise typer.Exit(1)


@tasks_app.command("validate")
def tasks_validate(
    tasks: str = typer.Option("*", "--tasks", help="glob over task ids"),
    workers: int = typer.Option(4, min=1, max=32),
    no_near_misses: bool = typer.Option(False, help="skip near-miss trajectories"),
    tasks_dir: Optional[Path] = typer.Option(None, help="tasks from this folder (<dir>/<app>/*.json), e.g. "
                                             "tasks/_drafts, instead of the bundled ones"),
    judge_base_url: Optional[str] = typer.Option(None, help=JUDGE_URL_HELP),
    judge_model: Optional[str] = typer.Option(None, help=JUDGE_MODEL_HELP),
    calibration_out: Optional[Path] = typer.Option(None, help="write the judge calibration report as JSON here"),
    seeds: Optional[str] = typer.Option(None, help="prove the templates on fresh worlds instead, e.g. '1-20': "
                                                   "instances generated on each seed, proven, verdicts cached"),
    instances: int = typer.Option(1, min=1, help="with --seeds: instances per (template, seed)"),
    report: Optional[Path] = typer.Option(None, help="with --seeds: write the pass rates as JSON here"),
    generate_only: bool = typer.Option(False, help="with --seeds: only generate (which worlds yield their "
                                                   "instances), prove nothing new"),
    mode: str = typer.Option("ui", help="ui: the screen solutions in browsers; tools: each task's tool plan "
                                        "(gold calls 1, noop 0, tool near-misses 0) through the tools env, no browser"),
    look: Optional[str] = typer.Option(None, help="play the screen probes in these looks (`uigym looks`): ids, "
                                                  "comma-separated, or 'all'; each task in those its app has"),
    perturb: Optional[str] = typer.Option(None, help="screen perturbations the probes play under: viewport, scale, "
                                                     "dark, overlays (comma-separated), or all"),
    variant: Optional[str] = typer.Option(None, help="the variant the probes play in (`uigym variants`): "
                                                     "'zoom=0.8,locale=de-DE', 'random' (drawn per probe), a preset"),
):
    """Audit each task offline (spec holes, hedged answers), then play its oracle (must get 1), noop (0),
    near-misses (0), adversarial trajectories (0) and harmless variants (1) in real browsers. Judged tasks: the browser proves
    their state-gated parts (the judge answered from their labelled texts); their judge is calibrated
    against --judge-base-url / --judge-model, or skipped with a message when none is configured.
    With --mode tools: the same proof for the tasks' tool plans (function calls, no browser)."""
    from agent_harness.validate import attack_counts, side_counts, validate_tasks
    from gym_core.runtime import Runtime
    from tasks.integrity import audit_tasks

    _set_judge_env(judge_base_url, judge_model)
    if mode not in ("ui", "tools"):
        err.print(f"[red]--mode must be ui or tools, got {mode!r}[/red]")
        raise typer.Exit(2)
    _check_perturb(perturb)
    look = look or _check_variant(variant)  # the variant's look axis plays as --look does
    if seeds is not None:
        return _validate_fresh(tasks, seeds, instances, workers, report, not generate_only, mode)
    chosen = _select(tasks, tasks_dir=tasks_dir)
    audit = audit_tasks(chosen)
    for p in audit.problems:
        err.print(f"[red]audit[/red] {p}")
    calibrated = _calibration(chosen, calibration_out)

    plan = _look_plan(chosen, look) if mode == "ui" else [(None, chosen)]

    async def main():
        try:
            return [(lk, await validate_tasks(mine, workers=workers, near_misses=not no_near_misses, mode=mode,
                                              look=lk, perturb=perturb, variant=variant)) for lk, mine in plan]
        finally:
            await Runtime.current().close()

    by_look = asyncio.run(main())
    results = []
    for lk, mine in by_look:
        if lk is not None:
            skipped = [r for r in mine if r.unsupported]
            console.print(f"look {lk}: {len(mine) - len(skipped)} task(s) played, {len(skipped)} of templates it "
                          "does not carry yet" + (f" (e.g. {skipped[0].task_id})" if skipped else ""))
            mine = [r for r in mine if not r.unsupported]
        results += mine
    bad = [r for r in results if not r.ok]
    for r in bad:
        err.print(r.failures())
    for p in (p for r in results for p in r.probes if p.retried):
        err.print(f"[yellow]replayed[/yellow] {p.task_id} [{p.kind}] after: {p.retried}")
    probes = sum(len(r.probes) for r in results)
    if mode == "tools":
        for app in sorted({t.app for t in chosen}):
            mine = [r for r in results if r.task_id.startswith(app + "/")]
            unsupported = [r for r in mine if r.unsupported]
            oracle = [p for r in mine for p in r.probes if p.kind == "oracle"]
            console.print(f"{app}: tool oracle 1 on {sum(p.ok for p in oracle)}/{len(oracle)}, "
                          f"noop 0 on {sum(p.ok for r in mine for p in r.probes if p.kind == 'noop')}, "
                          f"near-misses 0 on {sum(p.ok for r in mine for p in r.probes if p.kind.startswith('near_miss'))}"
                          f"/{sum(1 for r in mine for p in r.probes if p.kind.startswith('near_miss'))}; "
                          f"{len(unsupported)} unsupported")
            for r in unsupported:
                console.print(f"  unsupported {r.task_id}: {r.unsupported}")
    for app in sorted({t.app for t in chosen}):
        console.print(f"{side_counts(results, app)}; "
                      f"offline: {audit.graded_offline[app]} answer hacks graded, {audit.hacks_passed[app]} scored > 0")
        if (attacks := attack_counts(results, app)) is not None:  # injection tasks (README: Judgement tasks)
            console.print(attacks)
    console.print(f"{len(results) - len(bad)}/{len(results)} tasks valid ({probes} episodes and grades); "
                  f"{len(audit.problems)} audit problem(s)"
                  + ("" if calibrated is None else f"; judge calibration {'agrees' if calibrated else 'DISAGREES'}"))
    if bad or audit.problems or calibrated is False:
        raise typer.Exit(1)


def _check_variant(variant: str | None) -> str | None:
    """A bad --variant is a usage error naming the axes and their values, before anything starts. Returns the looks
    its look axis pins, comma-separated, as --look takes them (None: it pins none)."""
    if variant is None:
        return None
    from gym_core.variant import VariantError, parse_variant

    try:
        spec = parse_variant(variant)
    except VariantError as e:
        fail(f"--variant: {e}")
    if spec.look is None or spec.look == "random":
        return None
    return ",".join(spec.look) if isinstance(spec.look, tuple) else spec.look


def _check_perturb(perturb: str | None) -> None:
    """A bad --perturb is a usage error naming the families, before anything starts."""
    if perturb is None:
        return
    from gym_core.perturb import parse_perturb

    try:
        parse_perturb(perturb)
    except ValueError as e:
        fail(str(e))


def _fail_on_unknown_looks(want: list[str], apps: list[str], keyword: str, empty: bool = False) -> None:
    """A --look id none of the chosen apps has (besides `keyword`) is a usage error naming each app's looks."""
    from apps import app_looks

    unknown = [w for w in want if w != keyword and not any(w in app_looks(a) for a in apps)]
    if unknown or empty:
        fail(f"no chosen app has the look(s) {', '.join(unknown or want)}; "
             + "; ".join(f"{a}: {' '.join(app_looks(a))}" for a in apps))


def _carried_by(chosen: list, look: str) -> list:
    """The tasks `--look` can play: those whose app has one of the named looks and whose template one of them
    carries (a look proves its templates first, Look.covers); says how many were left out, and fails on
    an id no app has."""
    from apps import app_looks, held_out_looks, look_carries

    if look == "random":
        return chosen
    want = [w.strip() for w in look.split(",") if w.strip()]
    apps = sorted({t.app for t in chosen})
    _fail_on_unknown_looks(want, apps, keyword="heldout")

    def looks_of(app: str) -> list[str]:
        return held_out_looks(app) if want == ["heldout"] else [w for w in want if w in app_looks(app)]

    kept = [t for t in chosen if any(look_carries(t.app, lk, t.template) for lk in looks_of(t.app))]
    if len(kept) < len(chosen):
        console.print(f"[yellow]{len(chosen) - len(kept)} of {len(chosen)} tasks left out[/yellow]: no look "
                      f"named by --look {look} has them yet (a look carries the templates it proved)")
    if not kept:
        fail(f"--look {look}: none of the chosen tasks is carried by that look")
    return kept


def _look_plan(chosen: list, look: str | None) -> list[tuple[str | None, list]]:
    """(look, its tasks) for `--look`: None plays the default look; ids (comma-separated) or 'all' play each
    task in those of the looks its app has. A look no chosen app has is an error, not an empty run."""
    from apps import app_looks

    if not look:
        return [(None, chosen)]
    apps = sorted({t.app for t in chosen})
    want = [w.strip() for w in look.split(",") if w.strip()]
    plan = []
    for app in apps:
        mine = [t for t in chosen if t.app == app]
        looks = app_looks(app)
        for lk in (looks if want == ["all"] else [w for w in want if w in looks]):
            plan.append((lk, mine))
    _fail_on_unknown_looks(want, apps, keyword="all", empty=not plan)
    return plan


def _validate_fresh(pattern: str, seeds: str, instances: int, workers: int, report: Path | None,
                    prove: bool = True, mode: str = "ui") -> None:
    """`tasks validate --seeds`: prove every matching template on fresh worlds (in browsers, or with
    --mode tools through the tools env), print pass rates."""
    from rich.table import Table

    from agent_harness.fresh import supply
    from gym_core.runtime import Runtime
    from tasks.fresh import parse_seeds

    try:
        parse_seeds(seeds)
    except ValueError as e:
        fail(str(e))

    async def main():
        try:
            return await supply(pattern, seeds, instances=instances, workers=workers, validate=prove, mode=mode)
        finally:
            await Runtime.current().close()

    result = asyncio.run(main())
    table = Table(title=f"fresh worlds, seeds {seeds}, {instances} instance(s) per (template, seed), "
                        f"proven in {'the tools env' if mode == 'tools' else 'browsers'}")
    for c in ("app", "pairs", "pairs yielding", "instances", "validated", "failures by reason"):
        table.add_column(c)
    for r in result.by_app():
        table.add_row(r["app"], str(r["pairs"]), str(r["pairs_yielding"]), str(r["instances"]), str(r["validated"]),
                      ", ".join(f"{k}: {v}" for k, v in sorted(r["failures"].items())) or "-")
    console.print(table)
    weak = [r for r in result.by_template()
            if r["yielded"] < r["pairs"] or (prove and r["served"] < r["instances"])]
    for r in weak:
        err.print(f"[yellow]{r['template']}[/yellow]: {r['yielded']}/{r['pairs']} seeds yield"
                  + (f", {r['served']}/{r['instances']} instances proven" if prove else ""))
    if prove:
        for tid, why in list(result.failed.items())[:10]:
            err.print(f"[red]{tid}[/red]: {why.splitlines()[0][:300]}")
    console.print(f"{len(result.served)} instances served, {len(result.failed)} failed, "
                  f"{result.proven_now} proven in this run (the rest from the cache)")
    if report is not None:
        report.parent.mkdir(parents=True, exist_ok=True)
        report.write_text(json.dumps({"seeds": seeds, "instances": instances, "mode": mode, "by_app": result.by_app(),
                                      "by_template": result.by_template(), "failed": result.failed}, indent=1))
    if prove and result.failed or any(not g.ok for g in result.generated):
        raise typer.Exit(1)


@apps_app.command("serve")
def apps_serve(
    name: str = typer.Argument(..., help="mail, food or crm"),
    port: int = typer.Option(8000),
    host: str = typer.Option("127.0.0.1"),
):
    """Serve a clone for a person to browse (world 'default', seed 0)."""
    from apps import load_app_module
    from apps.serve import main as serve_main

    try:
        load_app_module(name)
    except (KeyError, ModuleNotFoundError) as e:
        fail(str(e))
    console.print(f"serving {name} on http://{host}:{port}")
    serve_main([name, "--port", str(port), "--host", host])


def _register_feature_commands() -> None:
    import importlib

    from agent_harness.commands import COMMAND_MODULES

    for name in [*COMMAND_MODULES, "agent_harness.openenv_cmd"]:  # `uigym openenv` (environments/openenv_uigym)
        importlib.import_module(name).register(app)


_register_feature_commands()


def main() -> None:
    app()


if __name__ == "__main__":
    main()
