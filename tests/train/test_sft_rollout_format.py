"""What `uigym export sft` teaches in tool mode is what GRPO's rollouts show and read.

A model warm-started on the export must meet, in GRPO's rollouts, the prompts it was taught (system prompt, the
app's tool list in the same order and wording, the conversation so far), and its taught reply must parse, in TRL's
rollout parser, into the call it was taught. Before `grpo.use_tool_schemas`, TRL rendered the rollout prompts'
tool list from the environment's methods (alphabetical, written from their docstrings): no rollout prompt was one
the SFT data held, and the SFT model's rollouts were unreadable calls with reward 0 while `uigym eval` of the same
model passed (README, Training).
"""

from __future__ import annotations

import asyncio
import json
from functools import lru_cache, partial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.harness.toy_tasks import APP_MODULES, toy_tasks, write_tasks_dir

# What a string argument cannot hold in Qwen's format: the parser ends the call at the first `</tool_call>` and
# the reply at the first `<|im_end|>`, inside a JSON string or not (`<tool_call>` and `<|im_start|>` are fine).
TAGS = ("</tool_call>", "<|im_end|>")


# ----------------------------------------------------------------------------- the export's rendering, GRPO's parser

def sft_row(app: str, goal: str, tools: list[dict], action: dict) -> dict:
    """The SFT row `export sft` writes for `action` as the first call of an episode (tool_samples)."""
    from agent_harness.agents.tool_model import system_for
    from agent_harness.export.prompts import to_dataset_messages
    from agent_harness.export.tool_samples import _call

    call = _call(action, "call_1")
    prompt = [{"role": "system", "content": system_for(app)}, {"role": "user", "content": goal}]
    return {"prompt": to_dataset_messages(prompt),
            "completion": to_dataset_messages([{"role": "assistant", "content": "", "tool_calls": [call]}]),
            "tools": json.dumps(tools, ensure_ascii=False)}


def taught_reply(text: str) -> str:
    """The SFT target as the model generates it: generation stops at (and keeps) the end-of-turn token."""
    end = text.index("<|im_end|>") + len("<|im_end|>")
    return text[:end]


def rollout_parse(processor, prompt_text: str, reply: str, tools: list[dict]) -> dict:
    """The reply as GRPOTrainer._generate reads it: trl's parse_response on the generated ids, after the prompt."""
    from trl.chat_template_utils import parse_response

    tok = processor.tokenizer
    ids = tok(reply, add_special_tokens=False)["input_ids"]
    prefix = tok(prompt_text, add_special_tokens=False)["input_ids"]
    return parse_response(tok, ids, prefix=prefix, tools=tools)


def as_call(action: dict) -> dict:
    """The uigym action as the (name, arguments) an env method receives."""
    if action["type"] == "done":
        return {"name": "done", "arguments": {"answer": action["answer"]} if "answer" in action else {}}
    return {"name": action["name"], "arguments": action["args"]}


@lru_cache(maxsize=1)
def bundled_calls() -> list[tuple[str, str, dict]]:
    """(app, goal, action) for every call of every bundled task's tool plan, the workspace's cross-app ones among them
    (GRPO trains on one app's tools at a time, or on the workspace's three apps' list)."""
    from agent_harness.agents.tool_oracle import call_to_action
    from tasks import load_tasks

    return [(t.app, t.goal, call_to_action(c)) for t in load_tasks() if t.tools and t.tools.solution
            for c in t.tools.solution]


def test_grpo_trains_on_workspace_tasks_with_the_workspace_envs_tool_list():
    """Tool-mode GRPO on the workspace's cross-app tasks: the policy is shown the three apps' tools, app-prefixed, then
    wait and done, and its system prompt says so; a rollout of a task's gold plan through the environment class's
    methods (what TRL calls) plays in the workspace's three worlds and is rewarded 1, one stopped halfway 0."""
    from agent_harness.train.env import EnvSettings, close_runtimes
    from agent_harness.train.grpo import task_rows, tool_episode
    from tasks import load_tasks

    workspace = [t for t in load_tasks() if t.app == "workspace"]
    assert workspace, "the bundled workspace tasks"
    env_class, system, tools = tool_episode(workspace)
    names = [t["function"]["name"] for t in tools]
    assert {"mail_send_email", "crm_update_record", "food_place_order", "wait", "done"} <= set(names)
    assert names[-2:] == ["wait", "done"] and all(n.split("_", 1)[0] in ("mail", "food", "crm") for n in names[:-2])
    assert all(callable(getattr(env_class, n)) for n in names) and "mail, food (Forkful) and crm" in system
    task = next(t for t in workspace if t.id == "workspace/office-lunch-confirm-00")
    row = task_rows([task], system)[0]
    try:
        for plan, reward in ((task.tools.solution, 1.0), (task.tools.near_misses[0], 0.0)):
            env = env_class(EnvSettings())
            try:
                assert env.reset(**row) == task.goal
                for call in plan:
                    assert not getattr(env, call.tool)(**call.args).startswith("Error"), call
                assert env.get_reward() == reward
            finally:
                env._close()
    finally:
        close_runtimes()


@lru_cache(maxsize=None)
def app_tool_list(app: str) -> list[dict]:
    """The tool list GRPO shows the policy for `app` (grpo.tool_episode), the one eval and the export show."""
    from agent_harness.train.grpo import tool_episode
    from tasks import load_tasks

    return tool_episode([t for t in load_tasks() if t.app == app])[2]


@pytest.fixture(scope="module")
def rollout_processor(tiny_model):
    """The processor as GRPOTrainer holds it: uigym's (TRL's qwen3_vl template) with TRL's response parser added."""
    from trl.chat_template_utils import add_response_schema

    from agent_harness.train.grpo import load_processor

    return add_response_schema(load_processor(str(tiny_model)))


def _vary_strings(value, texts):
    """`value` with every string leaf replaced by the next of `texts` (the structure and types kept)."""
    if isinstance(value, str):
        return next(texts)
    if isinstance(value, list):
        return [_vary_strings(v, texts) for v in value]
    if isinstance(value, dict):
        return {k: _vary_strings(v, texts) for k, v in value.items()}
    return value


safe_text = st.text(max_size=30).filter(lambda s: not any(tag in s for tag in TAGS))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(picked=st.integers(0, 10**6), vary=st.booleans(), texts=st.lists(safe_text, min_size=8, max_size=8))
def test_every_bundled_gold_call_as_the_export_writes_it_parses_in_grpo_into_that_call(
        rollout_processor, picked, vary, texts):
    """Any call of any bundled task's tool plan (and, with `vary`, the same call with other string values:
    quotes, backslashes, newlines, non-ASCII), rendered as `export sft` renders it and chat-templated as SFT
    trains it, parses in GRPO's rollout parser into that call. (A string holding `</tool_call>` or `<|im_end|>`
    cannot be told from the format's own tags, see TAGS; the plans hold none.)"""
    from agent_harness.export.chat import prompt_and_target

    calls = bundled_calls()
    app, goal, action = calls[picked % len(calls)]
    if vary:  # the arguments' strings, not the action's type and tool name
        key = "args" if action["type"] == "tool" else "answer"
        if key in action:
            action = {**action, key: _vary_strings(action[key], iter(texts * 8))}
    tools = app_tool_list(app)
    prompt_text, target = prompt_and_target(sft_row(app, goal, tools, action), rollout_processor)
    parsed = rollout_parse(rollout_processor, prompt_text, taught_reply(target), tools)
    assert parsed.get("content", "") == "", parsed
    assert [c["function"] for c in parsed.get("tool_calls") or []] == [as_call(action)], (target, parsed)


def test_the_bundled_plans_hold_none_of_the_chat_tags():
    """The exception the property above makes does not hide a bundled call."""
    assert not [a for _, _, a in bundled_calls() if any(tag in json.dumps(a, ensure_ascii=False) for tag in TAGS)]


# ----------------------------------------------------------------------------- a rollout by the taught policy

@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """The oracle's tool-mode demonstrations of the toy tasks, exported for SFT (with the closing turn)."""
    from agent_harness.export import ExportConfig, export_sft
    from agent_harness.runner import EvalConfig, run_eval

    root = tmp_path_factory.mktemp("sft-format")
    rows = asyncio.run(run_eval(EvalConfig(agent="oracle", tasks=toy_tasks(), out=root / "demos", workers=1,
                                           app_modules=APP_MODULES, mode="tools")))
    assert all(r["reward"] == 1.0 for r in rows), rows
    export_sft(ExportConfig(runs=[root / "demos"], out=root / "sft", only_passed=True, split="hash",
                            test_fraction=0.0, closing_turn=True))
    return root / "sft"


def exported_rows(sft_dir) -> list[dict]:
    return [json.loads(line) for line in (sft_dir / "train.jsonl").open()]


@pytest.mark.timeout(900)
def test_a_policy_that_writes_exactly_what_sft_taught_solves_every_task_in_grpos_rollouts(
        tmp_path, tiny_model, torch_threads, train_envs, exported):
    """GRPO's own rollout loop (TRL's prompt rendering, generation turns, tool-call parsing, the tool loop, the
    environment, the reward), with generation replaced by a lookup in the SFT data: each prompt the rollout shows
    must be an exported prompt, character for character, and the reply is that row's target. Every rollout then
    reaches reward 1: the SFT data teaches the rollouts' format, and the rollouts read it."""
    from agent_harness.export.chat import prompt_and_target
    from agent_harness.train.config import GRPORunConfig
    from agent_harness.train.grpo import build_grpo, load_model, load_processor

    processor = load_processor(str(tiny_model))
    cfg = GRPORunConfig(model=str(tiny_model), out=tmp_path / "grpo", tasks="mail/toy-*", split=None,
                        tasks_dir=write_tasks_dir(tmp_path / "tasks"), mode="tools", max_turns=3, reply_tokens=64,
                        result_text_tokens=400, max_steps=1, num_generations=2, per_device_batch_size=2,
                        app_modules=APP_MODULES)
    trainer, _ = build_grpo(cfg, model=load_model(str(tiny_model)), processor=processor)
    tok = trainer.processing_class.tokenizer
    rows = exported_rows(exported)
    taught = dict(prompt_and_target(r, trainer.processing_class) for r in rows)
    assert len(taught) == len(rows) == sum(len(t.tools.solution) + 1 for t in toy_tasks())
    unknown: list[str] = []

    def policy(prompt_ids, images, multimodal_fields, num_generations, has_tool_images=False):
        replies = []
        for ids in prompt_ids:
            text = tok.decode(ids)
            if text not in taught:
                unknown.append(text)
            replies.append(tok(taught_reply(taught.get(text, "<|im_end|>")), add_special_tokens=False)["input_ids"])
        return replies, None

    trainer._generate_single_turn = policy
    rows = [r for r in trainer.train_dataset for _ in range(cfg.num_generations)]
    trainer._generate_and_score_completions(rows)

    assert not unknown, "a rollout prompt the SFT data never taught:\n" + unknown[0]
    episodes = [env.episode for env in trainer.environments]
    assert [e.task_id for e in episodes] == [r["task_id"] for r in rows]
    assert [env.get_reward() for env in trainer.environments] == [1.0] * len(rows)
    plans = {t.id: len(t.tools.solution) for t in toy_tasks()}
    assert [(e.tool_calls, e.tool_errors, e.action_errors, e.calls_after_end) for e in episodes] == \
        [(plans[e.task_id], 0, 0, 0) for e in episodes]
    logged = trainer._metrics["train" if trainer.model.training else "eval"]  # the batch's means, as TRL logs them
    assert logged["uigym/parse_errors"] == [0.0] and logged["uigym/success"] == [1.0], dict(logged)


@pytest.mark.timeout(600)
def test_screen_mode_rollout_prompts_list_the_gym_formats_tools_as_the_export_does(tmp_path, tiny_model):
    """Screen mode has the same seam: the rollouts' tool list is the gym format's, in its order (`export sft
    --format gym --tool-screenshots` shows it so), not the environment's methods in alphabetical order."""
    from agent_harness.export.prompts import EpisodePrompter
    from agent_harness.train.config import GRPORunConfig
    from agent_harness.train.grpo import build_grpo, load_model, load_processor

    processor = load_processor(str(tiny_model))
    cfg = GRPORunConfig(model=str(tiny_model), out=tmp_path / "grpo", tasks="mail/toy-*", split=None,
                        tasks_dir=write_tasks_dir(tmp_path / "tasks"), max_pixels=28 * 28 * 16, max_turns=2,
                        reply_tokens=40, result_text_tokens=48, max_steps=1, num_generations=2,
                        per_device_batch_size=2, app_modules=APP_MODULES)
    trainer, _ = build_grpo(cfg, model=load_model(str(tiny_model)), processor=processor)
    cfg = cfg.resolved()
    exported = EpisodePrompter("gym", tuple(cfg.viewport), max_pixels=cfg.max_pixels, tool_screenshots=True).tools()
    assert [t["function"]["name"] for t in exported] != sorted(t["function"]["name"] for t in exported)
    assert trainer._env_tools[None] == exported
    prompt = [trainer.train_dataset[0]["prompt"][0], {"role": "user", "content": "Star the note."}]
    trainer._batch_environments = [None]
    ids = trainer._tokenize_prompts([prompt])[0][0]
    assert processor.tokenizer.decode(ids) == processor.apply_chat_template(
        prompt, tools=exported, add_generation_prompt=True, tokenize=False)


@pytest.mark.slow
@pytest.mark.timeout(2400)  # about 5 minutes on a loaded 2-core machine
def test_after_an_sft_warm_start_on_the_export_grpo_rollouts_are_rewarded(
        tmp_path, tiny_model, torch_threads, train_envs, exported):
    """The bug as it was met: the tiny random model SFT-trained on the oracle's exported tool calls, then a GRPO
    step on the same tasks at temperature 0.3. Before the fix every rollout's first reply was an unreadable call
    (reward 0, tool-call rate 0); now the rollouts are rewarded. SFT runs in rounds until the model's greedy first
    reply to each exported first prompt parses, in GRPO's rollout parser, into the gold first call."""
    import torch

    from agent_harness.export.chat import prompt_and_target
    from agent_harness.train.config import GRPORunConfig, SFTRunConfig
    from agent_harness.train.grpo import build_grpo, load_model, load_processor, select_tasks, tool_episode
    from agent_harness.train.sft import run_sft

    processor = load_processor(str(tiny_model))
    model = load_model(str(tiny_model))
    tasks_dir = write_tasks_dir(tmp_path / "tasks")
    cfg = GRPORunConfig(model=str(tiny_model), out=tmp_path / "grpo", tasks="mail/toy-*", split=None,
                        tasks_dir=tasks_dir, mode="tools", max_turns=3, reply_tokens=48, max_steps=1,
                        num_generations=4, per_device_batch_size=4, learning_rate=1e-4, temperature=0.3,
                        app_modules=APP_MODULES)
    tools = tool_episode(select_tasks(cfg.resolved(), cfg.tasks, None), APP_MODULES)[2]
    firsts = [r for r in exported_rows(exported) if r["step"] == 1]
    rollout = add_response_schema_copy(processor)

    def first_calls() -> list:
        out = []
        for row in firsts:
            prompt_text, _ = prompt_and_target(row, processor)
            ids = processor.tokenizer(prompt_text, add_special_tokens=False, return_tensors="pt")["input_ids"]
            with torch.no_grad():
                gen = model.generate(input_ids=ids, attention_mask=torch.ones_like(ids), max_new_tokens=48,
                                     do_sample=False)
            reply = processor.tokenizer.decode(gen[0, ids.shape[1]:])
            parsed = rollout_parse(rollout, prompt_text, reply, tools)
            out.append([c["function"] for c in parsed.get("tool_calls") or []] or reply)
        return out

    gold = [[as_call(json.loads(r["recorded_action"]))] for r in firsts]
    for _ in range(6):
        run_sft(SFTRunConfig(dataset=exported, model=str(tiny_model), out=tmp_path / "sft", max_steps=50,
                             learning_rate=3e-3, per_device_batch_size=4, logging_steps=50, eval_split=None,
                             extra={"lr_scheduler_type": "constant"}), model=model, processor=processor)
        calls = first_calls()
        if calls == gold:
            break
    assert calls == gold

    trainer, _ = build_grpo(cfg, model=model, processor=processor)
    trainer.train()
    log = next(h for h in trainer.state.log_history if "reward" in h)
    assert log["reward"] > 0 and log["uigym/tool_call_rate"] > 0, log


def add_response_schema_copy(processor):
    """A copy of the processor with TRL's response parser added, as GRPOTrainer adds it to its own."""
    import copy

    from trl.chat_template_utils import add_response_schema

    return add_response_schema(copy.deepcopy(processor))


def test_screen_grpo_plays_a_workspace_task_in_the_three_tabs_and_then_a_single_app_one():
    """Screen-mode GRPO takes workspace tasks (#38): the rollout env (TRL's tool methods) opens the workspace's three
    apps in tabs for a workspace row, where the gold, played through those methods alone (a tab brought to the front
    with Ctrl+N, a keypress), is rewarded 1 and a stop halfway 0; a single-app row after it gets its app's screen.
    The workspace row's system prompt says how to switch tabs and wait (FormatContext.tabs)."""
    from agent_harness.agents.oracle import OracleAgent
    from agent_harness.train.env import EnvSettings, UIGymToolEnv, close_runtimes
    from agent_harness.train.grpo import screen_system_prompt, task_rows
    from gym_core.workspace_env import AsyncWorkspaceEnv
    from seed_data.workspace import APPS
    from tasks import load_task

    task, single = load_task("workspace/office-lunch-confirm-00"), load_task("mail/archive-conversation-00")
    settings = EnvSettings(max_pixels=1280 * 720, factor=8)  # the image is the screen: a point is the same point
    rows = task_rows([task, single], partial(screen_system_prompt, settings))  # as build_grpo builds them
    row = rows[0]
    assert "Ctrl+1 to Ctrl+3" in row["prompt"][0]["content"] and "Ctrl+1" not in rows[1]["prompt"][0]["content"]
    env = UIGymToolEnv(settings)

    def play(stop_after: int | None = None) -> float | None:
        env.reset(**row)
        assert isinstance(env._env, AsyncWorkspaceEnv) and env._env.tab == "mail"
        agent = OracleAgent()
        env._run(agent.reset(env._env, task))
        for n in range(task.max_steps):
            a = env._run(agent.act({}))
            if stop_after is not None and n == stop_after:
                a = {"type": "done"}
            kind = a["type"]
            if kind == "switch_tab":
                env.keypress(["Control", str(APPS.index(a["tab"]) + 1)])
                assert env._env.tab == a["tab"]
            elif kind == "click":
                env.click(a["x"], a["y"])
            elif kind == "double_click":
                env.double_click(a["x"], a["y"])
            elif kind == "type":
                env.type_text(a["text"])
            elif kind in ("key", "keypress"):
                env.keypress(a["keys"])
            elif kind == "scroll":
                env.scroll(a["x"], a["y"], a.get("dx", 0), a.get("dy", 0))
            elif kind == "wait":
                env.wait(a.get("ms", 1000))
            elif kind == "done":
                env.done(a.get("answer") or "")
                break
            else:
                raise AssertionError(f"an oracle action the rollout's tools do not take: {a}")
        return env.get_reward()

    try:
        assert play() == 1.0
        assert play(stop_after=3) == 0.0
        env.reset(task=single.model_dump_json())
        assert not isinstance(env._env, AsyncWorkspaceEnv) and env._env.app == "mail"
    finally:
        env._close()
        close_runtimes()
