"""Shared fixtures: one temporary UIGYM_HOME and one event loop (so one Chromium) per test session, and the
grouping meant to let `pytest -n N --dist loadgroup --no-loadscope-reorder` (pytest-xdist) split the suite (CI runs
one process: in the workers the per-app groups did not hold and the batches ran twice, README "Tests and CI")."""

from __future__ import annotations

import os
import tempfile

# Worlds and snapshots of the test session live in a fresh folder, never in the user's cache. Under
# pytest-xdist each worker gets a folder of its own: two workers never build or reset the same world file.
os.environ.setdefault("UIGYM_HOME", tempfile.mkdtemp(prefix="uigym-test-"))
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ["UIGYM_HOME"] = tempfile.mkdtemp(prefix=f"{os.environ['PYTEST_XDIST_WORKER']}-",
                                                dir=os.environ["UIGYM_HOME"])

import pytest  # noqa: E402

from gym_core.runtime import Runtime  # noqa: E402

# Files whose tests share one batch computed on first use (a module-level cache: every probe of an app's
# tasks in one browser run): their tests must run in one worker, split by app where the batch is per app.
# They are the longest groups of the suite, so they are scheduled first (xdist hands out groups in order).
# (--no-loadscope-reorder keeps this order: xdist's default reorders the groups by their number of tests.)
_BY_APP = {"tests/tasks/test_task_validity.py", "tests/tasks/test_look_validity.py", "tests/tasks/test_tool_validity.py",
           "tests/qa/test_apps_clean.py"}
_LONG_FIRST = ("tests/containers/", "tests/tasks/test_task_validity.py", "tests/tasks/test_look_validity.py",
               "tests/gym_core/test_gym_contract.py", "tests/qa/test_apps_clean.py", "tests/train/",
               "tests/tasks/test_tool_validity.py", "tests/apps/test_input_fuzz.py")


def _rel(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


def xdist_group_of(item: pytest.Item) -> str:
    """The group an item runs in under --dist loadgroup: its file (module and session fixtures of a file are
    built once per worker that runs it), or its file and app for the per-app batches."""
    path = _rel(item)
    if path in _BY_APP and "[" in item.nodeid:
        param = item.nodeid.rsplit("[", 1)[1].rstrip("]")
        return f"{path}:{param.split('/')[0]}"
    return path


def _long_rank(item: pytest.Item) -> int:
    path = _rel(item)
    return next((i for i, p in enumerate(_LONG_FIRST) if path.startswith(p)), len(_LONG_FIRST))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group(xdist_group_of(item)))
    # xdist's scheduler takes the order of the workers' collections, and a worker's own config says dist "no":
    # sort there (PYTEST_XDIST_WORKER), not only where the option was given (seen: the batches handed out last).
    if config.getoption("dist", "no") == "loadgroup" or os.environ.get("PYTEST_XDIST_WORKER"):
        items.sort(key=_long_rank)  # stable: the order inside a file is kept


@pytest.fixture(scope="session")
async def runtime():
    rt = Runtime.current()
    yield rt
    await rt.close()
