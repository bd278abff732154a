"""Shared fixtures: one temporary UIGYM_HOME and one event loop (so one Chromium) per test session."""

from __future__ import annotations

import os
import tempfile

# Worlds and snapshots of the test session live in a fresh folder, never in the user's cache.
os.environ.setdefault("UIGYM_HOME", tempfile.mkdtemp(prefix="uigym-test-"))

import pytest  # noqa: E402

from gym_core.runtime import Runtime  # noqa: E402


@pytest.fixture(scope="session")
async def runtime():
    rt = Runtime.current()
    yield rt
    await rt.close()
