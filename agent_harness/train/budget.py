"""Token budgets of a multi-turn rollout, measured with the model's own processor, checked before training.

In a TRL rollout the whole episode after the first screenshot is one completion: every reply, and every
tool result with its screenshot. Screenshot tokens count against `max_completion_length`, and TRL drops a
tool result that would overflow it without a word (the episode then ends early). So the budget is computed
up front from `max_pixels` and the episode length, and a run whose budget cannot hold a full episode
fails here, with the numbers:

    completion = (turns + 1) x reply_tokens + turns x result_tokens
    result     = template tokens + text tokens (capped) + image tokens of one screenshot
    prompt     = system prompt + tools + task text + first screenshot
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from PIL import Image


class TokenBudgetError(ValueError):
    """The configured lengths cannot hold a full episode."""


@dataclass
class TokenBudget:
    screen: tuple[int, int]
    image_size: tuple[int, int]
    max_pixels: int
    image_tokens: int  # one screenshot
    result_overhead: int  # a tool result's template tokens (role header, tags), without text or image
    result_text_tokens: int  # a tool result's text is cut to this
    reply_tokens: int  # each reply is cut to this (generation's max new tokens per turn)
    turns: int  # actions per episode at most
    prompt_tokens: int  # the longest prompt: system, tools, task, first screenshot

    @property
    def result_tokens(self) -> int:
        return self.result_overhead + self.result_text_tokens + self.image_tokens

    @property
    def completion_tokens(self) -> int:
        return (self.turns + 1) * self.reply_tokens + self.turns * self.result_tokens

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def explain(self) -> str:
        w, h = self.image_size
        return (f"an episode of up to {self.turns} actions needs {self.completion_tokens} completion tokens = "
                f"{self.turns + 1} replies x {self.reply_tokens} + {self.turns} tool results x {self.result_tokens} "
                f"(each: {self.image_tokens} image tokens for a {w}x{h} screenshot at max_pixels={self.max_pixels}, "
                f"up to {self.result_text_tokens} text tokens, {self.result_overhead} template tokens); "
                f"the prompt (system, tools, task, first screenshot) takes up to {self.prompt_tokens}")

    def check(self, max_completion_length: int | None = None, max_model_len: int | None = None,
              what_model_len: str = "the model's context") -> None:
        """Raise TokenBudgetError unless a full episode fits."""
        fixes = "raise it, or lower max_pixels, reply_tokens or max_turns"
        if max_completion_length is not None and max_completion_length < self.completion_tokens:
            raise TokenBudgetError(
                f"max_completion_length={max_completion_length} is too small: {self.explain()}. TRL would drop the "
                f"tool results that do not fit without a word. Need max_completion_length >= "
                f"{self.completion_tokens}; {fixes}.")
        if max_model_len is not None and max_model_len < self.total_tokens:
            raise TokenBudgetError(
                f"{what_model_len} ({max_model_len} tokens) is too small: {self.explain()}; prompt + completion = "
                f"{self.total_tokens} tokens. {fixes[0].upper() + fixes[1:]}.")

    def as_dict(self) -> dict:
        d = asdict(self)
        d.update(result_tokens=self.result_tokens, completion_tokens=self.completion_tokens,
                 total_tokens=self.total_tokens)
        return d


def _ids(processor, messages: list[dict], **kw) -> list[int]:
    out = processor.apply_chat_template(messages, tokenize=True, return_dict=False, **kw)
    return list(out[0]) if out and isinstance(out[0], (list, tuple)) else list(out)


def image_factor(processor) -> int:
    """Sides of the model's image tiles: patch size x merge size (28 for Qwen2.5-VL, 32 for Qwen3-VL)."""
    ip = processor.image_processor
    return int(getattr(ip, "patch_size", 14)) * int(getattr(ip, "merge_size", 2))


def processor_pixels(processor) -> tuple[int, int]:
    """(min_pixels, max_pixels) the image processor keeps an image within."""
    ip = processor.image_processor
    size = getattr(ip, "size", None) or {}
    lo = size.get("shortest_edge") or getattr(ip, "min_pixels", None) or 56 * 56
    hi = size.get("longest_edge") or getattr(ip, "max_pixels", None) or 28 * 28 * 1280
    return int(lo), int(hi)


def measure_text(processor, *, turns: int, reply_tokens: int, result_text_tokens: int, system_prompt: str,
                 tools: list[dict], task_texts: list[str]) -> TokenBudget:
    """The budget of a tool-mode episode: no screenshots, the results' text and the template around them."""
    tok = getattr(processor, "tokenizer", processor)
    call = [{"type": "function", "function": {"name": "done", "arguments": {}}}]
    head = [{"role": "user", "content": [{"type": "text", "text": "dummy"}]},
            {"role": "assistant", "content": [{"type": "text", "text": ""}], "tool_calls": call}]
    tool = {"role": "tool", "name": "done", "content": [{"type": "text", "text": ""}]}
    prefix = _ids(processor, head)
    full = _ids(processor, head + [tool], add_generation_prompt=True)
    ends = [i for i, t in enumerate(prefix) if t == tok.eos_token_id]
    if ends:
        prefix = prefix[: ends[-1] + 1]
    overhead = len(full) - len(prefix) + 2
    longest = max(task_texts, key=lambda s: len(tok(s, add_special_tokens=False)["input_ids"])) if task_texts else ""
    prompt = [{"role": "system", "content": [{"type": "text", "text": system_prompt}]},
              {"role": "user", "content": [{"type": "text", "text": longest}]}]
    n_prompt = len(_ids(processor, prompt, tools=tools, add_generation_prompt=True)) + 2
    return TokenBudget(screen=(0, 0), image_size=(0, 0), max_pixels=0, image_tokens=0, result_overhead=overhead,
                       result_text_tokens=int(result_text_tokens), reply_tokens=int(reply_tokens), turns=int(turns),
                       prompt_tokens=n_prompt)


def measure(processor, *, screen: tuple[int, int], image_size: tuple[int, int], max_pixels: int, turns: int,
            reply_tokens: int, result_text_tokens: int, system_prompt: str, tools: list[dict],
            task_texts: list[str]) -> TokenBudget:
    """The budget of an episode, counted with `processor` (its chat template must be the training one)."""
    image = Image.new("RGB", tuple(image_size), (255, 255, 255))
    grid = processor.image_processor(images=[image], return_tensors="pt")["image_grid_thw"][0].tolist()
    merge = int(getattr(processor.image_processor, "merge_size", 2))
    patch = int(getattr(processor.image_processor, "patch_size", 14))
    t, gh, gw = (int(v) for v in grid)
    if (gw * patch, gh * patch) != tuple(image_size):
        lo, hi = processor_pixels(processor)
        raise TokenBudgetError(
            f"the processor resizes the {image_size[0]}x{image_size[1]} screenshots to {gw * patch}x{gh * patch} "
            f"(its pixel range is {lo}..{hi}); the model's coordinates would not be those of the screenshot. "
            f"Pick max_pixels within the processor's range.")
    n_image = t * gh * gw // (merge * merge)

    # A tool result, as TRL renders it (trl GRPOTrainer._get_tool_suffix_ids): the tokens after the assistant's turn.
    call = [{"type": "function", "function": {"name": "click", "arguments": {"x": 1, "y": 2}}}]
    head = [{"role": "user", "content": [{"type": "text", "text": "dummy"}]},
            {"role": "assistant", "content": [{"type": "text", "text": ""}], "tool_calls": call}]
    tool = {"role": "tool", "name": "click", "content": [{"type": "text", "text": ""}, {"type": "image", "image": image}]}
    prefix = _ids(processor, head)
    full = _ids(processor, head + [tool], add_generation_prompt=True)
    eos = processor.tokenizer.eos_token_id
    ends = [i for i, tok in enumerate(prefix) if tok == eos]
    if ends:
        prefix = prefix[: ends[-1] + 1]
    overhead = len(full) - len(prefix) - n_image
    overhead += 2  # text boundaries may merge or split a token either side

    tok = processor.tokenizer
    longest = max(task_texts, key=lambda s: len(tok(s, add_special_tokens=False)["input_ids"])) if task_texts else ""
    prompt = [{"role": "system", "content": [{"type": "text", "text": system_prompt}]},
              {"role": "user", "content": [{"type": "text", "text": longest}, {"type": "image", "image": image}]}]
    processed = processor.apply_chat_template(prompt, tools=tools, add_generation_prompt=True, tokenize=True,
                                              return_dict=True)
    n_prompt = len(processed["input_ids"][0]) + 2
    return TokenBudget(screen=tuple(screen), image_size=tuple(image_size), max_pixels=int(max_pixels),
                       image_tokens=n_image, result_overhead=overhead, result_text_tokens=int(result_text_tokens),
                       reply_tokens=int(reply_tokens), turns=int(turns), prompt_tokens=n_prompt)
