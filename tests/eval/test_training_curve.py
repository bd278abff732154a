"""`uigym report` on a training run: the learning curve from made-up metrics with known answers (the points
drawn are the file's, the bars the stats module's 95% intervals), the trainer log's series, a run with no
metrics (said plainly), and malformed metrics (an error naming the line, never a traceback)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.container import ErrorbarContainer
from typer.testing import CliRunner

from agent_harness.cli import app
from agent_harness.report.stats import wilson
from agent_harness.report.training import (NO_METRICS, MetricsError, learning_curve_figure, read_eval_metrics,
                                           read_training_run)

EVALS = [  # step, episodes, ungraded, success, reward
    (10, 8, 0, 0.25, 0.3), (20, 8, 0, 0.5, 0.55), (30, 10, 2, 0.75, 0.8)]


def metrics_line(step, episodes, ungraded, success, reward):
    return json.dumps({"eval/episodes": float(episodes), "eval/ungraded": float(ungraded), "eval/success": success,
                       "eval/reward": reward, "eval/episode_length": 4.0, "eval/step": float(step)})


def training_run(root, lines=None, config=True):
    root.mkdir(parents=True, exist_ok=True)
    if config:
        (root / "uigym_train.json").write_text(json.dumps({"config": {"model": "tiny", "max_steps": 30}}))
    if lines is not None:
        (root / "eval").mkdir(exist_ok=True)
        (root / "eval" / "metrics.jsonl").write_text("".join(line + "\n" for line in lines))
    return root


def trainer_state(root, name, history):
    d = root / name
    d.mkdir(parents=True, exist_ok=True)
    step = max((h.get("step", 0) for h in history), default=0)
    (d / "trainer_state.json").write_text(json.dumps({"global_step": step, "log_history": history}))


def curve_axes(run):
    fig = learning_curve_figure(run)
    return fig, fig.axes


def test_the_points_drawn_are_the_files_with_wilson_bars(tmp_path):
    lines = [metrics_line(*e) for e in EVALS] + [json.dumps({"eval/failed": 1.0, "eval/step": 40.0})]
    run = read_training_run(training_run(tmp_path / "run", lines))
    assert [p.step for p in run.evals] == [10, 20, 30, 40]
    _, (ax,) = curve_axes(run)
    (bars,) = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    line, _, (segments,) = bars.lines
    assert list(line.get_xdata()) == [10, 20, 30]  # the failed eval is no point
    assert list(line.get_ydata()) == [0.25, 0.5, 0.75]
    # the bars: Wilson's interval of the logged counts (graded = episodes - ungraded); 4 of 8 is 21.5-78.5%
    for (step, ep, ung, rate, _), seg in zip(EVALS, segments.get_segments()):
        n = ep - ung
        lo, hi = wilson(rate * n, n)
        assert seg[0][1] == pytest.approx(lo) and seg[1][1] == pytest.approx(hi)
    assert run.evals[1].interval == pytest.approx((0.2152, 0.7848), abs=1e-4)
    assert run.evals[2].interval == pytest.approx(wilson(6, 8))
    reward = [ln for ln in ax.lines if ln.get_label() == "eval mean reward"][0]
    assert list(reward.get_xdata()) == [10, 20, 30] and list(reward.get_ydata()) == [0.3, 0.55, 0.8]
    assert any("step(s) 40" in n for n in run.notes)


def test_an_evals_results_cluster_its_interval_by_template(tmp_path):
    root = training_run(tmp_path / "run", [metrics_line(20, 8, 0, 0.5, 0.5)])
    step = root / "eval" / "step-20"
    step.mkdir(parents=True)
    # two templates, each all-pass or all-fail: their instances agree, so the effective sample is small;
    # an errored episode is left out, as the metrics leave it out
    rows = [{"task_id": f"mail/{t}-{i}", "template": t, "agent": "checkpoint", "sample": 0, "passed": t == "a",
             "reward": float(t == "a")} for t in ("a", "b") for i in range(4)]
    rows.append({"task_id": "mail/c-0", "template": "c", "agent": "checkpoint", "sample": 0, "passed": False,
                 "error": "Timeout: lost"})
    (step / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (p,) = read_training_run(root).evals
    assert p.interval_kind == "clustered by template" and p.results == step
    w = wilson(4, 8)
    assert p.interval[0] < w[0] and p.interval[1] > w[1]  # wider than Wilson's: 2 clusters, not 8 draws
    # deff = CR1 variance / binomial variance = (2/1 * 2 * 2**2 / 64) / (0.25 / 8) = 8: Wilson at n = 1
    assert p.interval == pytest.approx(wilson(0.5, 1.0))


def test_the_trainer_log_of_the_newest_checkpoint_is_drawn(tmp_path):
    root = training_run(tmp_path / "run", [metrics_line(*EVALS[0])])
    trainer_state(root, "checkpoint-1", [{"step": 1, "reward": 0.9}])
    history = [{"step": s, "reward": 0.1 * s, "uigym/success": 0.05 * s, "loss": 1.0 / s} for s in (1, 2, 3)]
    history.insert(2, {"eval/success": 0.25, "eval/step": 2, "step": 2})  # PeriodicEval's trainer.log line
    trainer_state(root, "checkpoint-3", history)
    run = read_training_run(root)
    assert run.log_file == root / "checkpoint-3" / "trainer_state.json"
    _, (ax, loss_ax) = curve_axes(run)
    by_label = {ln.get_label(): ln for ln in ax.lines}
    assert list(by_label["GRPO reward (weighted sum)"].get_ydata()) == pytest.approx([0.1, 0.2, 0.3])
    assert list(by_label["training rollouts' pass rate"].get_xdata()) == [1, 2, 3]
    (loss,) = loss_ax.lines
    assert list(loss.get_ydata()) == pytest.approx([1.0, 0.5, 1 / 3])


def test_an_sft_run_without_evals_draws_its_loss_alone(tmp_path):
    root = training_run(tmp_path / "run")
    trainer_state(root, "checkpoint-20", [{"step": s, "loss": 4.0 / s} for s in (5, 10, 15, 20)]
                  + [{"step": 20, "train_runtime": 9.0}])
    run = read_training_run(root)
    assert not run.evals and "no periodic eval" in run.notes[0]
    _, (ax,) = curve_axes(run)  # one panel: no empty pass rate axes
    (loss,) = ax.lines
    assert list(loss.get_xdata()) == [5, 10, 15, 20] and list(loss.get_ydata()) == [0.8, 0.4, 4 / 15, 0.2]


def test_a_run_with_no_metrics_says_so(tmp_path):
    root = training_run(tmp_path / "run")
    run = read_training_run(root)
    assert run.empty and run.notes == [NO_METRICS] and learning_curve_figure(run) is None
    res = CliRunner().invoke(app, ["report", str(root)], terminal_width=200)
    assert res.exit_code == 0, res.output
    assert "no metrics: this run logged no periodic eval" in " ".join(res.output.split())
    html = (root / "report" / "index.html").read_text()
    assert "no metrics: this run logged no periodic eval" in html and 'id="learning-curve"' not in html
    assert not (root / "report" / "learning_curve.png").exists()


def test_the_cli_writes_the_curve_beside_index_html(tmp_path):
    root = training_run(tmp_path / "run", [metrics_line(*e) for e in EVALS])
    res = CliRunner().invoke(app, ["report", str(root), "--out", str(tmp_path / "rep")])
    assert res.exit_code == 0, res.output
    html = (tmp_path / "rep" / "index.html").read_text()
    assert 'src="learning_curve.png"' in html and (tmp_path / "rep" / "learning_curve.png").read_bytes()[:4] == b"\x89PNG"
    assert "22-78%" in html  # step 20's interval, in the evals table
    res = CliRunner().invoke(app, ["report", str(root), str(tmp_path / "other")])
    assert res.exit_code == 2 and "isatrainingrun:reportitonitsown" in "".join(res.output.replace("│", "").split())
    (tmp_path / "neither").mkdir()
    res = CliRunner().invoke(app, ["report", str(tmp_path / "neither")])
    text = "".join(res.output.replace("│", "").split())
    assert res.exit_code == 2 and "hasnoresults.jsonl(notanevaloutputfolder,noratrainingrun's" in text
    assert "Traceback" not in res.output


@pytest.mark.parametrize("bad, says", [
    ('{"eval/step": 10, "eval/success": 0.5', "not JSON"),
    ("[1, 2]", "not a JSON object"),
    ('{"eval/success": 0.5}', "no eval/step"),
    ('{"eval/step": "ten"}', "eval/step is \"ten\", not a finite number"),
    ('{"eval/step": 2.5}', "not a whole number"),
    ('{"eval/step": 10, "eval/success": 1.5}', "eval/success is 1.5, outside [0.0, 1.0]"),
    ('{"eval/step": 10, "eval/reward": NaN}', "eval/reward is NaN, not a finite number"),
    ('{"eval/step": 10, "eval/episodes": 2, "eval/ungraded": 3}', "more than eval/episodes"),
])
def test_a_malformed_line_is_named(tmp_path, bad, says):
    root = training_run(tmp_path / "run", [metrics_line(*EVALS[0]), "", bad])
    with pytest.raises(MetricsError, match="line 3") as e:
        read_training_run(root)
    assert says in str(e.value) and str(root / "eval" / "metrics.jsonl") in str(e.value)
    res = CliRunner().invoke(app, ["report", str(root)], terminal_width=300)
    out = "".join(res.output.split())  # the console wraps long lines anywhere
    assert res.exit_code == 2 and "error:" in out and "metrics.jsonl,line3" in out and "Traceback" not in out


def test_a_malformed_trainer_state_is_named(tmp_path):
    root = training_run(tmp_path / "run")
    (root / "checkpoint-2").mkdir()
    (root / "checkpoint-2" / "trainer_state.json").write_text('{"global_step": 2, "log_history": [')
    with pytest.raises(MetricsError, match="checkpoint-2/trainer_state.json: not a trainer state"):
        read_training_run(root)
    trainer_state(root, "checkpoint-2", [{"step": 1, "loss": "high"}])
    with pytest.raises(MetricsError, match=r"log_history\[0\]: loss is \"high\""):
        read_training_run(root)


GOOD = st.builds(metrics_line, st.integers(0, 10_000), st.just(10), st.integers(0, 10),
                 st.floats(0, 1), st.floats(-5, 5))
JUNK = st.one_of(
    st.text(st.characters(blacklist_characters="}"), max_size=30).map(lambda t: "{" + t),  # an object left open
    st.from_type(type(None)).map(json.dumps) | st.integers().map(json.dumps) | st.lists(st.integers()).map(json.dumps),
    st.dictionaries(st.text(max_size=5), st.integers()).filter(lambda d: "eval/step" not in d).map(json.dumps),
    st.one_of(st.integers(max_value=-1), st.text(max_size=5), st.floats(0.1, 0.9), st.booleans())
      .map(lambda s: json.dumps({"eval/step": s})),
    st.floats(1.0001, 1e6).map(lambda v: json.dumps({"eval/step": 1, "eval/success": v})),
)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.booleans(), GOOD, JUNK), max_size=8))
def test_metrics_lines_read_or_name_the_first_bad_line(tmp_path_factory, picks):
    lines = [good if ok else junk for ok, good, junk in picks]
    path = tmp_path_factory.mktemp("m") / "metrics.jsonl"
    path.write_text("\n".join(lines))
    bad = [i for i, (ok, _, _) in enumerate(picks, 1) if not ok]
    if bad:
        with pytest.raises(MetricsError, match=f"line {bad[0]}:"):
            read_eval_metrics(path)
    else:
        points = read_eval_metrics(path)
        steps = [json.loads(ln)["eval/step"] for ln in lines]
        assert [p.step for p in points] == sorted(set(steps))
        for p in points:  # a step logged twice: its last line
            last = max(i for i, s in enumerate(steps) if s == p.step)
            assert p.pass_rate == json.loads(lines[last])["eval/success"]


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=200))
def test_any_text_reads_or_raises_a_metrics_error(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("m") / "metrics.jsonl"
    path.write_text(text)
    try:
        read_eval_metrics(path)
    except MetricsError as e:
        assert "line " in str(e)


def test_a_periodic_evals_report_names_its_training_run(tmp_path):
    from agent_harness.report import write_report

    root = training_run(tmp_path / "run", [metrics_line(20, 2, 0, 0.5, 0.5)])
    step = root / "eval" / "step-20"
    step.mkdir(parents=True)
    rows = [{"task_id": f"mail/a-{i}", "template": "a", "agent": "checkpoint", "sample": 0, "passed": i == 0,
             "reward": float(i == 0), "steps": 2} for i in range(2)]
    (step / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    html = write_report([step], tmp_path / "rep").read_text()
    assert f"the periodic eval at step 20 of the training run {root.resolve()}" in html
    plain = tmp_path / "plain" / "eval" / "step-3"  # shaped alike, but no training run above it
    plain.mkdir(parents=True)
    (plain / "results.jsonl").write_text((step / "results.jsonl").read_text())
    assert "periodic eval at step" not in write_report([plain], tmp_path / "rep2").read_text()
