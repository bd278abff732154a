"""Every tool call written in a docstring or a README/docs code example names a real tool of the app.

Docstrings and code examples are where a newcomer copies a call from, so an invented name (a tool that was
renamed, or never existed) is a bug. The calls are found by their shapes, not by guessing which words are
tools: `{"type": "tool", "name": X}` (an env action), `{"tool": X}` (a tool plan step) and, where the text
builds a TRL tool env (`tool_env_class`), `env.X(...)`. X must be a tool of the app the text is about (the
one app it names; every app's tools when it names none or several), `done`, or for `env.X(` a method of the
tool env itself.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from apps import APP_MODULES

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("agent_harness", "gym_core", "tasks", "apps", "grading", "domain", "seed_data", "bench")
ACTION = re.compile(r"""["']type["']\s*:\s*["']tool["']\s*,\s*["']name["']\s*:\s*["'](\w+)["']""")
PLAN_STEP = re.compile(r"""["']tool["']\s*:\s*["'](\w+)["']""")
ENV_METHOD = re.compile(r"\benv\.(\w+)\(")
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)


def tools_of(app: str) -> set[str]:
    return set(importlib.import_module(f"apps.{app}.tools").TOOLS.tools)


TOOLS = {app: tools_of(app) for app in APP_MODULES}


def tool_env_methods() -> set[str]:
    from agent_harness.train.tool_env import ToolEpisodeEnv

    return {n for n in dir(ToolEpisodeEnv) if not n.startswith("_")}


def snippets() -> list[tuple[str, str]]:
    """(where, text): every docstring in the packages, every fenced code block in the READMEs and docs."""
    out = []
    for pkg in PACKAGES:
        for path in sorted((REPO / pkg).rglob("*.py")):
            source = path.read_text()
            if not (ACTION.search(source) or PLAN_STEP.search(source) or "tool_env_class" in source):
                continue  # no call-shaped text anywhere in the file: nothing to parse
            tree = ast.parse(source, filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                    doc = ast.get_docstring(node, clean=False)
                    if doc:
                        out.append((f"{path.relative_to(REPO)}:{getattr(node, 'lineno', 1)}", doc))
    for path in [REPO / "README.md", *sorted(REPO.glob("apps/*/README.md")), *sorted(REPO.glob("docs/*.md"))]:
        for i, block in enumerate(FENCE.findall(path.read_text())):
            out.append((f"{path.relative_to(REPO)} code block {i + 1}", block))
    return out


def bad_tool_names(text: str, env_methods: set[str]) -> list[str]:
    named = [app for app in TOOLS if re.search(rf"\b{app}\b", text)]
    allowed = (TOOLS[named[0]] if len(named) == 1 else set().union(*TOOLS.values())) | {"done"}
    allowed |= {f"{app}_{t}" for app in TOOLS for t in TOOLS[app]}  # the workspace env's names (<app>_<tool>)
    bad = [n for n in ACTION.findall(text) + PLAN_STEP.findall(text) if n not in allowed]
    if "tool_env_class" in text:
        bad += [n for n in ENV_METHOD.findall(text) if n not in allowed | env_methods]
    return bad


def test_the_checker_catches_invented_names():
    methods = tool_env_methods()
    assert bad_tool_names('env.step({"type": "tool", "name": "search_threads", "args": {}}) on mail', methods) \
        == ["search_threads"]
    assert bad_tool_names('"mail": [{"tool": "star_thread", "args": {"thread_id": 7}}]', methods) == ["star_thread"]
    assert bad_tool_names('Env = tool_env_class("mail"); env.star_thread(thread_id=7); env.reset()', methods) \
        == ["star_thread"]
    # A real tool of another app is wrong where the text is about one app.
    assert bad_tool_names('mail: {"tool": "place_order"}', methods) == ["place_order"]
    assert bad_tool_names('mail: {"tool": "star"}, {"tool": "done"}; env.get_reward()', methods) == []
    # The workspace env's app-prefixed names: a real tool of that app, or wrong.
    assert bad_tool_names('{"type": "tool", "name": "crm_close_case"} {"type": "tool", "name": "crm_place_order"}',
                          methods) == ["crm_place_order"]


def test_every_tool_call_in_docstrings_and_code_examples_is_a_real_tool():
    methods = tool_env_methods()
    found = snippets()
    assert len(found) > 20, "the docstrings and code blocks were not found"
    assert any("tool_env_class" in text for _, text in found) and any(ACTION.search(t) for _, t in found)
    problems = [f"{where}: {name}" for where, text in found for name in bad_tool_names(text, methods)]
    assert not problems, "invented tool names (real ones: `from apps.<app>.tools import TOOLS; TOOLS.tools`):\n" \
        + "\n".join(problems)


@pytest.mark.parametrize("app", sorted(TOOLS))
def test_every_app_has_tools(app):
    assert len(TOOLS[app]) >= 10 and "done" not in TOOLS[app]
