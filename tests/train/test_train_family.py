"""GRPO's --family (issue #39): rollouts meet the injected seed family's worlds, the periodic eval plays in the same
family, and a family no app offers is refused by name before anything loads. Tool mode: no browser, no model."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_harness.train.config import GRPORunConfig
from agent_harness.train.env import EnvSettings, close_runtimes
from agent_harness.train.evaluate import eval_command


def test_the_family_is_checked_and_passed_to_the_periodic_eval():
    cfg = GRPORunConfig(model="m", out=Path("o"), tasks="crm/*", mode="tools", max_turns=3, reply_tokens=64,
                        family="injected").resolved()
    cmd = eval_command(cfg, EnvSettings(max_pixels=6272), "http://h:1/v1", Path("out"))
    assert cmd[cmd.index("--family") + 1] == "injected"
    plain = GRPORunConfig(model="m", out=Path("o"), tasks="crm/*", mode="tools", max_turns=3, reply_tokens=64)
    assert "--family" not in eval_command(plain.resolved(), EnvSettings(max_pixels=6272), "http://h:1/v1", Path("o"))
    with pytest.raises(ValueError, match="unknown seed family 'poisoned': choose from injected"):
        GRPORunConfig(model="m", out=Path("o"), family="poisoned").resolved()


def test_a_tool_rollout_in_the_family_reads_the_planted_text():
    import apps.crm
    from agent_harness.train.tool_env import tool_env_class
    from seed_data.injected import planted
    from tasks import load_task

    task = load_task("crm/contact-phone-00")
    spec = apps.crm.SPEC
    case = next(m for m in planted("crm", spec.build_world, task.seed, task.now or spec.default_now)
                if m["table"] == "cases")
    Env = tool_env_class("crm")
    seen = {}
    try:
        for family in ("injected", None):
            env = Env(EnvSettings(family=family, result_text_tokens=4000))
            env.reset(task=task.model_dump_json())
            seen[family] = env.get_record(object="Case", record_id=case["id"])
            env._close()
    finally:
        close_runtimes()
    assert case["text"][:60] in seen["injected"] and case["text"][:60] not in seen[None]
