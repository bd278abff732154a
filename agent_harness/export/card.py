"""The dataset card (README.md) of an SFT export: what is in it, counted, and how to use it."""

from __future__ import annotations

import json
from collections import Counter

from agent_harness.export.config import ExportConfig, ExportStats
from agent_harness.report.stats import DIFFICULTY_ORDER


def _table(title: str, key: str, rows: dict[str, list[dict]], order=None) -> str:
    values = sorted({r[key] or "-" for rs in rows.values() for r in rs}, key=order or (lambda v: v))
    if not values:
        return ""
    lines = [f"### {title}", "", f"| {key} | train samples | test samples | train tasks | test tasks | episodes |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for v in values:
        sel = {s: [r for r in rs if (r[key] or "-") == v] for s, rs in rows.items()}
        eps = {(r["run"], r["episode"]) for rs in sel.values() for r in rs}
        lines.append(f"| {v} | {len(sel['train'])} | {len(sel['test'])} | {len({r['task_id'] for r in sel['train']})} "
                     f"| {len({r['task_id'] for r in sel['test']})} | {len(eps)} |")
    return "\n".join(lines) + "\n"


def card_text(cfg: "ExportConfig", stats: "ExportStats", rows: dict[str, list[dict]]) -> str:
    all_rows = [r for rs in rows.values() for r in rs]
    apps = sorted({r["app"] for r in all_rows})
    sources = sorted({r["source"] for r in all_rows})
    actions = Counter(a["type"] for r in all_rows for a in json.loads(r["actions"]))
    image = (f"resized to {all_rows[0]['image_width']}x{all_rows[0]['image_height']}" if all_rows and
             (all_rows[0]["image_width"], all_rows[0]["image_height"]) != (all_rows[0]["screen_width"],
                                                                         all_rows[0]["screen_height"])
             else "at screen size")
    tags = ["uigym", "computer-use", "gui-agent", "sft", "vision-language"] + [f"app-{a}" for a in apps]
    front = "\n".join(["---", f"pretty_name: uigym SFT ({cfg.format})", "task_categories:", "- image-text-to-text",
                       "tags:", *[f"- {t}" for t in tags], "configs:", "- config_name: default", "  data_files:",
                       "  - split: train", "    path: train.jsonl", "  - split: test", "    path: test.jsonl", "---"])
    skipped_steps = "".join(f"\n  - {k}: {v}" for k, v in sorted(stats.skipped_steps.items())) or " none"
    skipped_eps = "".join(f"\n  - {k}: {v}" for k, v in sorted(stats.skipped_episodes.items())) or " none"
    n_train, n_test = stats.samples.get("train", 0), stats.samples.get("test", 0)
    n_tasks = len({r["task_id"] for r in all_rows})
    coords = "0-1000 normalised" if cfg.coords == "rel1000" else "pixels of the image the model sees"
    yes = {True: "yes", False: "no"}
    grouped = f", grouped by {cfg.group_by}" if cfg.group_by != "task" else ""
    tools_note = ("The format calls tools: `tools` holds their JSON schema, to pass to the chat template "
                  "(`apply_chat_template(..., tools=json.loads(row['tools']))`), as the eval sends them."
                  if any(r["tools"] for r in all_rows) else "The format writes plain text (no tools).")
    return f"""{front}

# uigym SFT dataset — `{cfg.format}` actions

Supervised fine-tuning samples for computer-use agents, exported by `uigym export sft` from uigym
trajectories ({", ".join(sources) or "none"}). One sample per step: the prompt the uigym model agent sends at
that step (the action format's system prompt, the goal, the page URL, earlier actions, the last
{cfg.history} screenshot(s) as images) and, as the target, the step's action written in the `{cfg.format}`
format, exactly as `uigym eval --agent openai --format {cfg.format}` parses it.

- samples: **{n_train} train**, **{n_test} test**, from {stats.episodes} episodes over {n_tasks} tasks;
  {stats.duplicates} duplicate samples dropped (same task, screenshot and action); {stats.images} distinct images.
- split by task ({cfg.split}{grouped}): every sample of
  a task is on one side. Tasks marked `split: test` in their task file are test where an app marks any;
  otherwise a stable hash of the task id puts about {cfg.test_fraction:.0%} of tasks in test.
- screenshots {image}; coordinates in the target are {coords}.
- only passed episodes: {yes[cfg.only_passed]}; steps whose action failed kept: {yes[cfg.keep_failed_actions]}.
- tool mode: the task restated after each call's result: {yes[cfg.restate_goal]}; a closing turn (an empty
  reply after a finished episode's `done` result): {yes[cfg.closing_turn]}.
- skipped episodes:{skipped_eps}
- skipped steps:{skipped_steps}

## Counts

{_table("By app", "app", rows)}
{_table("By difficulty", "difficulty", rows, order=lambda v: DIFFICULTY_ORDER.get(v, 9))}
{_table("By source", "source", rows)}
### By action

| action | samples |
| --- | ---: |
{chr(10).join(f"| {k} | {v} |" for k, v in actions.most_common())}

## Use

```python
import datasets
ds = datasets.load_from_disk("{cfg.out}")            # DatasetDict: train, test
row = ds["train"][0]
row["prompt"], row["completion"], row["images"]      # TRL conversational prompt-completion + images

from agent_harness.export import chat_messages, sft_batch
messages = chat_messages(row)                        # prompt + completion, images in place
batch = sft_batch([row], processor)                  # input_ids, pixel_values, ..., labels on the target only
```

{tools_note} The same rows are in `train.jsonl` / `test.jsonl` with
`images` as paths into `images/`. `actions` is the list of uigym actions the target parses to (screen
pixels); `recorded_action` the action as recorded.

## Columns

| column | meaning |
| --- | --- |
| prompt | messages before the target: system, then user turns (text + image placeholders) and earlier assistant turns |
| completion | one assistant message: the target |
| images | the screenshots of the image placeholders, in order (the last one is the current screen) |
| target | the completion's text (tool calls as `<tool_call>{{...}}</tool_call>`) |
| actions / recorded_action | JSON: what the target parses to / what was recorded |
| task_id, app, difficulty, template, task_split | the task |
| split | train or test in this export |
| source, agent, annotator | human (`uigym record`), oracle or model; the agent label; the annotator |
| run, episode, sample, step | where the step comes from |
| episode_steps, episode_reward, episode_passed | the episode's outcome |
| goal, url, last_action_error | what the prompt says |
| format, coords, screen_*, image_*, tools | how the target is written |
| screenshot_sha, think_ms | the current screenshot's hash; a human's time before acting |
"""


def write_card(cfg: "ExportConfig", stats: "ExportStats", rows: dict[str, list[dict]]) -> None:
    (cfg.out / "README.md").write_text(card_text(cfg, stats, rows))
