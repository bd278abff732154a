"""A tiny, random Qwen2.5-VL made on the spot: for tests and CPU smoke runs (nothing is downloaded).

    from agent_harness.models import build_tiny_qwen25vl
    path = build_tiny_qwen25vl("/tmp/tiny-vlm")          # a few seconds on a CPU
    model = AutoModelForImageTextToText.from_pretrained(path)
    processor = AutoProcessor.from_pretrained(path)

What is in the folder is what a real Qwen2.5-VL checkpoint has, only small:
- config.json: Qwen2_5_VLForConditionalGeneration, text hidden 64 x 2 layers, vision tower 2 blocks of 32;
- a byte-level BPE tokenizer trained here on uigym's own prompt and action texts (plus a recipe's own
  training prompts when `corpus_file` is given), with Qwen's special
  tokens (<|im_start|>, <|vision_start|>, <|image_pad|>, ...) and `<tool_call>` tags;
- a chat template that takes OpenAI-style messages: image parts (`image` or `image_url`), tools,
  assistant `tool_calls` (rendered as Qwen's `<tool_call>{...}</tool_call>`), `tool` messages; the
  assistant turns are wrapped in `{% generation %}` so SFT can ask for assistant-token masks;
- an image processor with a small `max_pixels` (a 1280x720 screenshot becomes 64 image tokens).

The weights are random: the model's replies are noise, which is what a test of the plumbing
(serving, parsing errors, eval, reports, training steps) wants. `cached_tiny_qwen25vl()` builds
it once per configuration under $UIGYM_HOME/models/.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

TINY_DEFAULTS: dict[str, Any] = {
    "hidden_size": 64,
    "num_layers": 2,
    "num_heads": 4,
    "num_kv_heads": 2,
    "intermediate_size": 128,
    "vision_depth": 2,
    "vision_hidden": 32,
    "vision_heads": 2,
    "vocab_target": 1200,
    "min_pixels": 28 * 28 * 4,
    "max_pixels": 28 * 28 * 64,
    "seed": 0,
}

# Optional (not in the defaults, so the cache keys of models built without them stay as they were):
#   "local_window": N attends each token to the last N tokens only in every layer but the last (Mistral-style
#   sliding-window layers); the last layer sees the whole context. None: every layer sees everything.

CORPUS_VERSION = 2  # bump when _corpus() changes, so cached tiny models are rebuilt

SPECIAL_TOKENS = [
    "<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|object_ref_start|>", "<|object_ref_end|>",
    "<|box_start|>", "<|box_end|>", "<|quad_start|>", "<|quad_end|>", "<|vision_start|>", "<|vision_end|>",
    "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>",
]
# Added (not special) tokens, as in Qwen2.5: they survive decoding with skip_special_tokens.
ADDED_TOKENS = ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>"]

CHAT_TEMPLATE = r"""{%- macro render_content(content) -%}
    {%- if content is string -%}
        {{- content -}}
    {%- elif content is iterable -%}
        {%- for part in content -%}
            {%- if part['type'] in ('image', 'image_url') or 'image' in part or 'image_url' in part -%}
                {{- '<|vision_start|><|image_pad|><|vision_end|>' -}}
            {%- elif 'text' in part -%}
                {{- part['text'] -}}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
{%- endmacro -%}
{%- if messages[0]['role'] == 'system' -%}
    {%- set system_text = render_content(messages[0]['content']) -%}
{%- else -%}
    {%- set system_text = 'You are a helpful assistant.' -%}
{%- endif -%}
{{- '<|im_start|>system\n' + system_text -}}
{%- if tools -%}
    {{- '\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>' -}}
    {%- for tool in tools -%}
        {{- '\n' -}}
        {{- tool | tojson -}}
    {%- endfor -%}
    {{- '\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>' -}}
{%- endif -%}
{{- '<|im_end|>\n' -}}
{%- for message in messages -%}
    {%- if message['role'] == 'system' and loop.first -%}
    {%- elif message['role'] == 'assistant' -%}
        {{- '<|im_start|>assistant\n' -}}
        {%- generation -%}
        {{- render_content(message['content']) -}}
        {%- if message['tool_calls'] is defined and message['tool_calls'] -%}
            {%- for tc in message['tool_calls'] -%}
                {%- if tc['function'] is defined -%}
                    {%- set f = tc['function'] -%}
                {%- else -%}
                    {%- set f = tc -%}
                {%- endif -%}
                {%- if message['content'] or not loop.first -%}
                    {{- '\n' -}}
                {%- endif -%}
                {{- '<tool_call>\n{"name": "' + f['name'] + '", "arguments": ' -}}
                {%- if f['arguments'] is string -%}
                    {{- f['arguments'] -}}
                {%- else -%}
                    {{- f['arguments'] | tojson -}}
                {%- endif -%}
                {{- '}\n</tool_call>' -}}
            {%- endfor -%}
        {%- endif -%}
        {{- '<|im_end|>' -}}
        {%- endgeneration -%}
        {{- '\n' -}}
    {%- elif message['role'] == 'tool' -%}
        {%- if loop.first or messages[loop.index0 - 1]['role'] != 'tool' -%}
            {{- '<|im_start|>user' -}}
        {%- endif -%}
        {{- '\n<tool_response>\n' + render_content(message['content']) + '\n</tool_response>' -}}
        {%- if loop.last or messages[loop.index0 + 1]['role'] != 'tool' -%}
            {{- '<|im_end|>\n' -}}
        {%- endif -%}
    {%- else -%}
        {{- '<|im_start|>' + message['role'] + '\n' + render_content(message['content']) + '<|im_end|>\n' -}}
    {%- endif -%}
{%- endfor -%}
{%- if add_generation_prompt -%}
    {{- '<|im_start|>assistant\n' -}}
{%- endif -%}"""


def _corpus() -> list[str]:
    """What the tokenizer learns from: uigym's own prompts and action texts, and some plain words."""
    texts: list[str] = []
    try:
        from agent_harness.formats import FORMATS, FormatContext, sample_actions

        ctx = FormatContext(screen=(1280, 720), image=(1280, 720))
        for fmt in FORMATS.values():
            texts.append(fmt.system_prompt(ctx))
            if fmt.uses_tools:  # tool schemas sit in every tool-calling prompt: learn them, keep prompts short
                texts.extend(json.dumps(t) for t in fmt.tools(ctx) or [])
            for a in sample_actions():
                r = fmt.render(a, ctx, thought="I should click the button to continue.")
                texts.append(r.text())
    except Exception:  # noqa: BLE001 - the corpus is only a help; the plain text below suffices
        pass
    words = ("the a to of and in is it you that for on with as are this be at or from by not your have "
             "click type press scroll drag move wait done answer button link email inbox star reply send "
             "open search menu order cart restaurant account contact opportunity task goal screen action "
             "Thought Action tool_call name arguments x y coordinate left right up down enter escape tab").split()
    texts.append(" ".join(words) * 4)
    texts.append("# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with "
                 "function signatures within <tools></tools> XML tags:\n<tools>\n</tools>\n\nFor each function call, "
                 "return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n"
                 "<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>")
    texts.append("0123456789 " * 20 + "{}[]()<>:;,.'\"!?/\\|-_=+*&^%$#@~`\n\t")
    return texts


def _train_tokenizer(vocab_target: int, extra_corpus: list[str] | None = None):
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers
    from transformers import AddedToken
    from transformers.models.qwen2.tokenization_qwen2 import PRETOKENIZE_REGEX, Qwen2Tokenizer

    tok = Tokenizer(models.BPE())
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(PRETOKENIZE_REGEX), behavior="isolated", invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_target, min_frequency=1, show_progress=False,
                                  special_tokens=["<|endoftext|>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(_corpus() + list(extra_corpus or []), trainer=trainer)
    data = json.loads(tok.to_str())
    vocab = data["model"]["vocab"]
    merges = [tuple(m) if isinstance(m, list) else tuple(m.split(" ", 1)) for m in data["model"]["merges"]]
    qt = Qwen2Tokenizer(vocab=vocab, merges=merges, unk_token="<|endoftext|>", eos_token="<|im_end|>",
                        pad_token="<|endoftext|>", errors="replace", model_max_length=32768)
    qt.add_tokens([AddedToken(t, special=True, normalized=False) for t in SPECIAL_TOKENS], special_tokens=True)
    qt.add_tokens([AddedToken(t, special=False, normalized=False) for t in ADDED_TOKENS])
    qt.chat_template = CHAT_TEMPLATE
    return qt


def stop_greedy(model, ids: dict[str, int]) -> None:
    """A tiny model's generation config: it stops at <|im_end|> (or <|endoftext|>), pads with <|endoftext|>, greedy."""
    model.generation_config.eos_token_id = [ids["<|im_end|>"], ids["<|endoftext|>"]]
    model.generation_config.pad_token_id = ids["<|endoftext|>"]
    model.generation_config.do_sample = False


def build_tiny_qwen25vl(path: str | os.PathLike, **overrides: Any) -> Path:
    """Write a random tiny Qwen2.5-VL (config, safetensors, tokenizer, processor) to `path`."""
    import torch
    from transformers import (
        Qwen2_5_VLConfig, Qwen2_5_VLForConditionalGeneration, Qwen2_5_VLProcessor, Qwen2VLImageProcessor,
    )
    from transformers.models.qwen2_vl.video_processing_qwen2_vl import Qwen2VLVideoProcessor

    p = {**TINY_DEFAULTS, **overrides}
    out = Path(path)
    out.mkdir(parents=True, exist_ok=True)
    tok = _train_tokenizer(p["vocab_target"], _extra_corpus(p.get("corpus_file")))
    ids = {t: tok.convert_tokens_to_ids(t) for t in SPECIAL_TOKENS}
    vocab_size = ((len(tok) + 63) // 64) * 64
    head_dim = p["hidden_size"] // p["num_heads"]
    half = head_dim // 2
    mrope = [half // 4, (half - half // 4) // 2, half - half // 4 - (half - half // 4) // 2]
    window = p.get("local_window")
    local = {"use_sliding_window": True, "sliding_window": int(window), "max_window_layers": 0,
             "layer_types": ["sliding_attention"] * (p["num_layers"] - 1) + ["full_attention"]} if window else {}
    config = Qwen2_5_VLConfig(
        text_config={
            "vocab_size": vocab_size, "hidden_size": p["hidden_size"], "intermediate_size": p["intermediate_size"],
            "num_hidden_layers": p["num_layers"], "num_attention_heads": p["num_heads"],
            "num_key_value_heads": p["num_kv_heads"], "max_position_embeddings": 32768,
            "rope_scaling": {"type": "mrope", "mrope_section": mrope, "rope_theta": 1000000.0},
            "bos_token_id": ids["<|endoftext|>"], "eos_token_id": ids["<|im_end|>"],
            "pad_token_id": ids["<|endoftext|>"], "tie_word_embeddings": True, **local,
        },
        vision_config={
            "depth": p["vision_depth"], "hidden_size": p["vision_hidden"], "intermediate_size": p["vision_hidden"] * 2,
            "num_heads": p["vision_heads"], "out_hidden_size": p["hidden_size"], "patch_size": 14,
            "spatial_merge_size": 2, "temporal_patch_size": 2, "window_size": 112,
            "fullatt_block_indexes": [p["vision_depth"] - 1],
        },
        image_token_id=ids["<|image_pad|>"], video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"], vision_end_token_id=ids["<|vision_end|>"],
        bos_token_id=ids["<|endoftext|>"], eos_token_id=ids["<|im_end|>"], pad_token_id=ids["<|endoftext|>"],
        tie_word_embeddings=True,
    )
    torch.manual_seed(p["seed"])
    model = Qwen2_5_VLForConditionalGeneration(config)
    stop_greedy(model, ids)
    model.save_pretrained(out)
    image_processor = Qwen2VLImageProcessor(min_pixels=p["min_pixels"], max_pixels=p["max_pixels"],
                                            patch_size=14, temporal_patch_size=2, merge_size=2)
    video_processor = Qwen2VLVideoProcessor(min_pixels=p["min_pixels"], max_pixels=p["max_pixels"],
                                            patch_size=14, temporal_patch_size=2, merge_size=2)
    processor = Qwen2_5_VLProcessor(image_processor=image_processor, tokenizer=tok, video_processor=video_processor,
                                    chat_template=CHAT_TEMPLATE)
    processor.save_pretrained(out)
    (out / "uigym_tiny.json").write_text(json.dumps({"builder": "agent_harness.models.tiny", "params": p}, indent=1))
    return out


def _extra_corpus(path: str | None) -> list[str]:
    """More texts for the tokenizer, one JSON string per line (`corpus_file`): a recipe's own training
    prompts, so a small vocabulary spends its merges on them and the prompts come out shorter."""
    if not path:
        return []
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def _home() -> Path:
    return Path(os.environ.get("UIGYM_HOME") or Path.home() / ".cache" / "uigym")


def cached_tiny_qwen25vl(root: str | os.PathLike | None = None, **overrides: Any) -> Path:
    """The tiny model for these settings, built once (atomically, so parallel callers are safe)."""
    import transformers

    p = {**TINY_DEFAULTS, **overrides}
    extra = _extra_corpus(p.get("corpus_file"))  # by content: the same path may hold another corpus later
    key = hashlib.sha256(json.dumps([p, transformers.__version__, CHAT_TEMPLATE, CORPUS_VERSION]
                                    + ([extra] if extra else []), sort_keys=True).encode()).hexdigest()[:12]
    base = Path(root) if root else _home() / "models"
    final = base / f"tiny-qwen2.5-vl-{key}"
    if (final / "uigym_tiny.json").exists():
        return final
    base.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".tiny-", dir=base))
    try:
        build_tiny_qwen25vl(tmp, **overrides)
        try:
            tmp.rename(final)
        except OSError:  # someone else finished first
            pass
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return final
