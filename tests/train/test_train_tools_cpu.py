"""GRPO in tool mode on CPU: two steps of a tiny random Qwen2.5-VL whose rollouts act through the toy app's
tools (served as "mail"; no browser, no screenshots), rewarded by the tasks' verifiers. The random model
rarely forms a call, so its groups mostly have no advantage: this proves the pipeline (budget, rollouts
through the tool methods, rewards, metrics), while test_train_cpu.py proves learning after a warm start."""

from __future__ import annotations

import json

import pytest

from tests.harness.toy_tasks import APP_MODULES, write_tasks_dir


@pytest.mark.timeout(1200)
def test_two_grpo_steps_through_the_apps_tools(tmp_path, tiny_model, torch_threads, train_envs):
    from agent_harness.train.config import GRPORunConfig
    from agent_harness.train.grpo import build_grpo, load_model, load_processor

    processor = load_processor(str(tiny_model))
    model = load_model(str(tiny_model))
    cfg = GRPORunConfig(model=str(tiny_model), out=tmp_path / "grpo", tasks="mail/toy-*", split=None,
                        tasks_dir=write_tasks_dir(tmp_path / "tasks"), mode="tools", max_turns=3, reply_tokens=32,
                        result_text_tokens=64, max_steps=2, num_generations=4, per_device_batch_size=4,
                        learning_rate=1e-3, app_modules=APP_MODULES)
    trainer, budget = build_grpo(cfg, model=model, processor=processor)
    # the prompts show the app's OpenAI tool list, the one `uigym eval --mode tools` and `export sft` show,
    # not transformers' rendering of the environment's methods (written differently: the policy would
    # train on prompts it is never evaluated on). TRL renders each rollout's prompt with its environment's
    # entry of `_env_tools` (test_sft_rollout_format.py checks the rendered prompts themselves)
    from agent_harness.train.grpo import select_tasks, tool_episode

    listed = tool_episode(select_tasks(cfg.resolved(), cfg.tasks, None), APP_MODULES)[2]
    assert trainer.tools == listed and all(isinstance(t, dict) for t in trainer.tools)
    assert trainer._env_tools == {None: listed}
    assert budget.image_tokens == 0 and budget.completion_tokens == trainer.args.max_completion_length
    trainer.train()
    logs = [h for h in trainer.state.log_history if "reward" in h]
    assert len(logs) == 2, trainer.state.log_history
    for h in logs:
        for key in ("reward", "rewards/success/mean", "uigym/tool_call_rate", "uigym/episode_steps"):
            assert key in h, (key, h)
    saved = json.loads((tmp_path / "grpo" / "uigym_train.json").read_text())
    assert saved["config"]["mode"] == "tools" and saved["budget"]["image_tokens"] == 0
