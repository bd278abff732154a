"""The tiny Qwen2.5-VL (built here, nothing downloaded) and `uigym serve` over it: OpenAI chat requests
with images, tools and logprobs, and readable errors."""

from __future__ import annotations

import base64
import io
import json

import httpx
import pytest
from PIL import Image

from agent_harness.formats import FormatContext, get_format
from agent_harness.agents.model import smart_resize
from agent_harness.models.tiny import SPECIAL_TOKENS, TINY_DEFAULTS
from agent_harness.serve.engine import extract_tool_calls


def data_url(color=(20, 120, 200), size=(1280, 720)) -> str:
    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def test_tiny_model_loads_with_auto_classes_and_renders_images_and_tools(tiny_model):
    import torch
    from transformers import AutoModelForImageTextToText, AutoProcessor

    model = AutoModelForImageTextToText.from_pretrained(tiny_model)
    proc = AutoProcessor.from_pretrained(tiny_model)
    assert type(model).__name__ == "Qwen2_5_VLForConditionalGeneration"
    assert sum(p.numel() for p in model.parameters()) < 2_000_000
    tok = proc.tokenizer
    for t in SPECIAL_TOKENS + ["<tool_call>", "</tool_call>"]:
        assert len(tok.encode(t, add_special_tokens=False)) == 1, t
    assert tok.decode(tok.encode("Thought: click(start_box='(12,34)') héllo")) == "Thought: click(start_box='(12,34)') héllo"

    fmt, ctx = get_format("json"), FormatContext()
    messages = [
        {"role": "system", "content": fmt.system_prompt(ctx)},
        {"role": "user", "content": [{"type": "text", "text": "Task: star it"}, {"type": "image"}]},
        fmt.render({"type": "click", "x": 5, "y": 6}, ctx, thought="Star.").message(),
        {"role": "tool", "tool_call_id": "call_0", "content": "ok"},
        {"role": "user", "content": [{"type": "image"}]},
    ]
    text = proc.apply_chat_template(messages, tools=fmt.tools(ctx), add_generation_prompt=True, tokenize=False)
    assert text.count("<|vision_start|><|image_pad|><|vision_end|>") == 2
    assert '<tool_call>\n{"name": "click", "arguments": {"x": 5, "y": 6}}\n</tool_call><|im_end|>' in text
    assert "<tools>\n" in text and text.endswith("<|im_start|>assistant\n")
    img = Image.new("RGB", (1280, 720), (200, 30, 30))
    inputs = proc(text=[text], images=[img, img], return_tensors="pt")
    # The processor resizes as the model agent's smart_resize predicts (so coordinates map back exactly).
    w, h = smart_resize(1280, 720, min_pixels=TINY_DEFAULTS["min_pixels"], max_pixels=TINY_DEFAULTS["max_pixels"])
    assert (w, h) == (280, 168)
    assert inputs["image_grid_thw"].tolist() == [[1, h // 14, w // 14]] * 2  # 60 image tokens each after merge
    with torch.inference_mode():
        out = model.generate(**inputs, max_new_tokens=4, do_sample=False)
    assert inputs["input_ids"].shape[1] < out.shape[1] <= inputs["input_ids"].shape[1] + 4

    # Assistant-token masks for SFT come from the template's {% generation %} blocks.
    masked = tok.apply_chat_template(messages[:3], tokenize=True, return_dict=True, return_assistant_tokens_mask=True)
    ids, mask = masked["input_ids"], masked["assistant_masks"]
    if ids and isinstance(ids[0], list):
        ids, mask = ids[0], mask[0]
    assert sum(mask) > 5
    kept = tok.decode([i for i, m in zip(ids, mask) if m])
    assert kept.startswith("Star.") and kept.endswith("<|im_end|>")


def test_a_local_window_limits_every_layer_but_the_last(tmp_path):
    import torch
    from transformers import AutoModelForImageTextToText

    from agent_harness.models.tiny import cached_tiny_qwen25vl

    path = cached_tiny_qwen25vl(tmp_path, num_layers=2, local_window=4)
    assert cached_tiny_qwen25vl(tmp_path) != path  # the window is part of the cache key
    model = AutoModelForImageTextToText.from_pretrained(path).eval()
    text = model.config.text_config
    assert text.layer_types == ["sliding_attention", "full_attention"] and text.sliding_window == 4
    seen = {}
    model.model.language_model.layers[0].register_forward_hook(lambda m, a, out: seen.update(first=out[0] if
                                                                 isinstance(out, tuple) else out))
    outs = []
    for first in (5, 6):  # two inputs that differ only in their first token
        ids = torch.tensor([[first] + list(range(10, 29))])
        with torch.no_grad():
            logits = model(input_ids=ids).logits
        outs.append((seen["first"][0, -1].clone(), logits[0, -1]))
    # the windowed layer's last position cannot see the first token; the last, full layer can
    assert torch.equal(outs[0][0], outs[1][0]) and not torch.equal(outs[0][1], outs[1][1])
    # generation with the KV cache (what `uigym serve` and GRPO's rollouts run) windows as the full forward does
    ids = torch.tensor([list(range(10, 30))])
    with torch.no_grad():
        gen = model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=6, do_sample=False,
                             eos_token_id=None)[0, ids.shape[1]:]
        seq = ids
        for _ in range(6):
            seq = torch.cat([seq, model(input_ids=seq).logits[:, -1].argmax(-1, keepdim=True)], dim=1)
    assert gen.tolist() == seq[0, ids.shape[1]:].tolist()


def test_the_tiny_model_command_writes_a_windowed_model(tmp_path):
    from typer.testing import CliRunner

    from agent_harness.cli import app

    done = CliRunner().invoke(app, ["tiny-model", str(tmp_path / "m"), "--local-window", "8"])
    assert done.exit_code == 0, done.output
    text = json.loads((tmp_path / "m" / "config.json").read_text())["text_config"]
    assert text["sliding_window"] == 8 and text["layer_types"][-1] == "full_attention"
    assert CliRunner().invoke(app, ["tiny-model", str(tmp_path / "n"), "--local-window", "1"]).exit_code == 2


def test_extract_tool_calls():
    content, calls = extract_tool_calls('Go.\n<tool_call>\n{"name": "click", "arguments": {"x": 1}}\n</tool_call>')
    assert content == "Go." and calls[0]["function"]["name"] == "click"
    assert json.loads(calls[0]["function"]["arguments"]) == {"x": 1}
    content, calls = extract_tool_calls("<tool_call>{not json}</tool_call>")
    assert calls == [] and content == "<tool_call>{not json}</tool_call>"


def test_serve_answers_openai_chat_requests(tiny_server):
    models = httpx.get(f"{tiny_server}/models").json()
    assert models["data"][0]["id"] == "tiny-vlm"
    fmt, ctx = get_format("json"), FormatContext()
    body = {"model": "tiny-vlm", "max_tokens": 8, "temperature": 0.9, "seed": 5, "logprobs": True, "top_logprobs": 3,
            "tools": fmt.tools(ctx),
            "messages": [{"role": "system", "content": fmt.system_prompt(ctx)},
                         {"role": "user", "content": [{"type": "text", "text": "Task: go"},
                                                      {"type": "image_url", "image_url": {"url": data_url()}}]}]}
    r = httpx.post(f"{tiny_server}/chat/completions", json=body, timeout=120)
    assert r.status_code == 200, r.text
    d = r.json()
    choice = d["choices"][0]
    assert choice["message"]["role"] == "assistant" and choice["finish_reason"] in ("length", "stop", "tool_calls")
    lp = choice["logprobs"]["content"]
    assert len(lp) == d["usage"]["completion_tokens"] <= 8 and all(e["logprob"] <= 0 for e in lp)
    assert all(len(e["top_logprobs"]) == 3 for e in lp)
    assert d["usage"]["prompt_tokens"] > 60  # the image's 60 tokens and the prompt
    again = httpx.post(f"{tiny_server}/chat/completions", json=body, timeout=120).json()
    assert again["choices"][0]["message"] == choice["message"]  # same seed, same sample

    body2 = dict(body, messages=body["messages"] + [
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {
            "name": "click", "arguments": "{\"x\": 3, \"y\": 4}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
        {"role": "user", "content": [{"type": "image_url", "image_url": {"url": data_url((0, 0, 0))}}]}],
        logprobs=False, temperature=0)
    d2 = httpx.post(f"{tiny_server}/chat/completions", json=body2, timeout=120).json()
    assert d2["choices"][0]["logprobs"] is None and d2["usage"]["prompt_tokens"] > d["usage"]["prompt_tokens"] + 60


@pytest.mark.parametrize("body, status, needle", [
    ({"messages": []}, 400, "at least 1 item"),
    ({"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "http://x/y.png"}}]}]},
     400, "--allow-remote-images"),
    ({"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]}]},
     400, "cannot decode image"),
    ({"model": "gpt-9", "messages": [{"role": "user", "content": "hi"}]}, 404, "does not exist"),
    ({"messages": [{"role": "user", "content": "hi"}], "stream": True}, 400, "stream"),
])
def test_serve_refuses_bad_requests_clearly(tiny_server, body, status, needle):
    r = httpx.post(f"{tiny_server}/chat/completions", json=body, timeout=60)
    assert r.status_code == status and needle in r.json()["error"]["message"]
