"""An OpenAI-compatible chat server over a transformers VLM (`uigym serve`), for tests and CPU work."""

from agent_harness.serve.server import READY_PREFIX, create_server_app, serve

__all__ = ["READY_PREFIX", "create_server_app", "serve"]
