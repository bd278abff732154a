"""The eval prompt, step by step, offline: the exact messages the model agent would have sent.

`EpisodePrompter` drives the model agent's own message code (agents/model.py: system prompt of the
action format, "Task:" line, "Current URL", "Step N", the last K screenshots as images, tool
results for tool-call formats) without a server, so an SFT sample's prompt is what the model will
see at eval time, and its target is what the eval harness parses.

Screenshots are not encoded: each image part carries a reference (`uigym-image:<i>`, the index of
the screenshot in the episode) that the exporter swaps for the image itself.
"""

from __future__ import annotations

import json
from typing import Any

from agent_harness.agents.model import ModelAgent
from agent_harness.formats import FormatContext, Rendered

IMAGE_REF = "uigym-image:"
OMITTED_IMAGE_TEXT = "[an earlier screenshot, omitted]"


class _OfflineAgent(ModelAgent):
    """The model agent's message building, with screenshots as references and no HTTP."""

    def _image_url(self, obs: dict) -> str:
        return f"{IMAGE_REF}{obs['_image']}"


def _run_sync(coro) -> Any:
    """Run a coroutine that never awaits anything pending (ModelAgent.reset with a model name set)."""
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value
    coro.close()
    raise RuntimeError("expected a coroutine that completes without suspending")


class _Screen:
    def __init__(self, width: int, height: int, tabs: tuple[str, ...] = ()):
        self.width, self.height = width, height
        self.tab_names = tabs  # the workspace env's tabs, read by the model agent into its format's context
        self.last_png = None


class EpisodePrompter:
    """Builds the prompt of each step of one episode, in the order the steps happened.

        p = EpisodePrompter("qwen", screen=(1280, 720), max_pixels=1280 * 28 * 28, history_images=3)
        msgs = p.observe(goal=..., url="/", step=0, error="", image=0)   # the prompt for step 1
        p.act(rendered)                                                  # what was done at step 1
        msgs = p.observe(goal=..., url="/x", step=1, error="", image=1)  # the prompt for step 2 ...
    """

    def __init__(self, fmt: str, screen: tuple[int, int], image: tuple[int, int] | None = None, *,
                 max_pixels: int | None = None, coords: str = "abs", history_images: int = 3,
                 history_turns: int | None = None, include_url: bool = True, system_prompt: str | None = None,
                 tool_screenshots: bool = False, tabs: tuple[str, ...] = ()):
        self.agent = _OfflineAgent(base_url="http://offline.invalid/v1", model="sft", format=fmt, coords=coords,
                                   image_size=image, max_pixels=max_pixels, history_images=history_images,
                                   history_turns=history_turns, include_url=include_url, system_prompt=system_prompt,
                                   tool_screenshots=tool_screenshots)
        _run_sync(self.agent.reset(_Screen(*screen, tabs=tuple(tabs)), None))
        self.ctx: FormatContext = self.agent.ctx
        self.format = self.agent.format
        self._calls = 0

    def tools(self) -> list[dict] | None:
        return self.format.tools(self.ctx) if self.agent.send_tools else None

    def observe(self, *, goal: str, url: str, step: int, error: str, image: int) -> list[dict]:
        """Add the observation of step `step` (the screen after it) and return the prompt messages."""
        obs = {"goal": goal, "url": url, "step": step, "last_action_error": error, "_image": image}
        self.agent._add_observation(obs)
        return self.agent.request_messages()

    def act(self, rendered: Rendered | None, fallback_text: str = "") -> None:
        """Record the assistant's turn for the step just prompted (its rendered action)."""
        self._calls += 1
        self.agent.n_calls = self._calls
        if rendered is None:
            rendered = Rendered(content=fallback_text)
        reply = rendered.reply()
        self.agent._add_assistant(rendered.message(), reply)


def image_refs(messages: list[dict]) -> list[int]:
    """The screenshot indices referenced by the image parts, in order."""
    out = []
    for m in messages:
        if isinstance(m.get("content"), list):
            for p in m["content"]:
                if p.get("type") == "image_url":
                    url = p["image_url"]["url"]
                    if url.startswith(IMAGE_REF):
                        out.append(int(url[len(IMAGE_REF):]))
    return out


def _tool_calls_text(msg: dict) -> str:
    parts = []
    for tc in msg.get("tool_calls") or []:
        f = tc.get("function", tc)
        args = f.get("arguments")
        if isinstance(args, str):
            try:
                args = json.loads(args)
            except json.JSONDecodeError:
                pass
        parts.append("<tool_call>\n" + json.dumps({"name": f.get("name"), "arguments": args}, ensure_ascii=False)
                     + "\n</tool_call>")
    return "\n".join(parts)


def to_dataset_messages(messages: list[dict]) -> list[dict]:
    """OpenAI-style messages -> the dataset's uniform shape (one Arrow schema for every row):
    `{"role", "content": [{"type": "text", "text"}, {"type": "image", "text": None}, ...]}`.

    Assistant tool calls are written into the text the Qwen/Hermes way (`<tool_call>{...}</tool_call>`),
    which every chat template renders and every tool-call format parses; image parts become
    `{"type": "image"}` placeholders, filled in order from the row's `images`."""
    out = []
    for m in messages:
        role = m["role"]
        content = m.get("content")
        parts: list[dict] = []
        if isinstance(content, str):
            if content:
                parts.append({"type": "text", "text": content})
        elif isinstance(content, list):
            for p in content:
                if p.get("type") in ("image_url", "image"):
                    parts.append({"type": "image", "text": None})
                elif p.get("type") == "text":
                    parts.append({"type": "text", "text": p.get("text", "")})
        if role == "assistant" and m.get("tool_calls"):
            calls = _tool_calls_text(m)
            text = "".join(p["text"] for p in parts if p["type"] == "text")
            parts = [{"type": "text", "text": (text + "\n" + calls) if text else calls}]
        if not parts:
            parts = [{"type": "text", "text": ""}]
        out.append({"role": role, "content": parts})
    return out
