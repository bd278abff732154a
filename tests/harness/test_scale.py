"""Scale: worker processes and Ray actors give the in-process runner's results, into one results.jsonl;
a worker that dies is recorded, not fatal; reruns skip finished episodes."""

from __future__ import annotations

import pytest

from agent_harness.runner import EvalConfig, read_results, run_eval
from agent_harness.scale.procs import split_slots
from agent_harness.trajectory import Trajectory
from tests.harness.conftest import REPO
from tests.harness.toy_tasks import APP_MODULES, toy_tasks


def outcome(rows):
    return {(r["task_id"], r["sample"]): (r["reward"], r["steps"], r["answer"], r["error"]) for r in rows}


@pytest.fixture(scope="module")
async def in_process_rows(tmp_path_factory, toy_runtime):
    out = tmp_path_factory.mktemp("inproc")
    return await run_eval(EvalConfig(agent="oracle", tasks=toy_tasks(), out=out, workers=2, samples=2),
                          runtime=toy_runtime)


def test_split_slots():
    assert split_slots(8, 3) == [3, 3, 2] and split_slots(2, 4) == [1, 1] and split_slots(1, 1) == [1]


async def test_processes_match_in_process_and_a_crash_is_recorded(tmp_path, in_process_rows, toy_runtime):
    assert all(r["reward"] == 1.0 for r in in_process_rows) and len(in_process_rows) == 6
    # Two worker processes; the agent kills its process whenever it plays the add-note task.
    cfg = EvalConfig(agent="tests.harness.crash_agent:CrashOnAddNote", tasks=toy_tasks(), out=tmp_path, workers=2,
                     samples=2, procs=2, app_modules=APP_MODULES, agent_label="oracle")
    seen = []
    rows = await run_eval(cfg, on_result=seen.append)
    assert len(seen) == 6 and len(read_results(tmp_path)) == 6
    crashed = [r for r in rows if r["task_id"] == "mail/toy-add-note"]
    assert [r["error_kind"] for r in crashed] == ["WorkerCrashed"] * 2 and "exit code 3" in crashed[0]["error"]
    others = [r for r in rows if r["task_id"] != "mail/toy-add-note"]
    assert outcome(others) == {k: v for k, v in outcome(in_process_rows).items() if k[0] != "mail/toy-add-note"}
    for r in others:  # the workers wrote complete episode folders
        traj = Trajectory.load(tmp_path / r["episode_dir"] / "trajectory.json")
        assert traj.reward == r["reward"] and (tmp_path / r["episode_dir"] / "001.png").exists()

    # A rerun skips everything finished; retry_errors reruns only the crashed episodes.
    await run_eval(cfg, runtime=toy_runtime)
    assert len(read_results(tmp_path)) == 6
    cfg.agent, cfg.retry_errors, cfg.procs = "oracle", True, 1
    rows = await run_eval(cfg, runtime=toy_runtime)
    assert len(read_results(tmp_path)) == 8
    assert outcome(rows) == outcome(in_process_rows)


@pytest.mark.slow
async def test_ray_actors_on_a_local_cluster_match_in_process_and_survive_a_crash(tmp_path, in_process_rows,
                                                                                  monkeypatch):
    import ray

    monkeypatch.setenv("PYTHONPATH", str(REPO))  # the actors import the toy app like this process does
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        cfg = EvalConfig(agent="oracle", tasks=toy_tasks(), out=tmp_path / "ok", workers=2, samples=2, procs=2,
                         ray_address="local", app_modules=APP_MODULES)
        rows = await run_eval(cfg)
        assert outcome(rows) == outcome(in_process_rows)
        assert len(read_results(tmp_path / "ok")) == 6
        assert len({r["worker"] for r in rows}) == 2  # two actors (processes) ran them
        for r in rows:  # the actors' episode files came back to the driver
            traj = Trajectory.load(tmp_path / "ok" / r["episode_dir"] / "trajectory.json")
            assert traj.reward == r["reward"] and len(traj.steps) == r["steps"]
            assert all((tmp_path / "ok" / r["episode_dir"] / s.screenshot).exists() for s in traj.steps)

        # An actor that dies mid-episode: that episode is an error, the others run on a replacement.
        crash = EvalConfig(agent="tests.harness.crash_agent:CrashOnAddNote", tasks=toy_tasks(), out=tmp_path / "crash",
                           workers=2, procs=2, ray_address="local", app_modules=APP_MODULES)
        rows = {r["task_id"]: r for r in await run_eval(crash)}
        assert rows["mail/toy-add-note"]["error_kind"] == "WorkerCrashed"
        assert rows["mail/toy-star-note-2"]["reward"] == 1.0 and rows["mail/toy-third-title"]["reward"] == 1.0
    finally:
        ray.shutdown()
