"""Generation over a transformers vision-language model, for the OpenAI-compatible server.

`Engine.chat(request)` takes an OpenAI chat completions request (messages with text and
`image_url` parts holding data URLs, optional `tools`, sampling settings, `logprobs`) and returns
the response object: `choices[0].message` (`content`, and `tool_calls` when tools were passed and
the model wrote `<tool_call>{...}</tool_call>`), `finish_reason`, `logprobs`, `usage`.

One generation runs at a time (a lock): this is a server for tests and small CPU work; use vLLM for
throughput.
"""

from __future__ import annotations

import base64
import io
import json
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from PIL import Image


class RequestError(ValueError):
    """A request the server refuses (HTTP 400)."""


def load_image(url: str) -> Image.Image:
    """An image from a data URL or a local file path / file:// URL (the server reaches no network)."""
    if url.startswith("data:"):
        try:
            header, b64 = url.split(",", 1)
            raw = base64.b64decode(b64)
        except Exception as e:  # noqa: BLE001
            raise RequestError(f"bad data URL: {e}") from None
    elif url.startswith("file://") or url.startswith("/"):
        path = Path(url[7:] if url.startswith("file://") else url)
        if not path.is_file():
            raise RequestError(f"no image file {path}")
        raw = path.read_bytes()
    else:
        raise RequestError("images must be data URLs (data:image/png;base64,...) or local files; "
                           "this server reaches no network")
    try:
        im = Image.open(io.BytesIO(raw))
        return im.convert("RGB")
    except Exception as e:  # noqa: BLE001
        raise RequestError(f"cannot decode image: {e}") from None


def split_images(messages: list[dict]) -> tuple[list[dict], list[Image.Image]]:
    """Messages with image parts turned into {"type": "image"} placeholders, and the images in order."""
    images: list[Image.Image] = []
    out = []
    for m in messages:
        if not isinstance(m, dict) or "role" not in m:
            raise RequestError("each message needs a role")
        content = m.get("content")
        if isinstance(content, list):
            parts = []
            for p in content:
                kind = p.get("type")
                if kind in ("image_url", "input_image", "image"):
                    url = p.get("image_url")
                    url = url.get("url") if isinstance(url, dict) else (url or p.get("image") or p.get("url"))
                    if not isinstance(url, str):
                        raise RequestError("an image part needs image_url.url")
                    images.append(load_image(url))
                    parts.append({"type": "image"})
                elif kind in ("text", "input_text", "output_text"):
                    parts.append({"type": "text", "text": p.get("text", "")})
                else:
                    raise RequestError(f"unsupported content part type {kind!r}")
            m = {**m, "content": parts}
        elif content is None:
            m = {**m, "content": ""}
        if m.get("tool_calls"):
            calls = []
            for tc in m["tool_calls"]:
                f = dict(tc.get("function", tc))
                if isinstance(f.get("arguments"), str):
                    try:
                        f["arguments"] = json.loads(f["arguments"])
                    except json.JSONDecodeError:
                        pass
                calls.append({**tc, "function": f})
            m = {**m, "tool_calls": calls}
        out.append(m)
    return out, images


def extract_tool_calls(text: str) -> tuple[str, list[dict]]:
    """Qwen/Hermes `<tool_call>{"name":..,"arguments":..}</tool_call>` blocks -> OpenAI tool_calls.
    A block that is not valid JSON stays in the content (the client reports it)."""
    import re

    calls, keep = [], []
    pos = 0
    for m in re.finditer(r"<tool_call>\s*(.*?)\s*</tool_call>", text, re.S):
        try:
            obj = json.loads(m.group(1))
            if not isinstance(obj, dict) or "name" not in obj:
                raise ValueError
        except ValueError:
            continue
        keep.append(text[pos:m.start()])
        pos = m.end()
        calls.append({"id": f"call_{uuid.uuid4().hex[:12]}", "type": "function",
                      "function": {"name": str(obj["name"]),
                                   "arguments": json.dumps(obj.get("arguments", {}), ensure_ascii=False)}})
    keep.append(text[pos:])
    return "".join(keep).strip(), calls


class Engine:
    def __init__(self, model_path: str, *, served_name: str | None = None, device: str = "cpu",
                 dtype: str = "auto", max_new_tokens_cap: int = 4096):
        import torch
        from transformers import AutoModelForImageTextToText, AutoProcessor

        self.torch = torch
        self.path = model_path
        self.name = served_name or Path(model_path).name
        self.device = device
        torch_dtype = {"auto": "auto", "float32": torch.float32, "bfloat16": torch.bfloat16,
                       "float16": torch.float16}[dtype]
        self.processor = AutoProcessor.from_pretrained(model_path)
        self.tokenizer = getattr(self.processor, "tokenizer", self.processor)
        self.model = AutoModelForImageTextToText.from_pretrained(model_path, dtype=torch_dtype).to(device).eval()
        self.max_new_tokens_cap = max_new_tokens_cap
        gc = self.model.generation_config
        eos = gc.eos_token_id if gc.eos_token_id is not None else self.tokenizer.eos_token_id
        self.eos_ids = set(eos if isinstance(eos, list) else [eos])
        self.lock = threading.Lock()
        self.created = int(time.time())

    # ------------------------------------------------------------------
    def models(self) -> dict:
        return {"object": "list", "data": [{"id": self.name, "object": "model", "created": self.created,
                                            "owned_by": "uigym", "root": self.path}]}

    def chat(self, req: dict) -> dict:
        torch = self.torch
        messages = req.get("messages")
        if not isinstance(messages, list) or not messages:
            raise RequestError("messages must be a non-empty list")
        if int(req.get("n") or 1) != 1:
            raise RequestError("only n=1 is supported")
        tools = req.get("tools") or None
        if tools and req.get("tool_choice") == "none":
            tools = None
        msgs, images = split_images(messages)
        try:
            prompt = self.processor.apply_chat_template(msgs, tools=tools, add_generation_prompt=True, tokenize=False)
        except Exception as e:  # noqa: BLE001 - a template error is the request's fault
            raise RequestError(f"chat template failed: {e}") from None
        inputs = self.processor(text=[prompt], images=images or None, return_tensors="pt")
        inputs = {k: v.to(self.device) if hasattr(v, "to") else v for k, v in inputs.items()}
        n_prompt = int(inputs["input_ids"].shape[1])
        max_new = int(req.get("max_completion_tokens") or req.get("max_tokens") or 256)
        max_new = max(1, min(max_new, self.max_new_tokens_cap))
        temperature = float(req.get("temperature") if req.get("temperature") is not None else 1.0)
        gen: dict[str, Any] = {"max_new_tokens": max_new, "return_dict_in_generate": True, "output_logits": True}
        if temperature <= 0:
            gen["do_sample"] = False
        else:
            gen.update(do_sample=True, temperature=temperature, top_p=float(req.get("top_p") or 1.0), top_k=0)
        stop = req.get("stop")
        if stop:
            gen["stop_strings"] = [stop] if isinstance(stop, str) else list(stop)
            gen["tokenizer"] = self.tokenizer
        want_lp = bool(req.get("logprobs"))
        top_n = int(req.get("top_logprobs") or 0)
        with self.lock:
            if req.get("seed") is not None:
                torch.manual_seed(int(req["seed"]))
            t0 = time.perf_counter()
            with torch.inference_mode():
                out = self.model.generate(**inputs, **gen)
            gen_s = time.perf_counter() - t0
        seq = out.sequences[0, n_prompt:].tolist()
        finish = "length"
        if seq and seq[-1] in self.eos_ids:
            finish = "stop"
            content_ids = seq[:-1]
        else:
            content_ids = seq
        if stop and finish == "length" and len(seq) < max_new:
            finish = "stop"
        text = self.tokenizer.decode(content_ids, skip_special_tokens=True)
        message: dict[str, Any] = {"role": "assistant", "content": text}
        if tools:
            content, calls = extract_tool_calls(text)
            if calls:
                message = {"role": "assistant", "content": content or None, "tool_calls": calls}
                finish = "tool_calls"
        choice: dict[str, Any] = {"index": 0, "message": message, "finish_reason": finish, "logprobs": None}
        if want_lp:
            choice["logprobs"] = {"content": self._logprobs(out.logits, seq, top_n)}
        return {
            "id": f"chatcmpl-{uuid.uuid4().hex}", "object": "chat.completion", "created": int(time.time()),
            "model": self.name, "choices": [choice],
            "usage": {"prompt_tokens": n_prompt, "completion_tokens": len(seq), "total_tokens": n_prompt + len(seq)},
            "uigym": {"generate_s": round(gen_s, 4)},
        }

    def _token_entry(self, tid: int, lp: float) -> dict:
        tok = self.tokenizer.decode([tid])
        return {"token": tok, "logprob": lp, "bytes": list(tok.encode("utf-8"))}

    def _logprobs(self, logits: tuple, seq: list[int], top_n: int) -> list[dict]:
        torch = self.torch
        entries = []
        for step, tid in enumerate(seq):
            lps = torch.log_softmax(logits[step][0].float(), dim=-1)
            e = self._token_entry(tid, float(lps[tid]))
            if top_n:
                vals, idx = torch.topk(lps, min(top_n, lps.shape[-1]))
                e["top_logprobs"] = [self._token_entry(int(i), float(v)) for v, i in zip(vals, idx)]
            else:
                e["top_logprobs"] = []
            entries.append(e)
        return entries
