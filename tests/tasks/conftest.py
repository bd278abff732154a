"""Fixtures of the task tests: the toy app's runtime for the validate tests (a fresh one per test, so one
test's browser never carries into the next)."""

from __future__ import annotations

import pytest

from gym_core.runtime import Runtime
from gym_core.server import ServerPool
from tests.harness.toy_tasks import APP_MODULES


@pytest.fixture
async def toy_runtime():
    rt = Runtime(servers=ServerPool(modules=dict(APP_MODULES)))
    yield rt
    await rt.close()
    rt.servers.stop_all()
