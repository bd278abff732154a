"""Fixtures for the demonstration tests: the toy app served as "mail" (tests/harness/toy_tasks.py),
a Chromium for Playwright-as-annotator and replays, and oracle runs to export."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from agent_harness.runner import EvalConfig, run_eval
from gym_core.runtime import Runtime
from gym_core.server import ServerPool
from tests.harness.toy_tasks import APP_MODULES, toy_tasks


@pytest.fixture(scope="session")
async def toy_runtime():
    rt = Runtime(servers=ServerPool(modules=APP_MODULES))
    yield rt
    await rt.close()
    await asyncio.to_thread(rt.servers.stop_all)


@pytest.fixture(scope="session")
async def oracle_run(toy_runtime, tmp_path_factory) -> Path:
    """The toy tasks played by a jittered oracle, two samples each (a synthetic demonstration set)."""
    out = tmp_path_factory.mktemp("oracle-run")
    rows = await run_eval(EvalConfig(agent="oracle", tasks=toy_tasks(), out=out, workers=2, samples=2,
                                     agent_kwargs={"jitter": 0.4}), runtime=toy_runtime)
    assert all(r["passed"] for r in rows) and len(rows) == 6
    return out


@pytest.fixture(scope="session")
def tiny_model() -> Path:
    pytest.importorskip("transformers")
    from agent_harness.models import cached_tiny_qwen25vl

    return cached_tiny_qwen25vl()  # under the session's UIGYM_HOME: built once


@pytest.fixture
def one_torch_thread():
    """Tiny models train faster on one thread, and a busy shared machine makes two threads much slower."""
    torch = pytest.importorskip("torch")

    n = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)
