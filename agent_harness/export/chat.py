"""Exported rows -> chat messages and model inputs, with the loss on the target only.

    rows = [ds["train"][i] for i in range(4)]
    batch = sft_batch(rows, processor)        # input_ids, attention_mask, pixel_values, image_grid_thw, labels
    loss = model(**batch).loss

The prompt is rendered with the processor's chat template (tools passed to it for tool-call
formats, as the eval sends them); the labels cover the completion's tokens (the target and the
end-of-turn token), everything else is -100. This is the collation TRL's SFTTrainer does for
prompt-completion data (`completion_only_loss`), plus the tools.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any


def _image(value: Any, root: Path | None = None):
    """A PIL image from a `datasets` Image value (decoded or {bytes, path}) or a path (JSONL rows)."""
    from PIL import Image

    if hasattr(value, "convert"):
        return value.convert("RGB")
    if isinstance(value, dict):
        if value.get("bytes"):
            return Image.open(io.BytesIO(value["bytes"])).convert("RGB")
        value = value.get("path")
    path = Path(value)
    if not path.is_absolute() and root is not None:
        path = root / path
    return Image.open(path).convert("RGB")


def _messages(msgs: list[dict]) -> list[dict]:
    out = []
    for m in msgs:
        parts = []
        for p in m["content"]:
            if p.get("type") == "image":
                parts.append({"type": "image"})
            else:
                parts.append({"type": "text", "text": p.get("text") or ""})
        out.append({"role": m["role"], "content": parts})
    return out


def chat_messages(row: dict, root: Path | None = None, with_images: bool = True) -> list[dict]:
    """prompt + completion as chat messages; image parts carry their PIL image when `with_images`."""
    msgs = _messages(list(row["prompt"]) + list(row["completion"]))
    if with_images:
        images = iter([_image(v, root) for v in row["images"]])
        for m in msgs:
            for p in m["content"]:
                if p["type"] == "image":
                    p["image"] = next(images)
    return msgs


def row_tools(row: dict) -> list[dict] | None:
    return json.loads(row["tools"]) if row.get("tools") else None


def prompt_and_target(row: dict, processor) -> tuple[str, str]:
    """The chat-templated prompt (ending with the assistant header) and the text the model must write."""
    prompt = _messages(row["prompt"])
    full = prompt + _messages(row["completion"])
    tools = row_tools(row)
    p_text = processor.apply_chat_template(prompt, tools=tools, add_generation_prompt=True, tokenize=False)
    f_text = processor.apply_chat_template(full, tools=tools, tokenize=False)
    if not f_text.startswith(p_text):
        raise ValueError("the chat template does not render the prompt as a prefix of prompt + completion")
    return p_text, f_text[len(p_text):]


def sft_batch(rows: list[dict], processor, root: Path | None = None, max_length: int | None = None) -> dict:
    """Model inputs for a batch of exported rows, labels on the completion tokens only (right padding)."""
    import torch

    tok = getattr(processor, "tokenizer", processor)
    texts, images, n_target = [], [], []
    for row in rows:
        p_text, t_text = prompt_and_target(row, processor)
        texts.append(p_text + t_text)
        images.extend(_image(v, root) for v in row["images"])
        n_target.append(len(tok(t_text, add_special_tokens=False)["input_ids"]))
    enc = processor(text=texts, images=images or None, return_tensors="pt", padding=True, padding_side="right")
    ids, mask = enc["input_ids"], enc["attention_mask"]
    labels = torch.full_like(ids, -100)
    for b, n in enumerate(n_target):
        length = int(mask[b].sum())
        labels[b, length - n:length] = ids[b, length - n:length]
    if max_length is not None and ids.shape[1] > max_length:
        raise ValueError(f"a sample has {ids.shape[1]} tokens, more than max_length={max_length} "
                         "(cutting it would cut images or the target; export with fewer --history images)")
    out = dict(enc)
    out["labels"] = labels
    return out
