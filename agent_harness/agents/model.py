"""The model agent: any vision-language model behind an OpenAI-compatible chat completions endpoint
(vLLM's `vllm serve`, `uigym serve`, hosted APIs).

Each step sends the conversation so far: the system prompt of the action format (its action space
and the screen size), the goal, and for every step the model's reply and a user message with the
new screenshot (a base64 PNG/JPEG image part) plus the URL and any error. Only the last
`history_images` screenshots travel as images; older ones are replaced by a short text, so long
episodes stay within the model's context. The reply is parsed by the chosen action format
(agent_harness.formats); a reply that cannot be parsed becomes an error message for the model on
its next turn (the step is spent on a no-op `screenshot`), never a crash.

Per step the agent reports `last_usage` (prompt/completion tokens, latency, retries, finish
reason) and `last_text` (what the model wrote), which the runner stores in the trajectory.

    agent = ModelAgent(base_url="http://localhost:8000/v1", format="uitars", max_pixels=1280*28*28)
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import io
import json
import math
import os
import random
import time
from typing import Any

import httpx
from PIL import Image

from agent_harness.agents.base import Agent
from agent_harness.formats import FormatContext, ParseError, Reply, get_format

NOOP = {"type": "screenshot"}  # what a step costs when the reply could not be used


class ModelError(RuntimeError):
    """The endpoint failed for good (after retries, or a request error that retrying cannot fix)."""


def smart_resize(width: int, height: int, *, factor: int = 28, min_pixels: int = 56 * 56,
                 max_pixels: int = 28 * 28 * 1280) -> tuple[int, int]:
    """Qwen2-VL's resize rule (as its image processor applies it): sides multiples of `factor`,
    area within [min_pixels, max_pixels], aspect ratio kept. Returns (width, height)."""
    h_bar = max(factor, round(height / factor) * factor)
    w_bar = max(factor, round(width / factor) * factor)
    if h_bar * w_bar > max_pixels:
        beta = math.sqrt((height * width) / max_pixels)
        h_bar = max(factor, math.floor(height / beta / factor) * factor)
        w_bar = max(factor, math.floor(width / beta / factor) * factor)
    elif h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h_bar = math.ceil(height * beta / factor) * factor
        w_bar = math.ceil(width * beta / factor) * factor
    return w_bar, h_bar


def _size(value: Any) -> tuple[int, int] | None:
    if value is None or value == "":
        return None
    if isinstance(value, str):
        w, h = value.lower().split("x")
        return int(w), int(h)
    w, h = value
    return int(w), int(h)


def tool_result_text(result: str | None, error: str | None = None) -> str:
    """What an app tool call gave back, as a model reads it (tool mode, and hybrid mode's app calls):
    the app's refusal, else its JSON result ("OK" for none)."""
    return f"Error: {error}" if error else (result or "OK")


def observation_text(obs: dict, *, goal: str | None = None, problems: list[str] | tuple = (),
                     include_url: bool = True) -> str:
    """The text that goes with a screenshot: the task (first turn only), problems, the URL, the step.
    The RL environment (agent_harness.train.env) writes its tool results with this same function."""
    lines = []
    if goal is not None:
        lines.append(f"Task: {goal}")
    lines.extend(problems)
    if include_url and obs.get("url"):
        lines.append(f"Current URL: {obs['url']}")
    lines.append(f"Step {obs.get('step', 0)}. The screenshot shows the browser now. What is the next action?")
    return "\n".join(lines)


def reply_text(reply: Reply) -> str:
    """What the model wrote, tool calls included (Hermes style), for trajectories and reports."""
    parts = [f"<think>{reply.reasoning}</think>"] if reply.reasoning else []
    if reply.content:
        parts.append(reply.content)
    for tc in reply.tool_calls:
        args = tc.arguments if isinstance(tc.arguments, str) else json.dumps(tc.arguments, ensure_ascii=False)
        parts.append(f'<tool_call>\n{{"name": {json.dumps(tc.name)}, "arguments": {args}}}\n</tool_call>')
    return "\n".join(parts)


class ModelAgent(Agent):
    name = "openai"

    def __init__(self, base_url: str = "http://localhost:8000/v1", model: str | None = None,
                 api_key: str | None = None, format: str = "json", coords: str = "abs",
                 image_size: Any = None, max_pixels: int | None = None, min_pixels: int = 56 * 56,
                 history_images: int = 3, history_turns: int | None = None,
                 temperature: float = 0.0, top_p: float | None = None, seed: int | None = None,
                 max_tokens: int = 512, timeout: float = 120.0, retries: int = 4, backoff: float = 1.0,
                 logprobs: bool = False, top_logprobs: int | None = None, image_format: str = "png",
                 jpeg_quality: int = 85, include_url: bool = True, max_actions_per_reply: int = 8,
                 system_prompt: str | None = None, send_tools: bool | None = None, tool_screenshots: bool = False,
                 extra_body: dict | None = None, extra_headers: dict | None = None, **kw: Any):
        super().__init__(**kw)
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key = api_key if api_key is not None else (os.environ.get("UIGYM_API_KEY")
                                                            or os.environ.get("OPENAI_API_KEY"))
        self.format = get_format(format)
        self.coords = coords
        self.image_size = _size(image_size)
        self.max_pixels = int(max_pixels) if max_pixels else None
        self.min_pixels = int(min_pixels)
        self.history_images = max(0, int(history_images))
        self.history_turns = int(history_turns) if history_turns else None
        self.temperature = float(temperature)
        self.top_p = top_p
        self.seed = seed
        self.max_tokens = int(max_tokens)
        self.timeout = float(timeout)
        self.retries = int(retries)
        self.backoff = float(backoff)
        self.logprobs = bool(logprobs)
        self.top_logprobs = top_logprobs
        self.image_format = image_format.lower()
        self.jpeg_quality = int(jpeg_quality)
        self.include_url = include_url
        self.max_actions_per_reply = max(1, int(max_actions_per_reply))
        self.system_prompt_override = system_prompt
        self.send_tools = self.format.uses_tools if send_tools is None else bool(send_tools)
        # Screenshots after a tool call travel in the tool result (as in RL rollouts), not in a new user turn.
        self.tool_screenshots = bool(tool_screenshots) and self.send_tools
        self.extra_body = dict(extra_body or {})
        self.extra_headers = dict(extra_headers or {})
        self._client: httpx.AsyncClient | None = None
        self.last_parse_error = ""
        self.ctx: FormatContext | None = None

    # ---------------------------------------------------------------- episode
    def model_image_size(self, screen: tuple[int, int]) -> tuple[int, int]:
        if self.image_size:
            return self.image_size
        if self.max_pixels:
            return smart_resize(screen[0], screen[1], min_pixels=self.min_pixels, max_pixels=self.max_pixels)
        return screen

    def request_seed(self) -> int:
        """The sampling seed of the next request, from `seed`, the task, the sample and the call's index.

        One seed for every request would make `--samples N` draw the same reply N times (a seeded server
        restarts its generator per request), and every task that starts from the same prompt would open the
        same way: the samples of a pass@k or a spread would not be independent. Derived seeds keep a run
        reproducible and its draws independent. A 31-bit value, which every server accepts."""
        key = f"{self.seed}:{self.task.id if self.task else ''}:{int(self.episode_sample or 0)}:{self.n_calls}"
        return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=4).digest(), "big") >> 1

    async def reset(self, env, task) -> None:
        await super().reset(env, task)
        screen = (env.width, env.height)
        self.ctx = FormatContext(screen=screen, image=self.model_image_size(screen), coords=self.coords,
                                 tabs=tuple(getattr(env, "tab_names", ()) or ()))  # the workspace env's tabs
        self.turns: list[dict] = []  # user/assistant/tool messages after the system prompt
        self.queue: list[dict] = []
        self.feedback: list[str] = []
        self.pending_tool_ids: list[str] = []
        self.n_calls = 0
        self.parse_errors = 0
        self.last_parse_error = ""
        self.last_text = ""
        self.last_usage = {}
        # Hybrid mode: the app's tools beside the format's actions; each call's result goes back as its tool message.
        self.app_tools = [t for t in await env.tools() if t["function"]["name"] != "done"] \
            if getattr(getattr(env, "config", None), "tools", False) else []
        self.app_tool_names = {t["function"]["name"] for t in self.app_tools}
        self.app_results: dict[str, str] = {}
        self._app_call: str | None = None  # the app call whose result the next observation holds
        if self.model is None:
            self.model = await self._default_model()

    def system_message(self) -> str:
        base = self.system_prompt_override or self.format.system_prompt(self.ctx)
        if self.app_tools:
            base += ("\n\nBesides the screen, you can call the app's tools (functions) directly; their results come "
                     "back as tool messages, and the screen shows what they changed.")
        return base

    def _split_app_calls(self, reply: Reply) -> tuple[list[dict], Reply]:
        """Hybrid mode: the reply's calls of app tools as uigym tool actions, and the rest of the reply."""
        if not self.app_tool_names:
            return [], reply
        actions, rest = [], []
        for i, tc in enumerate(reply.tool_calls):
            if tc.name in self.app_tool_names:
                tid = tc.id or f"call_{self.n_calls}_{i}"
                try:
                    args = tc.args()
                except Exception:  # noqa: BLE001 - unreadable arguments: the app refuses them and says so
                    args = {"__unreadable_arguments__": str(tc.arguments)[:200]}
                actions.append({"type": "tool", "name": tc.name, "args": args, "_call_id": tid})
            else:
                rest.append(tc)
        return actions, Reply(content=reply.content, tool_calls=rest, reasoning=reply.reasoning)

    # -------------------------------------------------------------------- act
    async def act(self, obs: dict) -> dict:
        self.last_parse_error = ""
        if self._app_call is not None:
            self.app_results[self._app_call] = tool_result_text(obs.get("tool_result"), obs.get("last_action_error"))
            self._app_call = None
        if self.queue:  # the rest of a multi-action reply; the model is asked again after the last one
            self.last_text, self.last_usage = "", {"queued": True}
            if obs.get("last_action_error"):
                self.queue.clear()  # the plan went wrong: show the model what happened
            else:
                return self._emit(self.queue.pop(0))
        self._add_observation(obs)
        body = self._request_body()
        t0 = time.perf_counter()
        data, retries = await self._post("/chat/completions", body)
        latency = (time.perf_counter() - t0) * 1000
        self.n_calls += 1
        choice = (data.get("choices") or [{}])[0]
        message = choice.get("message") or {}
        reply = Reply.of(message)
        usage = data.get("usage") or {}
        self.last_usage = {
            "prompt_tokens": int(usage.get("prompt_tokens") or 0),
            "completion_tokens": int(usage.get("completion_tokens") or 0),
            "total_tokens": int(usage.get("total_tokens") or 0)
            or int(usage.get("prompt_tokens") or 0) + int(usage.get("completion_tokens") or 0),
            "latency_ms": round(latency, 1),
            "retries": retries,
            "finish_reason": choice.get("finish_reason"),
        }
        self._record_logprobs(choice)
        self.last_text = reply_text(reply)
        self._add_assistant(message, reply)
        app_actions, reply = self._split_app_calls(reply)
        try:
            try:
                actions = self.format.parse(reply, self.ctx).actions if (reply.content or reply.tool_calls
                                                                         or not app_actions) else []
            except ParseError:
                if not app_actions:
                    raise
                actions = []
            actions = app_actions + actions
            if not actions:
                raise ParseError("the reply holds no action")
        except ParseError as e:
            self.parse_errors += 1
            self.last_parse_error = str(e)
            self.feedback.append(f"Your last reply could not be used: {e}")
            return NOOP
        self.queue = actions[1:self.max_actions_per_reply]
        return self._emit(actions[0])

    def _emit(self, action: dict) -> dict:
        if action.get("type") == "tool":
            action = dict(action)
            self._app_call = action.pop("_call_id", None)
            return action
        if "x" in action and "y" in action:
            self.ctx.cursor = (action["x"], action["y"])
        elif action.get("type") == "drag":
            self.ctx.cursor = tuple(action["path"][-1])
        return action

    # ------------------------------------------------------------ messages
    def _image_url(self, obs: dict) -> str:
        size = self.ctx.image
        png = self.env.last_png if self.env is not None else None
        if self.image_format == "png" and size == self.ctx.screen and png is not None and obs.get("screenshot") is not None \
                and tuple(obs["screenshot"].shape[1::-1]) == self.ctx.screen:
            data, mime = png, "image/png"  # the same pixels as obs["screenshot"], already encoded
        else:
            im = Image.fromarray(obs["screenshot"])
            if im.size != size:
                im = im.resize(size, Image.Resampling.BICUBIC)
            buf = io.BytesIO()
            if self.image_format in ("jpg", "jpeg"):
                im.save(buf, format="JPEG", quality=self.jpeg_quality)
                mime = "image/jpeg"
            else:
                im.save(buf, format="PNG", compress_level=1)
                mime = "image/png"
            data = buf.getvalue()
        return f"data:{mime};base64,{base64.b64encode(data).decode()}"

    def _add_observation(self, obs: dict) -> None:
        goal = None if self.turns else (self.task.goal if self.task else obs.get("goal", ""))
        problems = list(self.feedback)
        self.feedback = []
        if obs.get("last_action_error"):
            problems.append(f"The last action failed: {obs['last_action_error']}")
        text = observation_text(obs, goal=goal, problems=problems, include_url=self.include_url)
        image = {"type": "image_url", "image_url": {"url": self._image_url(obs)}}
        if self.pending_tool_ids and self.tool_screenshots:
            # The RL environment's layout: the new screen is the result of the (last) tool call.
            *others, last = self.pending_tool_ids
            for tid in others:
                self.turns.append({"role": "tool", "tool_call_id": tid,
                                   "content": self.app_results.pop(tid, None) or self.format.tool_result_text})
            own = self.app_results.pop(last, None)  # an app tool's result (hybrid), before the new screen
            self.turns.append({"role": "tool", "tool_call_id": last,
                               "content": [{"type": "text", "text": f"{own}\n{text}" if own else text}, image]})
            self.pending_tool_ids = []
            return
        if self.pending_tool_ids:  # tool calls need their results before the next user message
            result = " ".join(problems) or self.format.tool_result_text
            for tid in self.pending_tool_ids:
                content = self.app_results.pop(tid, None) or result  # an app tool's own result (hybrid mode)
                self.turns.append({"role": "tool", "tool_call_id": tid, "content": content})
            self.pending_tool_ids = []
        self.turns.append({"role": "user", "content": [{"type": "text", "text": text}, image]})

    def _add_assistant(self, message: dict, reply: Reply) -> None:
        msg: dict[str, Any] = {"role": "assistant", "content": reply.content or ""}
        if reply.tool_calls:
            calls = []
            for i, tc in enumerate(reply.tool_calls):
                tid = tc.id or f"call_{self.n_calls}_{i}"
                args = tc.arguments if isinstance(tc.arguments, str) else json.dumps(tc.arguments)
                calls.append({"id": tid, "type": "function", "function": {"name": tc.name, "arguments": args}})
                self.pending_tool_ids.append(tid)
            msg["tool_calls"] = calls
        self.turns.append(msg)

    def request_messages(self) -> list[dict]:
        """The messages to send: system, then the turns, with only the last K screenshots as images."""
        turns = self.turns
        if self.history_turns:
            users = [i for i, m in enumerate(turns) if m["role"] == "user"]
            if len(users) > self.history_turns:
                cut = users[-self.history_turns]
                first = turns[0]  # keeps the task statement
                goal = next((p["text"] for p in first["content"] if p.get("type") == "text"), "")
                turns = [{"role": "user", "content": goal.split("\n")[0] + "\n(earlier steps omitted)"},
                         {"role": "assistant", "content": "OK."}] + turns[cut:]
        with_images = [i for i, m in enumerate(turns) if m["role"] in ("user", "tool") and isinstance(m["content"], list)
                       and any(p.get("type") == "image_url" for p in m["content"])]
        keep = set(with_images[-self.history_images:]) if self.history_images else set()
        out = [{"role": "system", "content": self.system_message()}]
        for i, m in enumerate(turns):
            if i in with_images and i not in keep:
                m = {**m, "content": [
                    p if p.get("type") != "image_url" else {"type": "text", "text": "[an earlier screenshot, omitted]"}
                    for p in m["content"]]}
            out.append(m)
        return out

    def _request_body(self) -> dict:
        body: dict[str, Any] = {"model": self.model, "messages": self.request_messages(),
                                "max_tokens": self.max_tokens, "temperature": self.temperature}
        if self.seed is not None:
            body["seed"] = self.request_seed()
        tools = list(self.format.tools(self.ctx) or []) if self.send_tools else []
        tools += self.app_tools
        if tools:
            body["tools"] = tools
        self._add_sampling_options(body)
        body.update(self.extra_body)
        return body

    def _add_sampling_options(self, body: dict) -> None:
        """top_p and logprobs, as asked for (every request this agent or a subclass sends)."""
        if self.top_p is not None:
            body["top_p"] = self.top_p
        if self.logprobs:
            body["logprobs"] = True
            if self.top_logprobs:
                body["top_logprobs"] = int(self.top_logprobs)

    def _record_logprobs(self, choice: dict) -> None:
        """The reply's summed logprob and its token count into last_usage (when the server sent them)."""
        lp = (choice.get("logprobs") or {}).get("content") if isinstance(choice.get("logprobs"), dict) else None
        if lp:
            self.last_usage["logprob_sum"] = round(sum(float(t.get("logprob", 0.0)) for t in lp), 4)
            self.last_usage["logprob_tokens"] = len(lp)

    # ------------------------------------------------------------------ HTTP
    @property
    def client(self) -> httpx.AsyncClient:
        if self._client is None:
            headers = {"Content-Type": "application/json", **self.extra_headers}
            if self.api_key:
                headers["Authorization"] = f"Bearer {self.api_key}"
            self._client = httpx.AsyncClient(headers=headers, timeout=self.timeout,
                                             limits=httpx.Limits(max_connections=16))
        return self._client

    async def _post(self, path: str, body: dict) -> tuple[dict, int]:
        return await self._request("POST", path, body)

    async def _request(self, method: str, path: str, body: dict | None = None) -> tuple[dict, int]:
        url = self.base_url + path
        last = ""
        for attempt in range(self.retries + 1):
            wait = None
            try:
                r = await self.client.request(method, url, json=body, timeout=self.timeout)
            except httpx.TimeoutException:
                last = f"timed out after {self.timeout:.0f}s"
            except httpx.TransportError as e:
                last = f"{type(e).__name__}: {e}"
            else:
                if r.status_code == 200:
                    try:
                        return r.json(), attempt
                    except json.JSONDecodeError:
                        last = f"HTTP 200 with a body that is not JSON: {r.text[:200]!r}"
                elif r.status_code in (408, 409, 425, 429) or r.status_code >= 500:
                    last = f"HTTP {r.status_code}: {r.text[:300]}"
                    ra = r.headers.get("retry-after")
                    if ra:
                        try:
                            wait = min(float(ra), 60.0)
                        except ValueError:
                            pass
                else:
                    raise ModelError(f"{method} {url} -> HTTP {r.status_code}: {r.text[:500]}")
            if attempt < self.retries:
                delay = wait if wait is not None else min(self.backoff * 2 ** attempt, 30.0) * (0.5 + random.random())
                await asyncio.sleep(delay)
        raise ModelError(f"{method} {url} failed after {self.retries + 1} tries: {last}")

    async def _default_model(self) -> str:
        """The first model the server lists (vLLM and `uigym serve` serve one)."""
        data, _ = await self._request("GET", "/models")
        models = data.get("data") or []
        if not models:
            raise ModelError(f"{self.base_url}/models lists no model; pass --model")
        return models[0]["id"]

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

