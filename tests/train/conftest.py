"""Fixtures for the training tests: TRL and torch present, one torch thread, the tiny model, the toy app tasks."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def trl_ready():
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    pytest.importorskip("datasets")
    trl = pytest.importorskip("trl")
    from agent_harness.train.grpo import TRL_VERSION

    if trl.__version__ != TRL_VERSION:
        pytest.skip(f"needs TRL {TRL_VERSION}, found {trl.__version__}")
    return trl


@pytest.fixture(scope="session")
def tiny_model(trl_ready) -> Path:
    from agent_harness.models import cached_tiny_qwen25vl

    return cached_tiny_qwen25vl()  # under the session's UIGYM_HOME: built once


@pytest.fixture
def torch_threads():
    """Tiny models train fastest on one or two threads; a busy shared machine makes more threads slower."""
    import torch

    n = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


@pytest.fixture(scope="session")
def train_envs():
    """The training environments' browser and app servers, closed at the end of the session."""
    yield
    from agent_harness.train.env import close_runtimes

    close_runtimes()
