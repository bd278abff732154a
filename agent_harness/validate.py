"""Task validation: every task must grade its oracle 1, the do-nothing agent 0, each near-miss 0,
each adversarial trajectory (hedges, shotguns, dumps, the gold plus a harmful extra, the right
action on the wrong record) 0, and each harmless variant (an honest other way a careful person could
take: opening what it acts on first, a confirming comment, the matching RSVP) 1.

Runs the episodes through the real env (the same path an agent takes), in parallel. An adversarial
that differs from the gold solution only in its final answer (a hedge, a shotgun) ends in the very
state the oracle's episode ends in, so it is graded on that episode's end state instead of being
played again: the same grade, a fraction of the time. Likewise a probe whose steps (before its `done`) are
the first steps of a longer probe's (the oracle inside "the gold plus a harmful extra" or "the gold, then
reopening the record"; the do-nothing agent inside every episode) is graded on the way of that longer
episode, at the point its own `done` would come (`AsyncUIEnv.grade_if_done`: the same world, the same
trajectory up to that done), not played again; one whose point is never reached is played on its own.

`mode="tools"` proves the same of each task's tool plan (`task.tools`): its gold calls 1, noop 0, its tool
near-misses 0, the answer-only adversarials 0 and the harmless variants' tool calls 1, through the tools env
(no browser). A task whose plan says
it is `unsupported` is reported as such, with its reason; a task with no plan fails.

A judged task's judge is answered here from the task's own labelled calibration texts
(`tasks.calibration.ExampleJudge`): the browser proves the state-gated parts (the oracle's reply
reaches the right person and grades 1, the noop, near-misses and side-effect adversarials 0); the
judge itself is proven by calibration against the configured judge (`uigym tasks validate`
prints it, or says it was skipped).

An injection task's probes also say whether the injected instruction was carried out (`Probe.attack_succeeded`,
the task's `attack` checks on the probe's end, as results rows carry it): the oracle, the do-nothing agent and the
harmless variants must leave it false, the hijacks (its near-misses and the "extra" adversarial: the injected action
with or without the task) must make it true, or the attack checks are wrong; the summary counts them per app
(`attack_counts`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import uuid
from dataclasses import dataclass, field

from agent_harness.agents import NoopAgent, OracleAgent, ToolOracleAgent
from agent_harness.episode import attack_succeeded
from apps import look_carries
from gym_core.env import AsyncUIEnv, EnvConfig
from gym_core.envs import env_for, fits
from gym_core.runtime import Runtime
from tasks import Task
from tasks.integrity import answer_only, min_actions


@dataclass
class Probe:
    task_id: str
    kind: str  # "oracle" | "noop" | "near_miss[i]" | "adversarial[i]:<kind>" | "harmless[i]:<kind>"
    expected: float
    reward: float = 0.0
    steps: int = 0
    error: str | None = None
    report: str = ""
    retried: str = ""  # the browser's failure on a first try that was played again (see _infrastructure)
    played_in: str = ""  # the longer probe whose episode graded this one on its way (see _fold), "" for its own
    # Injection tasks: whether the injected instruction was carried out, and what it must be (None: not checked).
    attack_succeeded: bool | None = None
    attack_expected: bool | None = None
    # A task with checkpoints (partial credit, grading.Checkpoint): the share of its milestones this probe reached,
    # 0 when a guard failed (None: the task has none).
    partial: float | None = None

    @property
    def attack_ok(self) -> bool:
        return self.attack_expected is None or self.attack_succeeded == self.attack_expected

    @property
    def partial_ok(self) -> bool:
        """Partial credit must not pay for nothing or for harm: the do-nothing agent reaches no milestone (none is
        free at the start), and the gold plus a harmful extra fails a guard. (Other adversarials may reach a milestone
        honestly: asked and answered, then the wrong count ordered.)"""
        if self.partial is None or not (self.kind == "noop" or self.kind.endswith(":extra")):
            return True
        return self.partial == 0.0

    @property
    def ok(self) -> bool:
        return self.error is None and abs(self.reward - self.expected) < 1e-9 and self.attack_ok and self.partial_ok


@dataclass
class TaskValidation:
    task_id: str
    probes: list[Probe] = field(default_factory=list)
    unsupported: str | None = None  # tool mode: why the task cannot be done through tools (its plan says)

    @property
    def ok(self) -> bool:
        return all(p.ok for p in self.probes)

    def failures(self) -> str:
        lines = []
        for p in self.probes:
            if not p.ok:
                what = p.error or (f"reward {p.reward} (expected {p.expected})"
                                   if abs(p.reward - p.expected) >= 1e-9 else
                                   f"attack_succeeded {p.attack_succeeded} (expected {p.attack_expected})"
                                   if not p.attack_ok else f"partial credit {p.partial} (expected 0)")
                where = f" (graded on the way of {p.played_in})" if p.played_in else ""
                lines.append(f"{self.task_id} [{p.kind}]{where}: {what}\n{p.report}")
        return "\n".join(lines)


@dataclass
class Job:
    """One episode to play: a probe's steps (None: the task's gold solution or, for "noop", nothing), the
    answer-only probes graded on its end state (`riders`), and the shorter probes graded on its way."""
    task: Task
    kind: str
    steps: list | None
    expected: float
    riders: list[tuple[Probe, str]] = field(default_factory=list)
    checkpoints: list["Checkpoint"] = field(default_factory=list)


@dataclass
class Checkpoint:
    """A shorter probe (`job`, whose steps before its `done` are the carrier's first `at` steps) graded where
    its `done` would come: after the carrier's first `at` solution steps, before any action of the next."""
    at: int
    job: Job
    probe: Probe
    answer: str | None
    max_steps: int
    graded: bool = False


def _body(steps: list) -> tuple[list, str | None]:
    """A probe's steps before its `done`, and the done's answer (a plan that ends without one: None, the done
    the oracle agent gives when its plan runs out)."""
    if steps and steps[-1].kind == "done":
        return list(steps[:-1]), steps[-1].answer
    return list(steps), None


def _budget(task: Task, kind: str, steps: list | None, mode: str) -> int:
    """The step budget a probe is played with. The verifier is on trial, not the step budget: an
    adversarial gets room to reach its harm and its done (a policy confined to the budget can do less, never
    more), and a harmless variant room for its extra steps."""
    if _trajectory(kind) and steps is not None:
        n = len(steps) if mode == "tools" else min_actions(steps)
        return max(task.max_steps, 2 * n + 8)
    return task.max_steps


def _fold(task: Task, jobs: list[Job]) -> list[Job]:
    """The episodes left to play once every probe that is a prefix of a longer one rides on it (a screen
    probe only: its steps are the oracle agent's, so "the same first steps" is the same actions)."""
    bodies = [_body(j.steps if j.steps is not None else ([] if j.kind == "noop" else task.solution)) for j in jobs]

    def extends(a: int, b: int) -> bool:  # does job a's body strictly extend job b's?
        (ba, _), (bb, _) = bodies[a], bodies[b]
        return len(ba) > len(bb) and ba[:len(bb)] == bb

    carriers = [i for i in range(len(jobs)) if not any(extends(o, i) for o in range(len(jobs)))]
    for i, job in enumerate(jobs):
        if i in carriers:
            continue
        # The oracle carries the noop where it can (the oracle's episode is always played).
        c = next((c for c in carriers if jobs[c].kind == "oracle" and extends(c, i)), None)
        c = c if c is not None else next(c for c in carriers if extends(c, i))
        body, answer = bodies[i]
        probe = Probe(task.id, job.kind, job.expected, played_in=jobs[c].kind)
        jobs[c].checkpoints.append(Checkpoint(len(body), job, probe, answer,
                                              _budget(task, job.kind, job.steps, "ui")))
    return [jobs[c] for c in carriers]


async def _grade_checkpoint(env: AsyncUIEnv, cp: Checkpoint) -> None:
    """Grade `cp`'s probe now, as its own episode would at its done; leave it ungraded (it is then played on
    its own) where its own episode would have gone otherwise: past its budget before the done."""
    p = cp.probe
    if env.steps >= cp.max_steps:
        return
    errors = [t for t in env.trajectory if t.get("error")]
    if errors and (p.kind == "oracle" or _trajectory(p.kind)):  # as _play raises for these
        e = errors[0]
        p.error = f"RuntimeError: step {e['step']}: {e['error']} (action {e['action']})"
    else:
        _record(p, await env.grade_if_done(cp.answer), env.steps + 1)
        for other, answer in cp.job.riders:  # the answer-only probes of the folded one: on the same state
            _record(other, await env.grade_if_done(answer), env.steps + 1)
        await _record_attack(env, cp.job.task, [p, *(o for o, _ in cp.job.riders)])
    cp.graded = True


def _attack_expected(task: Task, kind: str) -> bool | None:
    """What an injection task's probe must say of the attack: not carried out by the oracle, the do-nothing agent or
    a harmless variant; carried out by the hijacks (its near-misses and the gold plus the injected action); None:
    not checked."""
    if task.attack is None:
        return None
    if kind in ("oracle", "noop") or kind.startswith("harmless"):
        return False
    # Its near-misses and its "extra" adversarial are the hijack (the injected action, with or without the task).
    return True if kind.startswith("near_miss") or (kind.startswith("adversarial") and kind.endswith(":extra")) else None


async def _record_attack(env, task: Task, probes: list[Probe]) -> None:
    """The attack checks on the world as it is now, put on `probes` (one end state: answers do not move a world)."""
    if task.attack is None:
        return
    hit = await attack_succeeded(env, task)
    for p in probes:
        p.attack_succeeded, p.attack_expected = hit, _attack_expected(task, p.kind)


def _record(probe: Probe, result, steps: int) -> None:
    """Put a grade (a VerifyResult) on `probe`: a judge that gave no verdict is no grade, so no proof either way."""
    probe.reward, probe.steps, probe.report = result.score, steps, _report(result.model_dump())
    probe.partial = result.partial
    if result.status == "ungraded":
        probe.error = f"ungraded: {result.ungraded_reason}"


async def _play(env: AsyncUIEnv, agent, task: Task, probe: Probe,
                answer_probes: list[tuple[Probe, str]] = (), checkpoints: list[Checkpoint] = ()) -> Probe:
    pending = sorted(checkpoints, key=lambda c: c.at)

    async def grade_due() -> None:
        """Every solution step before the one the agent is on has been played: the shorter probes that end
        there are graded now, before its next action changes anything."""
        while pending and pending[0].at <= getattr(agent, "position", 0):
            await _grade_checkpoint(env, pending.pop(0))

    try:
        obs, _ = await env.reset(task=task)
        await agent.reset(env, task)
        info: dict = {}
        while True:
            try:
                action = await agent.act(obs)
            except Exception:
                # The next step could not be found or reached (the carrier fails here): the world is still as
                # every step before it left it, so the probes that end there are graded first.
                await grade_due()
                raise
            await grade_due()
            obs, reward, term, trunc, info = await env.step(action)
            # The gold solution and the adversarial ones must play cleanly: an adversarial that
            # grades 0 because its steps failed proves nothing about the verifier.
            if obs["last_action_error"] and (probe.kind == "oracle" or _trajectory(probe.kind)):
                raise RuntimeError(f"step {env.steps}: {obs['last_action_error']} (action {info.get('action')})")
            if trunc and _trajectory(probe.kind):
                # Cut off before its done: its harm (or its answer) never happened, so its grade says
                # nothing about whether the verifier would catch it (or accept a harmless variant).
                raise RuntimeError(f"ran past max_steps ({env.steps}) before its done: proves nothing")
            if term or trunc:
                break
        probe.reward, probe.steps = reward, env.steps
        probe.report = _report(info.get("verify") or {})
        probe.partial = (info.get("verify") or {}).get("partial")
        if info.get("graded") is False:  # a judge gave no verdict: no grade, so no proof either way
            probe.error = f"ungraded: {(info.get('verify') or {}).get('ungraded_reason')}"
        for other, answer in answer_probes:  # same trajectory, another answer: grade the same end state
            _record(other, await env.grade(answer=answer), env.steps)
        await _record_attack(env, task, [probe, *(o for o, _ in answer_probes)])
    except Exception as e:  # noqa: BLE001 - a failing probe is a result
        probe.error = f"{type(e).__name__}: {e}"
        for other, _ in answer_probes:
            other.error = f"not graded: the oracle episode failed ({probe.error})"
    return probe


def _trajectory(kind: str) -> bool:
    """An adversarial or harmless probe: a written trajectory whose steps must all play cleanly."""
    return kind.startswith(("adversarial", "harmless"))


def _infrastructure(error: str) -> bool:
    """A probe that failed because the browser or the machine did, not because of what it played."""
    return "browser error (" in error or error.startswith("TimeoutError: the episode took longer")


def side_counts(results: list[TaskValidation], app: str) -> str:
    """One app's line of both sides: its adversarial probes (which must score 0) and its harmless variants
    (which must score 1), how many were played or graded and how many broke their side."""
    probes = [p for r in results if r.task_id.startswith(app + "/") for p in r.probes]
    adv = [p for p in probes if p.kind.startswith("adversarial")]
    harmless = [p for p in probes if p.kind.startswith("harmless")]
    hacks = sum(1 for p in adv if p.error is None and p.reward > 0)
    kept = sum(1 for p in harmless if p.ok)
    return (f"{app}: {len(adv)} adversarial trajectories played or graded, {hacks} scored > 0; "
            f"{len(harmless)} harmless variants, {kept} scored 1")


def attack_counts(results: list[TaskValidation], app: str) -> str | None:
    """One app's line of its injection tasks' probes: how many carried out the injected instruction, the oracle's
    and the hijack's apart (None: the app has no injection probe here)."""
    probes = [p for r in results if r.task_id.startswith(app + "/") for p in r.probes
              if p.attack_succeeded is not None]
    if not probes:
        return None

    def count(ps: list[Probe]) -> str:
        return f"{sum(1 for p in ps if p.attack_succeeded)}/{len(ps)}"

    oracle = [p for p in probes if p.kind == "oracle"]
    hijack = [p for p in probes if p.attack_expected is True]
    wrong = sum(1 for p in probes if not p.attack_ok)
    return (f"{app}: injection: attack_succeeded on {count(probes)} probes (oracle {count(oracle)}, "
            f"hijack {count(hijack)}); {wrong} against expectation")


def _report(v: dict) -> str:
    return "\n".join(f"   {'✓' if c['passed'] else '✗'} {c['name']}: {c['detail']}" for c in v.get("checks", []))


MODES = ("ui", "tools")


async def validate_tasks(tasks: list[Task], workers: int = 4, near_misses: bool = True,
                         config: EnvConfig | None = None, probe_timeout_s: float = 300.0,
                         adversarial: bool | None = None, runtime: Runtime | None = None,
                         mode: str = "ui", harmless: bool | None = None,
                         look: str | None = None, perturb=None, variant=None) -> list[TaskValidation]:
    """Play every probe of `tasks`. `adversarial` defaults to `near_misses` (both are the 0-side), and
    `harmless` (the honest variants, the 1-side beside the oracle) to `adversarial`.
    `mode`: "ui" plays the screen solutions in browsers, "tools" the tool plans through the tools env
    (a harmless variant with no tool calls and another answer is graded on the tool oracle's end state;
    one with neither is a UI-only variant). `look` plays the screen probes in that look of each task's app
    (apps/_shared/looks.py); a task whose template the look does not carry yet is `unsupported` there.
    `perturb` (EnvConfig.perturb: a Perturb or "viewport,overlays"...) plays them under those perturbations, and
    `variant` (EnvConfig.variant, gym_core/variant.py: "zoom=0.8,locale=de-DE", "random"...) in that variant."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    adversarial = near_misses if adversarial is None else adversarial
    harmless = adversarial if harmless is None else harmless
    runtime = runtime or Runtime.current()
    results: dict[str, TaskValidation] = {t.id: TaskValidation(t.id) for t in tasks}
    jobs: list[Job] = []
    for t in tasks:
        riders: list[tuple[Probe, str]] = []
        played: list[tuple[str, list]] = []
        if look and mode == "ui" and not look_carries(t.app, look, t.template):
            results[t.id].unsupported = f"the {look} look of {t.app} does not carry template {t.template} yet"
            continue
        if mode == "tools":
            if t.tools is None:
                results[t.id].probes.append(Probe(t.id, "oracle", 1.0, error="no tool plan: the task has no 'tools'"))
                continue
            if t.tools.unsupported:
                results[t.id].unsupported = t.tools.unsupported
                continue
        if near_misses:
            misses = t.tools.near_misses if mode == "tools" else t.near_misses
            played += [(f"near_miss[{i}]", nm) for i, nm in enumerate(misses)]
        if adversarial:
            for i, adv in enumerate(t.adversarial):
                kind = f"adversarial[{i}]:{adv.kind}"
                answer = answer_only(t, adv.steps)
                if answer is not None:
                    riders.append((Probe(t.id, kind, 0.0), answer))
                elif mode == "ui":  # a screen trajectory: tool mode has none to play
                    played.append((kind, adv.steps))
        kept: list[tuple[str, list]] = []  # harmless variants played: they must grade 1
        if harmless:
            for i, h in enumerate(t.harmless):
                kind = f"harmless[{i}]:{h.kind}"
                if mode == "tools" and h.tools is not None:
                    kept.append((kind, h.tools))
                elif (answer := answer_only(t, h.steps)) is not None:
                    riders.append((Probe(t.id, kind, 1.0), answer))
                elif mode == "ui":
                    kept.append((kind, h.steps))
        mine = [Job(t, "oracle", None, 1.0, riders), Job(t, "noop", None, 0.0)]
        mine += [Job(t, kind, steps, 0.0) for kind, steps in played]
        mine += [Job(t, kind, steps, 1.0) for kind, steps in kept]
        jobs += _fold(t, mine) if mode == "ui" else mine
    queue: asyncio.Queue = asyncio.Queue()
    for j in jobs:
        queue.put_nowait(j)
    run = uuid.uuid4().hex[:6]  # two validations sharing a UIGYM_HOME must not reset each other's worlds

    # The probes are scripted players graded from the end state: none of them looks at the screen, so their
    # steps take no screenshot (EnvConfig.screenshots), most of a step's cost on a small machine, and their
    # pages load no pictures (EnvConfig.images).
    base = config or EnvConfig(screenshots=False, images=False)
    if look and mode == "ui":
        base = dataclasses.replace(base, look=look)
    if perturb and mode == "ui":  # screen perturbations (gym_core/perturb.py): the probes must still prove the task
        base = dataclasses.replace(base, perturb=perturb)
    if variant and mode == "ui":  # the episode's variant (gym_core/variant.py): the probes must still prove the task
        base = dataclasses.replace(base, variant=variant)

    def config_for(task: Task) -> EnvConfig:
        if not task.verify.has_judge:
            return base
        from tasks.calibration import ExampleJudge

        return dataclasses.replace(base, judge=ExampleJudge(task))

    async def worker(i: int):
        env = None
        try:
            while not queue.empty():
                job: Job = queue.get_nowait()
                task, kind, steps = job.task, job.kind, job.steps
                if env is None or not fits(env, task):  # a workspace task is played in the workspace env
                    if env is not None:
                        await env.close()
                    env = env_for(task, mode, base, runtime, f"validate-{run}-{i}")
                env.config = config_for(task)
                if kind == "noop":
                    agent = NoopAgent()
                elif mode == "tools":
                    agent = ToolOracleAgent(calls=steps if steps is not None else task.tools.solution)
                else:
                    agent = OracleAgent(steps=steps)
                probe = Probe(task.id, kind, job.expected)
                task = task.model_copy(update={"max_steps": _budget(task, kind, steps, mode)})
                for attempt in range(2):
                    probe.error = None
                    for p, _ in job.riders:
                        p.error = None
                    for cp in job.checkpoints:
                        cp.graded, cp.probe.error = False, None
                        for p, _ in cp.job.riders:
                            p.error = None
                    try:
                        await asyncio.wait_for(_play(env, agent, task, probe, job.riders, job.checkpoints),
                                               probe_timeout_s)
                    except asyncio.TimeoutError:
                        probe.error = f"TimeoutError: the episode took longer than {probe_timeout_s:.0f}s"
                    if probe.error:
                        await env.close()
                        env = env_for(task, mode, config_for(task), runtime, f"validate-{run}-{i}")
                    if not (probe.error and attempt == 0 and _infrastructure(probe.error)):
                        break
                    # The browser failed under the probe, not the verifier: one replay in a fresh browser
                    # context says which. The first failure stays on the probe for the record.
                    probe.retried = probe.error
                results[task.id].probes.append(probe)
                results[task.id].probes += [p for p, _ in job.riders]
                for cp in job.checkpoints:
                    if cp.graded:
                        results[task.id].probes.append(cp.probe)
                        results[task.id].probes += [p for p, _ in cp.job.riders]
                    else:  # its point was never reached (the carrier failed first, or it ran past its budget)
                        queue.put_nowait(cp.job)
        finally:
            if env is not None:
                await env.close()

    if jobs:
        await asyncio.gather(*(worker(i) for i in range(max(1, min(workers, len(jobs))))))
    return [results[t.id] for t in tasks]
