"""The whole loop on CPU, in real browsers, on real uigym tasks (the toy app's, served as "mail"):
oracle demonstrations -> `export sft --format gym --tool-screenshots` -> SFT warm start of a tiny random
Qwen2.5-VL, in rounds of 25 steps until its greedy replies are well-formed tool calls -> two GRPO steps
(groups of 4 rollouts, transformers generation) whose rollouts act through the env's tools and get
screenshots back as tool results. The tool-call shaping reward (weight 0.5) gives the groups an advantage
even when every rollout fails the task.

Checked: the warm-started model calls tools; the GRPO rollouts call tools (tool-call rate > 0); the
rewards and the episode metrics are logged; the parameters of the text model and of the vision tower
change; the vision tower ran with gradients (a forward hook sees it under autograd).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import torch

from tests.harness.toy_tasks import APP_MODULES, toy_tasks, write_tasks_dir

MAX_PIXELS = 6272  # 1280x720 -> 84x56 screenshots: 6 image tokens each


def _generate_calls(model, processor, rows, root: Path) -> list:
    """Greedy replies of the model to the first prompts of the dataset, parsed by the gym format."""
    from agent_harness.export.chat import _image, _messages, row_tools
    from agent_harness.formats import FormatContext, get_format

    fmt = get_format("gym")
    out = []
    for row in rows:
        text = processor.apply_chat_template(_messages(row["prompt"]), tools=row_tools(row), add_generation_prompt=True,
                                             tokenize=False)
        images = [_image(v, root) for v in row["images"]]
        enc = processor(text=[text], images=images, return_tensors="pt")
        with torch.no_grad():
            gen = model.generate(**enc, max_new_tokens=40, do_sample=False)
        reply = processor.tokenizer.decode(gen[0, enc["input_ids"].shape[1]:], skip_special_tokens=False)
        ctx = FormatContext(screen=(row["screen_width"], row["screen_height"]),
                            image=(row["image_width"], row["image_height"]))
        try:
            out.append(fmt.parse(reply.split("<|im_end|>")[0], ctx).actions)
        except Exception as e:
            out.append(f"{type(e).__name__}: {e}: {reply!r}")
    return out


@pytest.mark.timeout(2400)  # about 3 minutes on a quiet 2-core machine; far longer on a crowded one
def test_sft_warm_start_then_grpo_on_uigym_tasks(tmp_path, tiny_model, torch_threads, train_envs):
    import datasets

    from agent_harness.export import ExportConfig, export_sft
    from agent_harness.runner import EvalConfig, run_eval
    from agent_harness.train.config import CurriculumConfig, GRPORunConfig, SFTRunConfig
    from agent_harness.train.env import EnvSettings, _loop, _runtime
    from agent_harness.train.grpo import build_grpo, load_model, load_processor
    from agent_harness.train.sft import run_sft

    datasets.disable_progress_bars()
    times: dict[str, float] = {}
    t0 = cpu0 = None

    def lap(name: str) -> None:
        nonlocal t0, cpu0
        now, cpu = time.perf_counter(), time.process_time()
        if t0 is not None:
            times[name] = round(now - t0, 1)
            times[name + "_cpu"] = round(cpu - cpu0, 1)
        t0, cpu0 = now, cpu

    lap("start")
    # 1. Demonstrations: the oracle plays the toy tasks (jittered) in the training envs' Chromium.
    rt = _runtime(EnvSettings(app_modules=APP_MODULES))
    rows = _loop().run(run_eval(EvalConfig(agent="oracle", tasks=toy_tasks(), out=tmp_path / "oracle", workers=3,
                                           samples=2, agent_kwargs={"jitter": 0.3}), runtime=rt))
    # A jittered demonstration can miss (seen once: a star click graded 0 with no error; see the closing
    # note); the oracle itself is proven in tests/eval. Missed ones are left out of the dataset.
    assert sum(r["passed"] for r in rows) >= len(rows) - 1, rows
    lap("oracle")

    # 2. The SFT dataset in the rollouts' own layout: gym tools, screenshots as tool results.
    stats = export_sft(ExportConfig(runs=[tmp_path / "oracle"], out=tmp_path / "sft", format="gym", history=20,
                                    tool_screenshots=True, max_pixels=MAX_PIXELS, split="hash", test_fraction=0.0,
                                    only_passed=True))
    assert stats.samples["train"] >= 8
    train = datasets.load_from_disk(str(tmp_path / "sft"))["train"]
    later = next(r for r in train if r["step"] > 1)
    assert any(m["role"] == "tool" and any(p["type"] == "image" for p in m["content"]) for m in later["prompt"])
    lap("export")

    # 3. Warm start until the model writes tool calls the gym format reads.
    processor = load_processor(str(tiny_model))
    model = load_model(str(tiny_model))
    probe = [train[i] for i in range(0, len(train), max(1, len(train) // 4))][:4]
    for round_ in range(8):  # rounds of SFT until greedy replies are tool calls the gym format reads
        run_sft(SFTRunConfig(dataset=tmp_path / "sft", model=str(tiny_model), out=tmp_path / "sft-run", max_steps=25,
                             learning_rate=3e-3, per_device_batch_size=4, logging_steps=25, eval_split=None,
                             extra={"lr_scheduler_type": "constant"}), model=model, processor=processor)
        calls = _generate_calls(model, processor, probe, tmp_path / "sft")
        if sum(isinstance(c, list) and len(c) >= 1 for c in calls) >= 3:
            break
    assert sum(isinstance(c, list) and len(c) >= 1 for c in calls) >= 3, calls
    times["sft_rounds"] = round_ + 1
    lap("sft")

    # 4. GRPO: rollouts through the env, reward from the verifier, HF generation.
    text_before = {n: p.detach().clone() for n, p in model.model.language_model.named_parameters()}
    vision_before = {n: p.detach().clone() for n, p in model.model.visual.named_parameters()}
    seen = {"vision_grad": False, "vision_calls": 0}

    def hook(_module, _inputs, output):
        seen["vision_calls"] += 1
        out = output[0] if isinstance(output, (tuple, list)) else getattr(output, "last_hidden_state", output)
        if torch.is_grad_enabled() and getattr(out, "requires_grad", False):
            seen["vision_grad"] = True

    handle = model.model.visual.register_forward_hook(hook)
    tasks_dir = write_tasks_dir(tmp_path / "tasks")
    cfg = GRPORunConfig(model=str(tiny_model), out=tmp_path / "grpo", tasks="mail/toy-*", split=None,
                        tasks_dir=tasks_dir, max_pixels=MAX_PIXELS, max_turns=3, reply_tokens=40,
                        result_text_tokens=48, max_steps=2, num_generations=4, per_device_batch_size=4,
                        learning_rate=1e-3, temperature=1.0, format_reward=0.5, app_modules=APP_MODULES,
                        curriculum=CurriculumConfig(start={"easy": 0.0, "medium": 0.0, "hard": 0.5}))
    trainer, budget = build_grpo(cfg, model=model, processor=processor)
    assert budget.image_tokens == 6 and budget.completion_tokens == trainer.args.max_completion_length
    trainer.train()
    handle.remove()
    lap("grpo")

    logs = [h for h in trainer.state.log_history if "reward" in h]
    assert len(logs) == 2, trainer.state.log_history
    for h in logs:
        for key in ("reward", "rewards/UIGymToolEnv/mean", "rewards/success/mean", "uigym/tool_call_rate",
                    "uigym/episode_steps", "tools/call_frequency"):
            assert key in h, (key, h)
    assert max(h["tools/call_frequency"] for h in logs) > 0, logs
    assert max(h["uigym/tool_call_rate"] for h in logs) > 0, logs
    assert any(k.startswith("curriculum/") for k in logs[0])
    text_changed = sum(not torch.equal(p.detach(), text_before[n]) for n, p in model.model.language_model.named_parameters())
    vision_changed = sum(not torch.equal(p.detach(), vision_before[n]) for n, p in model.model.visual.named_parameters())
    assert text_changed > 0 and vision_changed > 0, (text_changed, vision_changed, logs)
    assert seen["vision_grad"], seen
    saved = json.loads((tmp_path / "grpo" / "uigym_train.json").read_text())
    assert saved["budget"]["completion_tokens"] == budget.completion_tokens
    print("timings (s):", times, "| last GRPO log:", {k: v for k, v in logs[-1].items() if k.startswith(("reward", "uigym/s", "tools"))})
