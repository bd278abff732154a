"""Weights reach a running vLLM server on a CPU: the tiny text model's logprobs for a fixed prompt, read from the
server, equal transformers' own; after one optimiser step (AdamW on the prompt's NLL, in this process) they move, the
new weights are loaded into the running server (`/collective_rpc reload_weights` from the saved checkpoint, then
`/reset_prefix_cache`: both vLLM's dev mode), and move; that they equal the updated trainer model's is a strict xfail
on vLLM 0.31's CPU build (see the test's reason).

This is the CPU stand-in for TRL's server-mode sync: TRL 1.16's `VLLMClient.init_communicator` sends weights over
vLLM's NCCL weight-transfer engine and refuses any device but CUDA (all of vLLM 0.31's weight-transfer backends,
nccl, ipc, sparse_nccl, sharded_rdt, nccl_m2n, are CUDA), so `uigym train grpo --vllm-server` cannot sync on a CPU.
"""

from __future__ import annotations

import httpx
import pytest

from agent_harness.commands.vllm import vllm_python
from tests.vllm.conftest import NO_VLLM, TEXT_ARGS

pytestmark = [pytest.mark.slow, pytest.mark.skipif(vllm_python() is None, reason=NO_VLLM)]

PROMPT = "Thought: I should click the button to continue. Action: click(start_box='(120,340)')"


def server_logprobs(base_url: str, ids: list[int]) -> list[float]:
    """The server's logprob of each prompt token after the first (vLLM's prompt_logprobs)."""
    r = httpx.post(base_url + "/completions", timeout=60, json={
        "model": "tiny-text", "prompt": ids, "max_tokens": 1, "temperature": 0.0, "prompt_logprobs": 0})
    r.raise_for_status()
    got = r.json()["choices"][0]["prompt_logprobs"]
    assert got[0] is None and len(got) == len(ids)
    return [d[str(t)]["logprob"] for d, t in zip(got[1:], ids[1:])]


def model_logprobs(model, ids: list[int]):
    import torch

    x = torch.tensor([ids])
    logits = model(x).logits[0, :-1].float()
    return torch.log_softmax(logits, -1).gather(1, x[0, 1:, None])[:, 0]


@pytest.fixture(scope="module")
def sync(vllm_server, vllm_models, tmp_path_factory) -> dict:
    """Logprobs of PROMPT from the server and the trainer, before and after one AdamW step and its reload."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    path = vllm_models["text"]
    base_url = vllm_server.ensure(path, *TEXT_ARGS)
    root = base_url.removesuffix("/v1")
    tok = AutoTokenizer.from_pretrained(path)
    ids = tok(PROMPT)["input_ids"]
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32)
    got = {"before_server": torch.tensor(server_logprobs(base_url, ids))}
    with torch.no_grad():
        got["before_trainer"] = model_logprobs(model, ids)

    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    (-model_logprobs(model, ids).mean()).backward()
    opt.step()
    with torch.no_grad():
        got["after_trainer"] = model_logprobs(model, ids)
    new = tmp_path_factory.mktemp("step-1")
    model.save_pretrained(new)

    r = httpx.post(root + "/collective_rpc", timeout=120,
                   json={"method": "reload_weights", "kwargs": {"weights_path": str(new)}})
    assert r.status_code == 200, r.text
    r = httpx.post(root + "/reset_prefix_cache", timeout=60)  # no KV computed with the old weights is reused
    assert r.status_code == 200, r.text
    got["after_server"] = torch.tensor(server_logprobs(base_url, ids))
    got["moved"] = (got["after_server"] - got["before_server"]).abs().max().item()
    got["gap_before"] = (got["before_server"] - got["before_trainer"]).abs().max().item()
    got["gap_after"] = (got["after_server"] - got["after_trainer"]).abs().max().item()
    print(f"\nweight sync: server vs trainer before the step max |diff| {got['gap_before']:.2e}; the step moved the "
          f"trainer's mean logprob {got['before_trainer'].mean():.3f} -> {got['after_trainer'].mean():.3f}, the "
          f"server's {got['before_server'].mean():.3f} -> {got['after_server'].mean():.3f} (max move "
          f"{got['moved']:.3f}); server vs trainer after: max |diff| {got['gap_after']:.2e}")
    return got


def test_the_server_scores_as_the_trainer_and_a_reload_moves_it(sync):
    assert sync["gap_before"] < 2e-3  # vLLM (float32) and transformers agree on the same weights
    assert sync["after_trainer"].mean() > sync["before_trainer"].mean() + 0.1  # the step raised the likelihood
    assert sync["moved"] > 0.05  # the reloaded weights reached the running server


@pytest.mark.xfail(strict=True, reason=(
    "measured: after reload_weights the server's logprobs move but stay ~1.0 (max) from the updated trainer's, "
    "deterministically, prefix cache reset. Likely cause (read in vLLM 0.31, not proven): on CPU each linear layer "
    "runs through a oneDNN matmul handle packed from its weight (layers/utils.py dispatch_cpu_unquantized_gemm, "
    "weight removed), and the layerwise reload restores the layer's old kernel state. When this passes, CPU weight "
    "sync is faithful: drop the xfail"))
def test_after_the_reload_the_server_scores_as_the_updated_trainer(sync):
    assert sync["gap_after"] < 2e-3
