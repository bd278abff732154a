"""The token budget is measured with the model's processor and a budget that cannot hold a full episode
fails before training, with the numbers in the message (TRL itself would drop tool results silently)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.harness.toy_tasks import APP_MODULES, toy_tasks, write_tasks_dir


def _cfg(tmp_path: Path, model: Path, **kw):
    from agent_harness.train.config import GRPORunConfig

    base = dict(model=str(model), out=tmp_path / "out", tasks="mail/toy-*", split=None,
                tasks_dir=write_tasks_dir(tmp_path / "tasks"), max_pixels=6272, max_turns=3, reply_tokens=40,
                result_text_tokens=48, app_modules=APP_MODULES)
    base.update(kw)
    return GRPORunConfig(**base).resolved()


def test_budget_counts_screenshots_replies_and_results(tmp_path, tiny_model):
    from agent_harness.train.grpo import env_settings, load_processor, token_budget

    processor = load_processor(str(tiny_model))
    cfg = _cfg(tmp_path, tiny_model)
    settings = env_settings(cfg, processor)
    b = token_budget(cfg, processor, settings, toy_tasks())
    assert settings.image_size == (84, 56) and b.image_tokens == 6
    assert b.turns == 3  # max_turns caps the tasks' max_steps (4..8)
    assert b.completion_tokens == 4 * 40 + 3 * (b.result_overhead + 48 + 6)
    # Bigger screenshots cost more tokens: 4x the pixels, about 4x the image tokens.
    big = token_budget(_cfg(tmp_path, tiny_model, max_pixels=4 * 6272), processor,
                       env_settings(_cfg(tmp_path, tiny_model, max_pixels=4 * 6272), processor), toy_tasks())
    assert big.image_tokens > 3 * b.image_tokens
    assert big.completion_tokens - b.completion_tokens == 3 * (big.image_tokens - b.image_tokens)


def test_a_restated_goal_is_budgeted_on_top_of_each_result(tmp_path, tiny_model):
    from agent_harness.agents.tool_model import tool_result_message
    from agent_harness.train.grpo import env_settings, load_processor, select_tasks, token_budget, tool_episode

    processor = load_processor(str(tiny_model))
    plain, restated = (_cfg(tmp_path, tiny_model, mode="tools", restate_goal=r) for r in (False, True))
    tasks = select_tasks(plain, plain.tasks, None)
    episode = tool_episode(tasks, APP_MODULES)[1:]
    a = token_budget(plain, processor, env_settings(plain, processor), tasks, episode=episode)
    settings = env_settings(restated, processor)
    b = token_budget(restated, processor, settings, tasks, episode=episode)
    longest = max(settings.count_tokens(tool_result_message("", t.goal)) for t in tasks)
    assert longest > 5 and b.completion_tokens - a.completion_tokens == b.turns * longest
    with pytest.raises(ValueError, match="tool-mode option"):
        _cfg(tmp_path, tiny_model, restate_goal=True)  # the screen's observation already carries the task


def test_too_small_budget_fails_loudly_with_the_numbers(tmp_path, tiny_model):
    from agent_harness.train import TokenBudgetError
    from agent_harness.train.grpo import env_settings, load_processor, token_budget

    processor = load_processor(str(tiny_model))
    cfg = _cfg(tmp_path, tiny_model, max_completion_length=200)
    with pytest.raises(TokenBudgetError) as e:
        token_budget(cfg, processor, env_settings(cfg, processor), toy_tasks())
    msg = str(e.value)
    need = 4 * 40 + 3 * (6 + 48)  # at least: replies + screenshots + text, before the template's own tokens
    assert "max_completion_length=200 is too small" in msg
    assert "3 actions" in msg and "4 replies x 40" in msg and "6 image tokens for a 84x56 screenshot" in msg
    assert "max_pixels=6272" in msg and "drop" in msg
    needed = int(msg.split("max_completion_length >= ")[1].split(";")[0])
    assert needed > need

    # The model's context is checked too (vLLM's max_model_len).
    cfg = _cfg(tmp_path, tiny_model, max_model_len=500)
    with pytest.raises(TokenBudgetError, match=r"max_model_len \(500 tokens\) is too small.*prompt \+ completion = \d+"):
        token_budget(cfg, processor, env_settings(cfg, processor), toy_tasks())


def test_screens_the_processor_would_resize_are_refused(tmp_path, tiny_model):
    from agent_harness.train import TokenBudgetError
    from agent_harness.train.grpo import env_settings, load_processor, token_budget

    processor = load_processor(str(tiny_model))  # the tiny processor keeps images within 3136..50176 pixels
    cfg = _cfg(tmp_path, tiny_model, max_pixels=28 * 28 * 200)
    with pytest.raises(TokenBudgetError, match="the processor resizes"):
        token_budget(cfg, processor, env_settings(cfg, processor), toy_tasks())
