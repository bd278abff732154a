"""Finished learning runs measured again: their shared SFT model and each run's final GRPO model evaluated on
the same held-out worlds with more samples a task, and each run's verdict against SFT on those evaluations.

    python -m experiments.learning_reeval runs/learning-n runs/learning-n2 --samples 6 --out runs/reeval

Why: the recipe's evaluation (2 samples a task, 2 repeats: 40 episodes a template a repeat) measures a
template's pass rate to about +-0.08, so a GRPO gain of 0.08-0.12 lands above or below the repeats' spread
by chance. More samples on the same worlds (each request's seed derived from the repeat, task, sample and
call, so every episode is its own draw) narrow both the gain's noise and the spread it is held to. The
evaluation, the spread and the verdict are experiments.learning's own (`evaluate`, `verdict`); only the sample
count differs. Every finished evaluation is kept in OUT/evals/NAME.json and not run again, so a session cut
short resumes where it stopped.
"""

from __future__ import annotations

import argparse
import json
import logging
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Callable

from experiments.learning import LearnConfig, curve_point, evaluate, finished_report, verdict

# The settings an evaluation depends on: the reevaluation takes them from the runs (which must agree).
EVAL_FIELDS = ("app", "templates", "heldout_seeds", "app_module", "max_turns", "reply_tokens", "restate_goal",
               "eval_repeats", "eval_temperature")


def run_models(run: Path) -> dict:
    """A finished run's config, SFT model and final GRPO model (from its report)."""
    rep = finished_report(run)
    evals = rep.get("evals", {})
    if "sft" not in evals or "grpo" not in evals:
        raise SystemExit(f"{run}: its report has no SFT or GRPO evaluation")
    return {"run": str(run), "config": rep["config"], "sft": evals["sft"]["model"], "grpo": evals["grpo"]["model"]}


def plan(runs: list[Path]) -> tuple[dict, list[dict]]:
    """The evaluation settings all runs share and each run's models. Runs must start from one SFT model and
    be evaluated alike, or their verdicts would not share a baseline."""
    models = [run_models(r) for r in runs]
    if not models:
        raise SystemExit("give at least one run")
    sft = {m["sft"] for m in models}
    if len(sft) > 1:
        raise SystemExit(f"the runs start from different SFT models ({', '.join(sorted(sft))}); reevaluate them apart")
    first = models[0]["config"]
    for m in models[1:]:
        differ = [k for k in EVAL_FIELDS if m["config"].get(k) != first.get(k)]
        if differ:
            raise SystemExit(f"{m['run']} was evaluated with other {', '.join(differ)} than {models[0]['run']}")
    return {k: first[k] for k in EVAL_FIELDS}, models


def reeval(runs: list[Path], out: Path, samples: int, workers: int = 2,
           evaluate_fn: Callable[[str, LearnConfig, str], dict] = evaluate) -> dict:
    """Evaluate the runs' SFT model and final GRPO models with `samples` a task; return (and write to
    OUT/report.json and OUT/report.md) each evaluation's summary and each run's verdict against SFT."""
    if samples < 1:
        raise SystemExit("--samples must be at least 1")
    settings, models = plan(runs)
    settings["templates"] = tuple(settings["templates"])
    cfg = replace(LearnConfig(out=Path(out)), **settings, eval_samples=samples, eval_workers=workers)
    held = cfg.out / "tasks-heldout"
    if not held.exists():
        shutil.copytree(Path(models[0]["run"]) / "tasks-heldout", held)
    kept = cfg.out / "evals"
    kept.mkdir(parents=True, exist_ok=True)

    def measured(model: str, name: str) -> dict:
        path = kept / f"{name}.json"
        if path.is_file():
            return json.loads(path.read_text())
        ev = evaluate_fn(model, cfg, name)
        path.write_text(json.dumps(ev, indent=1, default=str))
        return ev

    sft = measured(models[0]["sft"], "sft")
    report = {"samples": samples, "settings": settings,
              "sft": {"model": models[0]["sft"], **curve_point("sft", sft, "sft", 0)}, "runs": []}
    for m in models:
        name = Path(m["run"]).name
        ev = measured(m["grpo"], name)
        point = curve_point(name, ev, "grpo", m["config"]["grpo_steps"])
        report["runs"].append({"run": m["run"], "model": m["grpo"], **point, "verdict": verdict(cfg, sft, ev)})
    (cfg.out / "report.json").write_text(json.dumps(report, indent=1, default=str))
    (cfg.out / "report.md").write_text(markdown(report, cfg.templates))
    return report


def markdown(report: dict, templates: tuple[str, ...]) -> str:
    names = [t.split("/")[1] for t in templates]
    eps = report["sft"]["episodes"]
    lines = [f"# Learning runs reevaluated: {report['samples']} samples a task ({eps} episodes a model)", "",
             "| model | pass rate (repeats) | " + " | ".join(f"{n} (repeats)" for n in names) + " | beats spread |",
             "|---|---|" + "---|" * len(names) + "---|"]

    def row(label: str, s: dict, v: dict | None) -> str:
        cells = []
        for t in templates:
            reps = ", ".join(f"{x:.3f}" for x in s["by_template_repeats"].get(t, []))
            mark = ""
            if v and t in v:
                mark = f"; {v[t]['gain']:+.3f} vs {v[t]['spread']:.3f}" + (" **beats**" if v[t]["beats_spread"] else "")
            cells.append(f"{s['by_template'].get(t, float('nan')):.3f} ({reps}){mark}")
        reps = ", ".join(f"{x:.3f}" for x in s["repeat_success"])
        beats = f"{v['templates_beating_spread']} of {len(templates)}" if v else "-"
        return f"| {label} | {s['success_mean']:.3f} ({reps}) | " + " | ".join(cells) + f" | {beats} |"

    lines.append(row("SFT", report["sft"], None))
    for r in report["runs"]:
        lines.append(row(Path(r["run"]).name, r, r["verdict"]))
    lines += ["", "Gains are GRPO minus SFT; a template's spread is the larger of the two models' repeat ranges."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+", type=Path, help="finished experiments.learning runs that share one SFT model")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--samples", type=int, default=6, help="samples a held-out task a repeat (the recipe's: 2)")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    report = reeval(args.runs, args.out, args.samples, args.workers)
    print((args.out / "report.md").read_text())
    print(json.dumps({Path(r["run"]).name: r["verdict"]["templates_beating_spread"] for r in report["runs"]}))


if __name__ == "__main__":
    main()
