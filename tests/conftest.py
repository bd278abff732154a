"""Shared fixtures: one temporary UIGYM_HOME and one event loop (so one Chromium) per test session, and the
grouping that lets `pytest -n N --dist loadgroup --no-loadscope-reorder` (pytest-xdist) split the suite (README
"Tests and CI")."""

from __future__ import annotations

import os
import tempfile

# Worlds and snapshots of the test session live in a fresh folder, never in the user's cache. Under
# pytest-xdist each worker gets a folder of its own: two workers never build or reset the same world file.
os.environ.setdefault("UIGYM_HOME", tempfile.mkdtemp(prefix="uigym-test-"))
# Snapshots (a world's seeded build, keyed by the code and seed that made it) are shared by the whole run: set here in
# the first process (pytest-xdist's controller), so its workers and every app server a test starts with a home of its
# own read the same ones, each built once (apps/_shared/worlds.py snapshot_home).
os.environ.setdefault("UIGYM_SNAPSHOTS", os.path.join(os.environ["UIGYM_HOME"], "snapshots"))
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


def _rel(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def group_of(nodeid: str) -> str:
    """The group a test runs in when the suite is split over xdist workers: its file (module and session fixtures of
    a file are built once per worker that runs it), or its file and app for the per-app batches."""
    path = _rel(nodeid)
    if path in _BY_APP and "[" in nodeid:
        param = nodeid.rsplit("[", 1)[1].rstrip("]")
        return f"{path}:{param.split('/')[0]}"
    return path


def _long_rank(item: pytest.Item) -> int:
    path = _rel(item.nodeid)
    return next((i for i, p in enumerate(_LONG_FIRST) if path.startswith(p)), len(_LONG_FIRST))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # xdist's scheduler takes the order of the workers' collections, and a worker's own config says dist "no":
    # sort there (PYTEST_XDIST_WORKER), not only where the option was given (seen: the batches handed out last).
    if config.getoption("dist", "no") == "loadgroup" or os.environ.get("PYTEST_XDIST_WORKER"):
        items.sort(key=_long_rank)  # stable: the order inside a file is kept


@pytest.hookimpl(optionalhook=True)  # the hook is xdist's: a venv without it (the hub's) runs one process
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """Under `--dist loadgroup`, group by `group_of` through xdist's own scope scheduler, not by `xdist_group` marks:
    xdist 3.8 names a marked test's group by setting `item._nodeid`, which pytest 9 no longer reads (a node id is
    `item._id`), so the marks grouped nothing and every batch ran in each worker (seen: 5,049 s against 3,745 s)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByGroup(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return group_of(nodeid)

    return ByGroup(config, log)


@pytest.fixture(scope="session")
async def runtime():
    rt = Runtime.current()
    yield rt
    await rt.close()
