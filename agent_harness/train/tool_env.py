"""GRPO in tool mode: one app's tools as a TRL `environment_factory` class, one method per tool, no browser.

    Env = tool_env_class("mail")                      # methods: mail's tools (search_mail, star, ...) and done
    env = Env(EnvSettings()); first = env.reset(**row)  # -> the goal (text)
    env.search_mail(query="from:ana")                 # -> the call's JSON result (or "Error: ..."), cut to its budget
    env.star(thread_ids=[7])
    env.done(answer="")                               # ends the episode
    env.get_reward()                                  # the verifier's score of the world the calls left

TRL derives each tool's schema from its method's signature and docstring, so the methods are made from
the app's own tool schemas (apps/<app>/tools.py, the same list the tools env, MCP and `uigym eval --mode
tools` serve): the policy is trained on exactly the calls it is evaluated on. Every call is one step of
gym_core's AsyncToolEnv on the shared background loop, as the screen's UIGymToolEnv does with AsyncUIEnv.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any, Literal

from agent_harness.agents.model import tool_result_text
from agent_harness.agents.tool_model import TASK_FINISHED, tool_result_message
from agent_harness.train.env import OVER_TEXT, RolloutEnv, _runtime
from gym_core.env import EnvConfig
from gym_core.envs import env_for
from tasks.schema import WORKSPACE

_JSON_TYPES: dict[str, Any] = {"integer": int, "string": str, "boolean": bool, "number": float, "object": dict}


def _py_type(schema: dict) -> Any:
    """A JSON schema -> the Python type transformers.get_json_schema turns back into it."""
    if "enum" in schema:
        return Literal[tuple(schema["enum"])]
    if "anyOf" in schema:
        options = [s for s in schema["anyOf"] if s.get("type") != "null"]
        inner = _py_type(options[0]) if len(options) == 1 else Any
        return inner | None if any(s.get("type") == "null" for s in schema["anyOf"]) and inner is not Any else inner
    kind = schema.get("type")
    if kind == "array":
        return list[_py_type(schema.get("items", {"type": "string"}))]
    return _JSON_TYPES.get(kind, str)


def app_tools(app: str, module: str | None = None) -> list[dict]:
    """The app's tools as {name, description, input_schema} (apps/<app>/tools.py; or those of `module`, a
    clone served under the app's name). "workspace": the three apps' tools as the workspace env lists them (each
    `<app>_<tool>`, its description marked with its app), then `wait`."""
    from apps import load_app_module

    if app == WORKSPACE and module is None:
        from gym_core.workspace_env import TOOL_SEP, WAIT_TOOL
        from seed_data.workspace import APPS

        out = [{**t, "name": f"{a}{TOOL_SEP}{t['name']}", "description": f"({a}) {t['description']}"}
               for a in APPS for t in app_tools(a)]
        wait = WAIT_TOOL["function"]
        return out + [{"name": wait["name"], "description": wait["description"], "input_schema": wait["parameters"]}]
    module = load_app_module(module or app).SPEC.tools
    if not module:
        raise ValueError(f"the {app} app has no tools")
    return importlib.import_module(module).TOOLS.describe()


def _method(name: str, description: str, schema: dict):
    props = schema.get("properties", {})
    required = set(schema.get("required", []))
    params, notes = [], []
    for pname, pschema in props.items():
        default = inspect.Parameter.empty if pname in required else pschema.get("default")
        params.append(inspect.Parameter(pname, inspect.Parameter.KEYWORD_ONLY, default=default,
                                        annotation=_py_type(pschema)))
        notes.append(f"    {pname}: {(pschema.get('description') or pname).replace(chr(10), ' ')}")

    def call(self, **kwargs):
        return self._call(name, kwargs)

    call.__name__ = name
    call.__signature__ = inspect.Signature([inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD), *params])
    call.__annotations__ = {p.name: p.annotation for p in params}
    summary = " ".join(description.split())
    call.__doc__ = summary + ("\n\nArgs:\n" + "\n".join(notes) if notes else "")
    return call


class ToolEpisodeEnv(RolloutEnv):
    """One rollout's world, acted on through the app's tools (the methods `tool_env_class` adds)."""

    app = ""

    def reset(self, **row: Any) -> str:
        """Start the row's task; returns its goal (the first user turn)."""
        s = self._settings

        def make(t, n):  # the app's tool env, or the workspace's (the three worlds of one cast)
            return env_for(t, "tools", EnvConfig(max_steps=n, family=s.family_for(t)), _runtime(s), None)

        task = self._begin(row, make)
        if task.app != self.app:
            raise ValueError(f"this environment has the {self.app} tools; task {task.id} is a {task.app} task")
        self._run(self._env.reset(task=task))
        return task.goal

    def _call(self, name: str, args: dict) -> str:
        st = self._stats
        st.tool_calls += 1
        if self._env is None or self._task is None:
            raise RuntimeError("reset() must come before any call")
        if self._env.done:
            st.calls_after_end += 1
            return OVER_TEXT
        action = {"type": "done", **({"answer": str(args["answer"])} if args.get("answer") else {})} if name == "done" \
            else {"type": "tool", "name": name, "args": args}
        obs, reward, terminated, truncated, info = self._run(self._env.step(action))
        st.steps = self._env.steps
        if terminated or truncated:
            self._note_grade(reward, info.get("graded", True))
            st.finished, st.done_called, st.reward = True, bool(terminated), self._reward
            if terminated:
                return TASK_FINISHED
        if obs["last_action_error"]:
            st.action_errors += 1
        text = tool_result_text(obs["tool_result"], obs["last_action_error"])
        if truncated:
            text = "The step limit is reached; the episode is over.\n" + text
        return tool_result_message(self._cut(text), self._task.goal if self._settings.restate_goal else None)

    def _cut(self, text: str) -> str:
        """`text` within `result_text_tokens` tokens: the longest prefix that fits, and an ellipsis."""
        s = self._settings
        count = s.count_tokens or (lambda t: len(t.encode()))
        if count(text) <= s.result_text_tokens:
            return text
        lo, hi = 0, len(text)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if count(text[:mid] + "…") <= s.result_text_tokens:
                lo = mid
            else:
                hi = mid - 1
        return text[:lo] + "…"


DONE_DOC = "End the task. Give the answer when the task asks a question."


def tool_env_class(app: str, tools: list[dict] | None = None) -> type[ToolEpisodeEnv]:
    """A ToolEpisodeEnv subclass whose public methods are `app`'s tools and `done` (TRL exposes exactly these)."""
    tools = tools if tools is not None else app_tools(app)
    methods: dict[str, Any] = {t["name"]: _method(t["name"], t["description"], t["input_schema"]) for t in tools}
    methods["done"] = _method("done", DONE_DOC, {"properties": {"answer": {
        "type": "string", "default": "", "description": "The answer, when the task asks for one."}}})
    return type(f"{app.title()}ToolEnv", (ToolEpisodeEnv,), {"app": app, **methods})
