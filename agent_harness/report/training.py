"""The learning curve of a training run (`uigym train grpo` / `uigym train sft`), read from what training writes:

- `RUN/eval/metrics.jsonl`: one line per periodic eval (`train grpo --eval-every N`,
  agent_harness/train/evaluate.py's PeriodicEval): `eval/step`, `eval/success` (pass rate over graded
  episodes), `eval/reward`, `eval/episodes`, `eval/ungraded`, ... or `eval/failed` when that eval could not run;
- `RUN/eval/step-N/results.jsonl`: that eval's episodes; where present, its pass rate's interval is clustered
  by template (instances of a template pass or fail together), Wilson's over the line's counts otherwise;
- the trainer's log per step (`log_history` of the newest `RUN/checkpoint-*/trainer_state.json`, or
  `RUN/trainer_state.json`), written at each save: the rollouts' pass rate and reward for GRPO
  (`uigym/success`, `uigym/reward`, TRL's weighted `reward`), the loss for SFT (and `eval_loss`).

`read_training_run` reads them (a malformed line or file raises `MetricsError` naming it);
`learning_curve_figure` draws the evals' pass rate against the step with its 95% interval bars, their mean
reward and the training series; `write_training_report` writes `learning_curve.png` and an index.html.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

from agent_harness.report.stats import counted_rows, design_effect, wilson
from agent_harness.results import RESULTS, graded, latest_results, read_results

EVAL_METRICS = Path("eval") / "metrics.jsonl"
CURVE_FILE = "learning_curve.png"
# trainer log keys drawn on the curve's axes (0..1 scale), and on a loss panel of their own
RATE_SERIES = (("uigym/success", "training rollouts' pass rate"), ("uigym/reward", "training rollouts' reward"),
               ("reward", "GRPO reward (weighted sum)"))
LOSS_SERIES = (("loss", "training loss"), ("eval_loss", "test-split loss"))
NO_METRICS = ("no metrics: this run logged no periodic eval (RUN/eval/metrics.jsonl: train with --eval-every N) "
              "and no trainer log (RUN/checkpoint-*/trainer_state.json: written at each save, --save-steps N)")


class MetricsError(ValueError):
    """A training run's metrics file that cannot be read: the message names the file and line."""


@dataclass
class EvalPoint:
    step: int
    line: int                       # its line in eval/metrics.jsonl
    pass_rate: float | None = None  # eval/success, as logged
    reward: float | None = None     # eval/reward, as logged
    episodes: int = 0
    ungraded: int = 0
    interval: tuple[float, float] | None = None
    interval_kind: str = ""         # "clustered by template" or "Wilson"
    failed: bool = False
    results: Path | None = None     # eval/step-N, when its results.jsonl is there

    @property
    def graded(self) -> int:
        return self.episodes - self.ungraded


@dataclass
class Series:
    key: str
    label: str
    steps: list[float] = field(default_factory=list)
    values: list[float] = field(default_factory=list)


@dataclass
class TrainingRun:
    path: Path
    config: dict = field(default_factory=dict)  # uigym_train.json, when there
    evals: list[EvalPoint] = field(default_factory=list)
    series: list[Series] = field(default_factory=list)
    log_file: Path | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.evals and not self.series


def is_training_run(path: Path) -> bool:
    """Whether `path` is a `uigym train` output folder (its config, its periodic evals or a checkpoint's log)."""
    path = Path(path)
    return ((path / "uigym_train.json").exists() or (path / EVAL_METRICS).exists()
            or (path / "trainer_state.json").exists() or any(path.glob("checkpoint-*/trainer_state.json")))


def training_run_of(eval_dir: Path) -> tuple[Path, int] | None:
    """(the training run, the step) when `eval_dir` is one of its periodic evals (RUN/eval/step-N), else None."""
    eval_dir = Path(eval_dir).resolve()
    name, parent = eval_dir.name, eval_dir.parent
    if not name.startswith("step-") or not name[5:].isdigit() or parent.name != "eval":
        return None
    return (parent.parent, int(name[5:])) if is_training_run(parent.parent) else None


def _number(value, where: str, name: str, lo: float | None = None, hi: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise MetricsError(f"{where}: {name} is {json.dumps(value)[:60]}, not a finite number")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise MetricsError(f"{where}: {name} is {value}, outside [{lo}, {hi if hi is not None else 'inf'}]")
    return float(value)


def _whole(value, where: str, name: str) -> int:
    v = _number(value, where, name, lo=0)
    if v != int(v):
        raise MetricsError(f"{where}: {name} is {value}, not a whole number")
    return int(v)


def read_eval_metrics(path: Path) -> list[EvalPoint]:
    """The periodic evals of eval/metrics.jsonl, by step (a step logged twice, as by a resumed run: its last
    line). Blank lines are skipped; anything else that is not a metrics line raises MetricsError."""
    points: dict[int, EvalPoint] = {}
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise MetricsError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    for i, line in enumerate(text.splitlines(), 1):
        where = f"{path}, line {i}"
        if not line.strip():
            continue
        try:
            m = json.loads(line)
        except json.JSONDecodeError as e:
            raise MetricsError(f"{where}: not JSON ({e.msg}, column {e.colno}): {line[:80]!r}") from None
        if not isinstance(m, dict):
            raise MetricsError(f"{where}: not a JSON object of metrics: {line[:80]!r}")
        if "eval/step" not in m:
            raise MetricsError(f"{where}: no eval/step (the training step the eval ran at)")
        p = EvalPoint(step=_whole(m["eval/step"], where, "eval/step"), line=i)
        p.failed = bool(m.get("eval/failed"))
        if "eval/episodes" in m:
            p.episodes = _whole(m["eval/episodes"], where, "eval/episodes")
        if "eval/ungraded" in m:
            p.ungraded = _whole(m["eval/ungraded"], where, "eval/ungraded")
            if p.ungraded > p.episodes:
                raise MetricsError(f"{where}: eval/ungraded ({p.ungraded}) is more than eval/episodes ({p.episodes})")
        if "eval/success" in m:
            p.pass_rate = _number(m["eval/success"], where, "eval/success", 0.0, 1.0)
        if "eval/reward" in m:
            p.reward = _number(m["eval/reward"], where, "eval/reward")
        points[p.step] = p
    return [points[s] for s in sorted(points)]


def _interval(p: EvalPoint, run: Path) -> None:
    """The point's 95% interval: Wilson's at the effective sample size, the design effect (clustering by
    template, `stats.design_effect`) taken from that eval's results when they are there, 1 otherwise."""
    if p.pass_rate is None or p.graded <= 0:
        return
    deff = None
    folder = run / "eval" / f"step-{p.step}"
    if (folder / RESULTS).exists():
        p.results = folder
        deff = design_effect(graded(counted_rows(latest_results(read_results(folder)))))
    n = p.graded / (deff or 1.0)
    p.interval = wilson(p.pass_rate * n, n)
    p.interval_kind = "Wilson" if deff is None else "clustered by template"


def _trainer_state(run: Path) -> Path | None:
    """The trainer log with the most steps: RUN/trainer_state.json or the newest checkpoint's."""
    best, best_step = None, -1
    for f in [run / "trainer_state.json", *run.glob("checkpoint-*/trainer_state.json")]:
        if not f.exists():
            continue
        try:
            step = json.loads(f.read_text()).get("global_step", 0)
        except (json.JSONDecodeError, UnicodeDecodeError, AttributeError) as e:
            raise MetricsError(f"{f}: not a trainer state (JSON object): {e}") from None
        step = step if isinstance(step, (int, float)) and not isinstance(step, bool) else 0
        if step > best_step:
            best, best_step = f, step
    return best


def read_trainer_log(path: Path) -> list[Series]:
    """The training series (RATE_SERIES, LOSS_SERIES) in a trainer_state.json's log_history: the entries that
    carry the key and a step. A log entry that is not an object, or a value that is not a number, raises."""
    try:
        state = json.loads(Path(path).read_text())
        history = state.get("log_history", [])
    except (json.JSONDecodeError, UnicodeDecodeError, AttributeError) as e:
        raise MetricsError(f"{path}: not a trainer state (JSON object): {e}") from None
    if not isinstance(history, list):
        raise MetricsError(f"{path}: log_history is not a list")
    out = {key: Series(key, label) for key, label in RATE_SERIES + LOSS_SERIES}
    for i, h in enumerate(history):
        where = f"{path}, log_history[{i}]"
        if not isinstance(h, dict):
            raise MetricsError(f"{where}: not an object")
        if "step" not in h:
            continue
        step = _number(h["step"], where, "step", lo=0)
        for key, s in out.items():
            if key in h and h[key] is not None:
                s.steps.append(step)
                s.values.append(_number(h[key], where, key))
    return [s for s in out.values() if s.steps]


def read_training_run(path: Path) -> TrainingRun:
    """Everything the learning curve draws (see the module doc); notes say what is missing."""
    path = Path(path)
    run = TrainingRun(path=path)
    cfg = path / "uigym_train.json"
    if cfg.exists():
        try:
            run.config = json.loads(cfg.read_text()).get("config", {})
        except (json.JSONDecodeError, AttributeError):
            run.notes.append(f"{cfg} is not JSON: the run's settings are not shown")
    if (path / EVAL_METRICS).exists():
        run.evals = read_eval_metrics(path / EVAL_METRICS)
        for p in run.evals:
            _interval(p, path)
        failed = [p.step for p in run.evals if p.failed or p.pass_rate is None]
        if failed:
            run.notes.append(f"no pass rate at step(s) {', '.join(map(str, failed))}: the eval failed or graded "
                             "no episode (see the training log)")
    run.log_file = _trainer_state(path)
    if run.log_file is not None:
        run.series = read_trainer_log(run.log_file)
    if run.empty:
        run.notes.insert(0, NO_METRICS)
    elif not run.evals:
        run.notes.insert(0, "no periodic eval (RUN/eval/metrics.jsonl): train with --eval-every N to draw the "
                            "held-out pass rate; the training log's series only")
    return run


def learning_curve_figure(run: TrainingRun):
    """The curve as a matplotlib Figure: the evals' pass rate by step with 95% interval bars and their mean
    reward, the training rollouts' series on the same axes, the losses on a second panel. None when empty."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    if run.empty:
        return None
    rates = [s for s in run.series if s.key in dict(RATE_SERIES)]
    losses = [s for s in run.series if s.key in dict(LOSS_SERIES)]
    curve = bool(rates or run.evals)  # the pass rate panel; an SFT run without evals has the loss only
    panels = curve + bool(losses)
    fig = Figure(figsize=(9.5, 3.6 * panels), dpi=100, layout="constrained")
    if curve:
        ax = fig.add_subplot(panels, 1, 1)
        top = 1.0
        for s in rates:
            ax.plot(s.steps, s.values, lw=1.5, alpha=0.7, label=s.label)
            top = max(top, max(s.values))
        shown = [p for p in run.evals if p.pass_rate is not None]
        if shown:
            lo = [p.pass_rate - (p.interval or (p.pass_rate, p.pass_rate))[0] for p in shown]
            hi = [(p.interval or (p.pass_rate, p.pass_rate))[1] - p.pass_rate for p in shown]
            ax.errorbar([p.step for p in shown], [p.pass_rate for p in shown], yerr=[lo, hi], marker="o",
                        capsize=4, lw=2, color="#1a73e8", label="eval pass rate (95% interval)")
        with_reward = [p for p in run.evals if p.reward is not None and not p.failed]
        if with_reward:
            ax.plot([p.step for p in with_reward], [p.reward for p in with_reward], ls="--", marker="s", ms=4,
                    color="#e8711a", zorder=3, label="eval mean reward")
            top = max(top, max(p.reward for p in with_reward))
        ax.set_ylim(-0.03 * top, top * 1.03)  # a series at 0 or 1 stays clear of the frame
        ax.set_xlabel("training step")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel("pass rate / reward")
        ax.set_title("Learning curve: periodic evals" + (" and training rollouts" if rates else ""))
        ax.grid(alpha=0.3)
        if ax.get_legend_handles_labels()[0]:  # beside the axes: never over a point
            ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    if losses:
        ax2 = fig.add_subplot(panels, 1, panels)
        for s in losses:
            ax2.plot(s.steps, s.values, marker="." if len(s.steps) < 30 else None, label=s.label)
        ax2.set_xlabel("training step")
        ax2.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax2.set_ylabel("loss")
        ax2.set_title("Training loss")
        ax2.grid(alpha=0.3)
        ax2.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def write_training_report(run_dir: Path, out: Path, *, title: str | None = None) -> Path:
    """OUT/index.html (the evals' table, the notes) and OUT/learning_curve.png; returns the index path."""
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    from agent_harness.report.plots import have_matplotlib
    from agent_harness.report.stats import fmt_interval

    run = read_training_run(Path(run_dir))
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    plot = None
    if not run.empty:
        if have_matplotlib():
            learning_curve_figure(run).savefig(out / CURVE_FILE)
            plot = CURVE_FILE
        else:
            run.notes.append("no plot: matplotlib is not installed (pip install 'uigym[report]')")
    templates = Path(__file__).parent / "templates"
    env = Environment(loader=FileSystemLoader(str(templates)), autoescape=select_autoescape(["html", "jinja"]),
                      trim_blocks=True, lstrip_blocks=True)
    env.filters["pct"] = lambda v: f"{v:.0%}" if v is not None else "-"
    env.filters["num"] = lambda v, d=2: f"{v:,.{d}f}" if isinstance(v, (int, float)) else "-"
    env.filters["interval"] = fmt_interval
    links = {}
    for p in run.evals:
        report = run.path / "eval" / f"step-{p.step}" / "report" / "index.html"
        if report.exists():
            links[p.step] = os.path.relpath(report.resolve(), out.resolve())
    last = {s.label: (s.steps[-1], s.values[-1], len(s.steps)) for s in run.series}
    page = env.get_template("training.html.jinja").render(
        css=(templates / "report.css").read_text(), run=run, plot=plot, links=links, last=last,
        title=title or f"uigym training report: {run.path.name}")
    index = out / "index.html"
    index.write_text(page)
    return index
