"""Tiny random models that vLLM's CPU engine serves (nothing downloaded): a Qwen2.5-VL for UI mode and a
Qwen2 text model for tool mode, both with the tokenizer and chat template of `agent_harness.models.tiny`.

vLLM's CPU attention refuses a head_dim of 16 ("Unsupported CPU attention configuration"), which is what
`tiny.TINY_DEFAULTS` gives (hidden 64, 4 heads); here the text stack is hidden 128 with 2 heads (head_dim
64), 2 layers. Still random weights: the replies are noise, which is what a test of the plumbing wants.

    from agent_harness.models.tiny_vllm import build_vllm_tiny_models
    paths = build_vllm_tiny_models("/tmp/vllm-models")   # {"vlm": Path, "text": Path}

`uigym vllm tiny-models DIR` does the same from the command line.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from agent_harness.models.tiny import (CHAT_TEMPLATE, SPECIAL_TOKENS, TINY_DEFAULTS, _train_tokenizer,
                                      build_tiny_qwen25vl, stop_greedy)

# The text stack's shape vLLM's CPU attention takes: head_dim = hidden / heads = 64.
VLLM_CPU_DIMS: dict[str, Any] = {"hidden_size": 128, "num_heads": 2, "num_kv_heads": 2, "intermediate_size": 256,
                                 "num_layers": 2}


def build_vllm_tiny_vlm(path: str | os.PathLike, **overrides: Any) -> Path:
    """A tiny random Qwen2.5-VL (vision tower + text) at dimensions vLLM's CPU engine serves."""
    return build_tiny_qwen25vl(path, **{**VLLM_CPU_DIMS, **overrides})


def build_vllm_tiny_text(path: str | os.PathLike, **overrides: Any) -> Path:
    """A tiny random Qwen2 causal LM (text only: tool mode) with the same tokenizer and chat template."""
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    p = {**TINY_DEFAULTS, **VLLM_CPU_DIMS, **overrides}
    out = Path(path)
    out.mkdir(parents=True, exist_ok=True)
    tok = _train_tokenizer(p["vocab_target"])
    ids = {t: tok.convert_tokens_to_ids(t) for t in SPECIAL_TOKENS}
    config = Qwen2Config(
        vocab_size=((len(tok) + 63) // 64) * 64, hidden_size=p["hidden_size"],
        intermediate_size=p["intermediate_size"], num_hidden_layers=p["num_layers"],
        num_attention_heads=p["num_heads"], num_key_value_heads=p["num_kv_heads"], max_position_embeddings=32768,
        bos_token_id=ids["<|endoftext|>"], eos_token_id=ids["<|im_end|>"], pad_token_id=ids["<|endoftext|>"],
        tie_word_embeddings=True,
    )
    torch.manual_seed(p["seed"])
    model = Qwen2ForCausalLM(config)
    stop_greedy(model, ids)
    model.save_pretrained(out)
    tok.chat_template = CHAT_TEMPLATE
    tok.save_pretrained(out)
    (out / "uigym_tiny.json").write_text(json.dumps({"builder": "agent_harness.models.tiny_vllm", "params": p},
                                                    indent=1))
    return out


def build_vllm_tiny_models(root: str | os.PathLike) -> dict[str, Path]:
    """Both models under ROOT: ROOT/tiny-vlm (UI mode) and ROOT/tiny-text (tool mode); kept if already built."""
    root = Path(root)
    paths = {"vlm": root / "tiny-vlm", "text": root / "tiny-text"}
    for kind, builder in (("vlm", build_vllm_tiny_vlm), ("text", build_vllm_tiny_text)):
        if not (paths[kind] / "uigym_tiny.json").exists():
            builder(paths[kind])
    return paths
