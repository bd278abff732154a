"""vLLM (its CPU build in .venv-vllm) against `uigym serve` (transformers) on the same tiny Qwen2.5-VL, the same
requests, in one run: `python -m bench.vllm [--requests 16] [--max-tokens 16]`.

Each server is started in turn on a free port (one at a time), warmed up with 2 requests, then sent the same chat
completion (a 1280x720 screenshot as a data URL plus a goal, temperature 0, `max_tokens` new tokens) at 1 request at a
time and at 8 concurrent. Printed per server: requests/s, p50 latency, completion tokens/s; last line the ratios
vllm/uigym (throughput: higher is better for vLLM; latency: lower is). Needs scripts/setup_vllm.sh first.
"""

from __future__ import annotations

import argparse
import base64
import io
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def screenshot_url() -> str:
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (1280, 720), (245, 245, 245))
    d = ImageDraw.Draw(img)
    for i in range(12):  # something like an inbox: rows of text-ish bars
        d.rectangle([40, 90 + i * 50, 1240, 120 + i * 50], outline=(200, 200, 200), fill=(255, 255, 255))
        d.text((60, 98 + i * 50), f"Message {i}: quarterly report and invoice {i * 7}", fill=(20, 20, 20))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def start(cmd: list[str], url: str, log: Path, timeout: float = 600) -> subprocess.Popen:
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=open(log, "w"), stderr=subprocess.STDOUT, start_new_session=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if proc.poll() is not None:
            raise SystemExit(f"server exited ({proc.returncode}); its log:\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(url + "/models", timeout=2).status_code == 200:
                print(f"  ready in {time.monotonic() - t0:.0f} s", flush=True)
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(1)
    stop(proc)
    raise SystemExit(f"server not ready after {timeout} s; its log:\n{log.read_text()[-3000:]}")


def stop(proc: subprocess.Popen) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
            proc.wait(20)
            return
        except ProcessLookupError:
            return
        except subprocess.TimeoutExpired:
            continue


def measure(url: str, model: str, image: str, n: int, concurrency: int, max_tokens: int) -> dict[str, float]:
    body = {"model": model, "max_tokens": max_tokens, "temperature": 0.0,
            "messages": [{"role": "user", "content": [
                {"type": "image_url", "image_url": {"url": image}},
                {"type": "text", "text": "Task: star the message about the invoice. What do you do next?"}]}]}
    client = httpx.Client(timeout=300)

    def one(_):
        t = time.perf_counter()
        r = client.post(url + "/chat/completions", json=body)
        r.raise_for_status()
        return time.perf_counter() - t, r.json()["usage"]["completion_tokens"]

    for _ in range(2):
        one(0)
    t0 = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as ex:
        got = list(ex.map(one, range(n)))
    wall = time.perf_counter() - t0
    return {"rps": n / wall, "p50_s": statistics.median(g[0] for g in got), "tok_s": sum(g[1] for g in got) / wall}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=16, help="requests per concurrency level")
    ap.add_argument("--max-tokens", type=int, default=16)
    a = ap.parse_args()
    from agent_harness.commands.vllm import vllm_python
    from agent_harness.models.tiny_vllm import build_vllm_tiny_vlm

    if vllm_python() is None:
        raise SystemExit("no .venv-vllm: run `bash scripts/setup_vllm.sh` first")
    tmp = Path(tempfile.mkdtemp(prefix="bench-vllm-"))
    model = build_vllm_tiny_vlm(tmp / "tiny-vlm")
    image = screenshot_url()
    servers = {
        "uigym": lambda port: [sys.executable, "-m", "agent_harness.cli", "serve", "--model", str(model), "--port",
                               str(port), "--quiet", "--served-model-name", "tiny"],
        "vllm": lambda port: [sys.executable, "-m", "agent_harness.cli", "vllm", "serve", "--model", str(model),
                              "--port", str(port), "--served-model-name", "tiny", "--max-model-len", "4096"],
    }
    res: dict[str, dict[int, dict[str, float]]] = {}
    for name, cmd in servers.items():
        port = free_port()
        url = f"http://127.0.0.1:{port}/v1"
        print(f"{name}: starting", flush=True)
        proc = start(cmd(port), url, tmp / f"{name}.log")
        try:
            res[name] = {c: measure(url, "tiny", image, a.requests, c, a.max_tokens) for c in (1, 8)}
        finally:
            stop(proc)
        for c, m in res[name].items():
            print(f"{name:6s} concurrency {c}: {m['rps']:.2f} req/s  p50 {m['p50_s'] * 1000:.0f} ms  "
                  f"{m['tok_s']:.1f} completion tok/s", flush=True)
    print(" ".join(f"rps_ratio_c{c}={res['vllm'][c]['rps'] / res['uigym'][c]['rps']:.2f} "
                   f"p50_ratio_c{c}={res['vllm'][c]['p50_s'] / res['uigym'][c]['p50_s']:.2f}" for c in (1, 8))
          + "  (vllm / uigym serve, same tiny VLM, same requests, this run)")


if __name__ == "__main__":
    main()
