"""`uigym serve` (an OpenAI-compatible server over a transformers VLM) and `uigym tiny-model`."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve_cmd(
        model: str = typer.Option(..., "--model", help="a local model folder (transformers), or 'tiny' for a tiny "
                                                       "random Qwen2.5-VL built on the spot"),
        host: str = typer.Option("127.0.0.1"),
        port: int = typer.Option(8000, help="0 picks a free port (printed as UIGYM_SERVE_READY port=N)"),
        served_model_name: Optional[str] = typer.Option(None, help="the model id clients ask for "
                                                                   "(default: the folder's name)"),
        device: str = typer.Option("cpu", help="cpu, cuda, cuda:1 ..."),
        dtype: str = typer.Option("auto", help="auto, float32, bfloat16, float16"),
        api_key: Optional[str] = typer.Option(None, envvar="UIGYM_SERVE_API_KEY",
                                              help="require 'Authorization: Bearer KEY'"),
        quiet: bool = typer.Option(False, help="no request log"),
        allow_remote_images: bool = typer.Option(False, help="also fetch http(s) image URLs (off: data: URLs "
                                                            "only; local paths and file:// are never read)"),
        max_model_len: Optional[int] = typer.Option(None, min=16, help="the context length: longer prompts get "
                                                                     "a 400 (default: the model's config)"),
    ):
        """Serve a vision-language model behind the OpenAI chat completions API (images, tools, logprobs)."""
        from agent_harness.serve import serve

        if model != "tiny" and not Path(model).is_dir():
            raise typer.BadParameter(f"{model} is not a folder (models are loaded from disk, never downloaded)",
                                     param_hint="--model")
        serve(model, host=host, port=port, served_name=served_model_name, device=device, dtype=dtype,
              api_key=api_key, quiet=quiet, allow_remote_images=allow_remote_images, max_model_len=max_model_len)

    @app.command("tiny-model")
    def tiny_model_cmd(
        out: Path = typer.Argument(..., help="folder to write the model to"),
        seed: int = typer.Option(0),
        local_window: Optional[int] = typer.Option(None, min=2, help="every layer but the last attends to the last N "
                                                                      "tokens only (sliding-window layers)"),
    ):
        """Write a tiny random Qwen2.5-VL (config, tokenizer trained here, processor, chat template) to OUT."""
        from agent_harness.models import build_tiny_qwen25vl

        path = build_tiny_qwen25vl(out, seed=seed, **({"local_window": local_window} if local_window else {}))
        typer.echo(f"tiny Qwen2.5-VL written to {path}")
