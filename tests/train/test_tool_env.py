"""GRPO's tool-mode environment: TRL sees the app's own tool schemas as its methods, and a rollout through
them is graded by the task's verifier (the toy app served as "mail"; no browser, no model)."""

from __future__ import annotations

import inspect

import pytest

from agent_harness.agents.tool_model import TASK_FINISHED
from agent_harness.train.env import EnvSettings, close_runtimes
from agent_harness.train.tool_env import tool_env_class
from tests.fixture_apps import toy
from tests.harness.toy_tasks import APP_MODULES, TASKS

TOOLS = toy.TOOLS.describe()


def test_trl_sees_the_apps_tool_schemas():
    tf = pytest.importorskip("transformers.utils")
    Env = tool_env_class("mail", TOOLS)
    public = sorted(n for n, _ in inspect.getmembers(Env, predicate=inspect.isfunction)
                    if not n.startswith("_") and n not in ("reset", "get_reward"))
    assert public == sorted([t["name"] for t in TOOLS] + ["done"])
    env = Env(EnvSettings())
    for t in TOOLS:
        fn = tf.get_json_schema(getattr(env, t["name"]))["function"]
        mine = t["input_schema"]
        assert fn["name"] == t["name"] and fn["description"] == " ".join(t["description"].split())
        assert set(fn["parameters"]["properties"]) == set(mine.get("properties", {}))
        assert set(fn["parameters"].get("required", [])) == set(mine.get("required", []))
        for pname, p in mine.get("properties", {}).items():
            theirs = fn["parameters"]["properties"][pname]
            assert theirs["type"] == p["type"] and theirs.get("description") == p.get("description", pname)
    assert tf.get_json_schema(env.done)["function"]["parameters"]["properties"]["answer"]["type"] == "string"


def test_a_rollout_through_the_methods_is_graded_by_the_verifier():
    Env = tool_env_class("mail", TOOLS)
    settings = EnvSettings(app_modules=dict(APP_MODULES), result_text_tokens=40)
    try:
        env = Env(settings)
        assert env.reset(task=TASKS[0]) == TASKS[0]["goal"]
        listing = env.list_notes()
        assert listing.startswith('{"notes":[') and listing.endswith("…") and len(listing.encode()) <= 43
        assert env.star_note(note_id=42).startswith("Error: ") and "no note with id 42" in env.star_note(note_id=42)
        assert env.star_note(note_id=2) == '{"id":2,"starred":true}'
        assert env.done() == TASK_FINISHED and env.get_reward() == 1.0
        assert env.list_notes().startswith("The episode is over")
        ep = env.episode
        assert (ep.tool_calls, ep.action_errors, ep.calls_after_end, ep.done_called) == (6, 2, 1, True)

        env.reset(task=TASKS[0])  # the same instance, the next rollout: a fresh world
        env.star_note(note_id=3)
        assert env.done() == TASK_FINISHED and env.get_reward() == 0.0
        with pytest.raises(ValueError, match="a food task"):
            env.reset(task={**TASKS[0], "id": "food/x", "app": "food"})
        env._close()
    finally:
        close_runtimes()


def test_restate_goal_follows_each_result_outside_its_token_cut():
    Env = tool_env_class("mail", TOOLS)
    settings = EnvSettings(app_modules=dict(APP_MODULES), result_text_tokens=40, restate_goal=True)
    goal = TASKS[0]["goal"]
    try:
        env = Env(settings)
        env.reset(task=TASKS[0])
        listing = env.list_notes()
        head, _, tail = listing.partition("\n\nTask: ")
        assert tail == goal and head.endswith("…") and len(head.encode()) <= 43  # the cut is the result's alone
        assert env.star_note(note_id=42).startswith("Error: ") and env.star_note(note_id=42).endswith(goal)
        assert env.done() == TASK_FINISHED  # the end says nothing more
        env._close()
    finally:
        close_runtimes()


JUDGED = {
    "id": "mail/toy-judged-note", "app": "mail", "seed": 1, "difficulty": "easy", "max_steps": 4,
    "goal": "Add a note with a friendly greeting.", "template": "toy-judged",
    "verify": {"checks": [{"table": "notes", "in": "created", "count": 1},
                          {"judge": {"text": {"table": "notes", "in": "created", "field": "title"},
                                     "rubric": ["Is a friendly greeting."], "max_chars": 80, "min_chars": 2}}],
               "unchanged_except": [{"table": "notes", "ops": ["create"], "max": 1}]},
    "solution": [{"fill": {"role": "textbox", "name": "Title"}, "text": "Hello there!"},
                 {"click": {"role": "button", "name": "Add"}}, {"done": True}],
    "calibration": [{"kind": "gold", "text": "Hello there!", "expect": "pass"},
                    {"kind": "rude", "text": "Go away.", "expect": "fail"}],
}


def test_an_ungraded_rollout_has_no_reward_so_trl_drops_it(monkeypatch):
    from agent_harness.train.curriculum import Curriculum, CurriculumConfig
    from agent_harness.train.grpo import EpisodeMetrics, ToolCallShaping

    monkeypatch.delenv("UIGYM_JUDGE_BASE_URL", raising=False)
    monkeypatch.delenv("UIGYM_JUDGE_MODEL", raising=False)
    Env = tool_env_class("mail", TOOLS)
    try:
        judged, plain = Env(EnvSettings(app_modules=dict(APP_MODULES))), Env(EnvSettings(app_modules=dict(APP_MODULES)))
        judged.reset(task=JUDGED)
        judged.add_notes(titles=["Hello there!"])
        assert judged.done() == TASK_FINISHED and judged.get_reward() is None  # no judge configured
        plain.reset(task=TASKS[0])
        plain.star_note(note_id=2)
        plain.done()
        rows = [{"template": "toy-judged"}, {"template": "toy-star"}]
        curriculum = Curriculum(rows, CurriculumConfig())
        metrics = EpisodeMetrics(curriculum, num_generations=2)
        logged = {}
        out = metrics([None, None], [[], []], environments=[judged, plain],
                      log_metric=lambda k, v: logged.setdefault(k, []).append(v))
        assert out == [None, 1.0] and logged["uigym/ungraded"] == [1.0, 0.0]
        assert ToolCallShaping()([None, None], [[], []], environments=[judged, plain])[0] is None
        assert curriculum.stats["toy-judged"].attempts == 0  # an ungraded rollout teaches the curriculum nothing
        judged._close()
        plain._close()
    finally:
        close_runtimes()


def test_a_reply_trl_could_not_read_is_counted_and_shown_a_few_times(caplog):
    """uigym/parse_errors says how many; the log shows what the first few were (a mean says nothing of why)."""
    from agent_harness.train.grpo import MALFORMED_SHOWN, EpisodeMetrics

    Env = tool_env_class("mail", TOOLS)
    try:
        env = Env(EnvSettings(app_modules=dict(APP_MODULES)))
        env.reset(task=TASKS[0])
        env.star_note(note_id=2)
        env.done()
        bad = {"role": "assistant", "content": '<tool_call>\n{"name": "star_note", "arguments": {"note_id": 2\n'}
        completion = [{"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "star_note"}}]},
                      {"role": "tool", "content": "ok"}, bad]
        metrics, logged = EpisodeMetrics(), {}
        with caplog.at_level("WARNING", logger="uigym.train"):
            for _ in range(MALFORMED_SHOWN + 2):
                metrics([None], [completion], environments=[env],
                        log_metric=lambda k, v: logged.setdefault(k, []).append(v))
        assert logged["uigym/parse_errors"] == [1.0] * (MALFORMED_SHOWN + 2)
        shown = [r.getMessage() for r in caplog.records if "could not read" in r.getMessage()]
        assert len(shown) == MALFORMED_SHOWN and '"note_id": 2' in shown[0] and "mail/toy-star" in shown[0]
        env._close()
    finally:
        close_runtimes()
