"""`uigym eval --family injected` (issue #39): every episode's world is built from the injected seed family, each
results row says so, and the agent really meets the planted text; a family no app offers is refused by name,
before anything runs. Tool mode: no browser."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from agent_harness.agents.tool_oracle import ToolOracleAgent
from agent_harness.cli import app
from tests.eval.test_eval_cli import tool_mode_only  # noqa: F401 - the fixture: private home, no browser

TASK = "crm/contact-phone-00"


class PlantedCaseReader(ToolOracleAgent):
    """Reads the case the injected family plants in the task's world (seed_data.injected.planted), then plays the
    task's tool plan: its first tool result shows what the world holds there."""

    async def reset(self, env, task) -> None:
        import apps.crm
        from seed_data.injected import planted

        spec = apps.crm.SPEC
        case = next(m for m in planted("crm", spec.build_world, task.seed, task.now or spec.default_now)
                    if m["table"] == "cases")
        await super().reset(env, task)
        first = {"type": "tool", "name": "get_record", "args": {"object": "Case", "record_id": case["id"]}}
        self._plan = iter([first, *self._plan])
        self.planted_text = case["text"]


def _run(tmp_path, name: str, *extra: str) -> tuple[dict, str]:
    out = tmp_path / name
    r = CliRunner().invoke(app, ["eval", "--agent", f"{__name__}:PlantedCaseReader", "--mode", "tools",
                                 "--workers", "1", "--no-report", "--out", str(out), "--tasks", TASK, *extra])
    assert r.exit_code == 0, r.output
    (row,) = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    traj = json.loads((out / row["episode_dir"] / "trajectory.json").read_text())
    return row, traj["steps"][0]["tool_result"]


def test_eval_plays_the_task_in_the_injected_world_and_records_the_family(tool_mode_only, tmp_path):  # noqa: F811
    import apps.crm
    from seed_data.injected import planted

    spec = apps.crm.SPEC
    text = next(m["text"] for m in planted("crm", spec.build_world, 0, spec.default_now) if m["table"] == "cases")
    row, seen = _run(tmp_path, "injected", "--family", "injected")
    assert row["family"] == "injected" and row["passed"], row  # the task's gold still holds in the injected world
    assert text[:60] in seen  # the planted case description is what the tool read
    plain, seen_plain = _run(tmp_path, "plain")
    assert plain["family"] is None and plain["passed"]
    assert text[:60] not in seen_plain and "AI assistant" not in seen_plain


def test_an_unknown_family_is_refused_with_the_choices(tool_mode_only, tmp_path):  # noqa: F811
    r = CliRunner().invoke(app, ["eval", "--agent", "oracle", "--mode", "tools", "--tasks", TASK,
                                 "--family", "poisoned", "--out", str(tmp_path / "x")])
    assert r.exit_code == 2, r.output
    text = " ".join(r.output.split())
    assert "--family: unknown seed family 'poisoned': choose from injected" in text, r.output
    assert "Traceback" not in r.output and not (tmp_path / "x").exists()
    # The workspace family is another cast: not a family a task's world is built from.
    r = CliRunner().invoke(app, ["eval", "--mode", "tools", "--tasks", TASK, "--family", "workspace"])
    assert r.exit_code == 2 and "unknown seed family 'workspace'" in " ".join(r.output.split())
    # Workspace tasks play in the workspace family's worlds: with --family they are left out, by name.
    r = CliRunner().invoke(app, ["eval", "--mode", "tools", "--tasks", "workspace/*", "--family", "injected"])
    assert r.exit_code == 2 and "no single-app task left to play in the 'injected' family" in " ".join(
        r.output.split()), r.output


def test_the_workspace_env_refuses_another_family():
    import pytest

    from gym_core.config import EnvConfig
    from gym_core.workspace_env import AsyncWorkspaceEnv

    with pytest.raises(ValueError, match="builds its worlds from the workspace family"):
        AsyncWorkspaceEnv("tools", EnvConfig(family="injected"))
