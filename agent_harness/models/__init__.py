"""Small models made on the spot (nothing downloaded): for tests and CPU smoke runs of serve, eval,
SFT and RL. See `tiny.build_tiny_qwen25vl`."""

from agent_harness.models.tiny import TINY_DEFAULTS, build_tiny_qwen25vl, cached_tiny_qwen25vl

__all__ = ["TINY_DEFAULTS", "build_tiny_qwen25vl", "cached_tiny_qwen25vl"]
