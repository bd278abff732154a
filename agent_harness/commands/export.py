"""`uigym export sft`: trajectories (human, oracle or model) -> an SFT dataset in a model's action format."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

export_app = typer.Typer(help="Export trajectories as training data.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(export_app, name="export")


@export_app.command("sft")
def export_sft_cmd(
    runs: list[Path] = typer.Option(..., "--runs", help="run folders (results.jsonl + episodes/) from `uigym record`, "
                                                        "`uigym eval` (oracle or a model): --runs A B C or "
                                                        "--runs A --runs B"),
    more_runs: Optional[list[Path]] = typer.Argument(None, hidden=True),
    out: Path = typer.Option(..., "--out", help="dataset folder: datasets.load_from_disk(OUT), train/test.jsonl + "
                                                "images/, README.md (dataset card)"),
    action_format: str = typer.Option("qwen", "--format", help="how targets are written: qwen, openai, uitars "
                                                               "(or json, anthropic, pyautogui), as `uigym eval "
                                                               "--format` parses them"),
    history: int = typer.Option(3, "--history", min=1, help="screenshots per sample: the current one and the "
                                                            "K-1 before it (as eval's --history-images)"),
    history_turns: Optional[int] = typer.Option(None, min=1, help="keep only the last N steps in the prompt"),
    only_passed: bool = typer.Option(False, "--only-passed", help="only episodes that passed (reward 1)"),
    source: Optional[list[str]] = typer.Option(None, help="only these sources: human, oracle, model; repeatable"),
    look: Optional[list[str]] = typer.Option(None, help="only episodes shown in these looks (`uigym looks`); "
                                                        "repeatable. Every row has its episode's `look`"),
    train_variants: bool = typer.Option(False, "--train-variants", help="leave out episodes shown in a held-out "
                                        "variant value (`uigym variants`: e.g. zoom 150%, de-DE), which `uigym train "
                                        "sft` refuses; every row has its episode's `variant`"),
    coords: str = typer.Option("abs", help="abs (pixels of the image the model sees) or rel1000"),
    max_pixels: Optional[int] = typer.Option(None, help="the model sees Qwen-resized screenshots of at most this "
                                                        "many pixels (as eval's --max-pixels); images are stored so"),
    image_size: Optional[str] = typer.Option(None, help="or screenshots resized to WxH (as eval's --image-size)"),
    tool_screenshots: bool = typer.Option(False, "--tool-screenshots", help="tool-call formats: each screenshot after "
                                          "a tool call is that call's result, as in `uigym train grpo` rollouts (use "
                                          "with --format gym and a --history as long as the episodes)"),
    split: str = typer.Option("auto", help="auto (the tasks' split field where an app marks test tasks, else a "
                                           "hash of the task id), field, or hash"),
    test_fraction: float = typer.Option(0.1, min=0.0, max=1.0, help="share of tasks in test when splitting by hash"),
    group_by: str = typer.Option("task", help="hash split by task or by template (variants stay together)"),
    keep_failed_actions: bool = typer.Option(False, help="also steps whose action the env refused"),
    restate_goal: bool = typer.Option(False, "--restate-goal", help="tool-mode episodes: the task after each call's "
                                      "result, as `uigym eval --agent-arg restate_goal=true` and GRPO's "
                                      "--restate-goal show it"),
    closing_turn: bool = typer.Option(False, "--closing-turn", help="tool-mode episodes that `done` finished: one "
                                      "more sample, the done result ('The task is finished.') and an empty reply, "
                                      "what GRPO's tool loop asks of the model after its last call"),
    no_dedupe: bool = typer.Option(False, help="keep identical (task, screenshot, action) samples"),
    overwrite: bool = typer.Option(False, help="replace an earlier export in OUT"),
):
    """One SFT sample per step: the eval prompt (goal, URL, earlier actions, last K screenshots) and the step's action
    written in the chosen format. Split by task into train/test, deduplicated, with a dataset card."""
    from rich.console import Console

    from agent_harness.cli import fail

    console = Console()
    try:
        import datasets  # noqa: F401
    except ImportError:
        fail("`uigym export sft` needs the datasets library: pip install -e '.[data]'")
    from agent_harness.export import ExportConfig, export_sft

    size = None
    if image_size:
        try:
            w, h = image_size.lower().split("x")
            size = (int(w), int(h))
        except ValueError:
            fail(f"--image-size takes WxH, got {image_size!r}")
    try:
        cfg = ExportConfig(runs=list(runs) + list(more_runs or []), out=out, format=action_format, history=history,
                           history_turns=history_turns, only_passed=only_passed, sources=source or None,
                           looks=look or None, train_variants=train_variants,
                           coords=coords, max_pixels=max_pixels, tool_screenshots=tool_screenshots,
                           image_size=size, split=split, test_fraction=test_fraction, group_by=group_by,
                           keep_failed_actions=keep_failed_actions, restate_goal=restate_goal,
                           closing_turn=closing_turn, dedupe=not no_dedupe, overwrite=overwrite)
    except ValueError as e:
        fail(str(e))
    import datasets as hf

    hf.disable_progress_bars()
    try:
        stats = export_sft(cfg)
    except (FileNotFoundError, FileExistsError) as e:
        fail(str(e))
    console.print(f"[bold]uigym export sft[/bold] ({cfg.format}): {stats.samples.get('train', 0)} train and "
                  f"{stats.samples.get('test', 0)} test samples from {stats.episodes} episodes; "
                  f"{stats.duplicates} duplicates dropped; {stats.images} images")
    for what, counts in (("episodes skipped", stats.skipped_episodes), ("steps skipped", stats.skipped_steps)):
        if counts:
            console.print(f"{what}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    console.print(f"dataset: {out} (datasets.load_from_disk), card: {out / 'README.md'}")
