"""Generation over a transformers vision-language model, for the OpenAI-compatible server.

`Engine.chat(request)` takes a checked OpenAI chat completions request (`request.ChatRequest`: messages
with text and `image_url` parts holding data URLs, optional `tools`, sampling settings, `logprobs`) and returns
the response object: `choices[0].message` (`content`, and `tool_calls` when tools were passed and
the model wrote `<tool_call>{...}</tool_call>`), `finish_reason`, `logprobs`, `usage`.

One generation runs at a time (a lock): this is a server for tests and small CPU work; use vLLM for
throughput.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from agent_harness.serve.request import ChatRequest, RequestError

__all__ = ["Engine", "RequestError", "extract_tool_calls"]

GREEDY_BELOW = 1e-5  # a temperature under this samples greedily


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
                 dtype: str = "auto", max_new_tokens_cap: int = 4096, max_model_len: int | None = None):
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
        text_cfg = getattr(self.model.config, "text_config", None) or self.model.config
        self.max_model_len = int(max_model_len or getattr(text_cfg, "max_position_embeddings", 0) or
                                 getattr(self.tokenizer, "model_max_length", 0) or 32768)
        gc = self.model.generation_config
        eos = gc.eos_token_id if gc.eos_token_id is not None else self.tokenizer.eos_token_id
        self.eos_ids = set(eos if isinstance(eos, list) else [eos])
        self.lock = threading.Lock()
        self.created = int(time.time())

    # ------------------------------------------------------------------
    def models(self) -> dict:
        return {"object": "list", "data": [{"id": self.name, "object": "model", "created": self.created,
                                            "owned_by": "uigym", "root": self.path}]}

    def chat(self, req: ChatRequest) -> dict:
        """The response to a checked request; a RequestError (400) for what only the model can tell: an
        image that does not decode, a template that refuses the messages, a prompt past the context."""
        torch = self.torch
        asked = req.max_new_tokens
        if asked is not None and asked > self.max_model_len:
            raise RequestError(f"max_tokens is {asked}, more than this model's context length "
                               f"({self.max_model_len} tokens)", param="max_tokens", code="invalid_value")
        tools = req.tool_dicts()
        images = req.images()
        try:
            prompt = self.processor.apply_chat_template(req.template_messages(), tools=tools,
                                                        add_generation_prompt=True, tokenize=False)
        except Exception as e:  # noqa: BLE001 - a template error is the request's fault
            raise RequestError(f"chat template failed: {e}", param="messages") from None
        try:
            inputs = self.processor(text=[prompt], images=images or None, return_tensors="pt")
        except Exception as e:  # noqa: BLE001 - e.g. images the template gave no place
            raise RequestError(f"the prompt could not be processed: {type(e).__name__}: {e}",
                               param="messages") from None
        n_prompt = int(inputs["input_ids"].shape[1])
        if n_prompt >= self.max_model_len:
            raise self._too_long(n_prompt)
        inputs = {k: v.to(self.device) if hasattr(v, "to") else v for k, v in inputs.items()}
        max_new = max(1, min(asked or 256, self.max_new_tokens_cap, self.max_model_len - n_prompt))
        temperature = 1.0 if req.temperature is None else req.temperature
        gen: dict[str, Any] = {"max_new_tokens": max_new, "return_dict_in_generate": True, "output_logits": True}
        if temperature < GREEDY_BELOW:  # as vLLM: dividing logits by a tiny temperature overflows them
            gen["do_sample"] = False
        else:
            gen.update(do_sample=True, temperature=temperature, top_p=req.top_p or 1.0, top_k=0)
        stop = req.stop
        if stop:
            gen["stop_strings"] = [stop] if isinstance(stop, str) else list(stop)
            gen["tokenizer"] = self.tokenizer
        want_lp = bool(req.logprobs)
        top_n = req.top_logprobs or 0
        with self.lock:
            if req.seed is not None:
                torch.manual_seed(req.seed)
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

    def _too_long(self, n_prompt: int | None) -> RequestError:
        got = f"the prompt is {n_prompt} tokens" if n_prompt is not None else "the prompt is far longer than that"
        return RequestError(f"this model's maximum context length is {self.max_model_len} tokens and {got}; "
                            f"shorten the messages (or send fewer images)", param="messages",
                            code="context_length_exceeded", status=400)

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
