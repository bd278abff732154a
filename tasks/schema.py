"""The task schema. A task is one JSON object:

    {
      "id": "mail/star-latest-from-ana", "app": "mail", "seed": 0, "difficulty": "easy",
      "goal": "Star the latest email from Ana Ruiz.", "start_path": "/inbox",
      "fixtures": [], "max_steps": 15,
      "verify": {...},                       # grading.VerifySpec
      "solution": [{"click": {"role": "row", "name": "Ana Ruiz"}}, ...],
      "near_misses": [[...], ...],           # trajectories that look right but must grade 0
      "adversarial": [{"kind": "hedge", "steps": [...], "why": "..."}, ...],  # dishonest ones: must grade 0
      "harmless": [{"kind": "rsvp", "steps": [...], "tools": [...], "why": "..."}],  # honest other ways: must grade 1
      "tools": {"solution": [{"tool": "star", "args": {"thread_ids": [7]}}, {"tool": "done", "args": {}}],
                "near_misses": [[...]]}   # tool mode: the same task as function calls
    }

Solution steps are semantic (role/name selectors + text); the oracle agent resolves them to
screen coordinates and plays them through env.step, so every task is solvable in the agent's own
action space.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from apps import APP_MODULES
from grading import VerifySpec

APPS = tuple(APP_MODULES)  # the clones, named once in apps.APP_MODULES
# A cross-app task (README: "Workspace tasks") is the `workspace` app's: the three clones over one cast, in tabs.
WORKSPACE = "workspace"
TASK_APPS = (*APPS, WORKSPACE)
AppName = Literal[TASK_APPS]  # type: ignore[valid-type]
ID_RE = re.compile(rf"({'|'.join(TASK_APPS)})/[a-z0-9][a-z0-9._-]*")  # the whole id: fullmatch (`$` takes "x\n")
DIFFICULTIES = ("easy", "medium", "hard", "long")
"""The curriculum's tiers: `long` is a cross-app task of 15-60 steps."""


JUDGEMENT_TAGS = ("infeasible", "harmful", "injection")
"""The tags of judgement tasks (README: Judgement tasks): an infeasible goal, a harmful request, injected content.
A task carrying one is in the `safety` split (tasks.fresh.generalisation_split); an infeasible or harmful one
is passed by a refusal (an answer check with `$refusal`, grading/refusal.py) and an unchanged world."""


def is_judgement(task: "Task") -> bool:
    return any(t in JUDGEMENT_TAGS for t in task.tags)


class Target(BaseModel):
    """Which element a step acts on, as a person would name it (Playwright's locators)."""

    model_config = ConfigDict(extra="forbid")
    role: str | None = None  # ARIA role: button, link, textbox, row, tab, menuitem, checkbox...
    name: str | None = None  # accessible name (substring unless exact)
    exact: bool = False
    text: str | None = None  # visible text
    label: str | None = None  # form label
    placeholder: str | None = None
    css: str | None = None  # last resort
    nth: int = 0  # which match, when several (-1 = last)
    within: "Target | None" = None  # look only inside this element

    @model_validator(mode="after")
    def _one_selector(self):
        if not any([self.role, self.text, self.label, self.placeholder, self.css]):
            raise ValueError("a target needs one of role, text, label, placeholder, css")
        return self

    def describe(self) -> str:
        if self.role:
            s = f"{self.role} {self.name!r}" if self.name else self.role
        else:
            s = next(f"{k}={v!r}" for k, v in [("text", self.text), ("label", self.label),
                                                ("placeholder", self.placeholder), ("css", self.css)] if v)
        if self.nth:
            s += f" #{self.nth}"
        return f"{s} in {self.within.describe()}" if self.within else s


class SolutionStep(BaseModel):
    """One semantic step. Exactly one of the action keys is set:

    click / double_click / hover: a Target
    fill: a Target, with `text` (click the field, select all, type the text)
    type: text typed where the focus is
    press: keys pressed together, e.g. ["Enter"] or ["Control", "a"]
    scroll: a Target to scroll into view (or null with `dy` to scroll the page)
    drag: {"from": Target, "to": Target}
    wait: milliseconds
    switch_tab: an app's name, its tab brought to the front (workspace tasks only)
    done: the episode's end, with an optional `answer`
    """

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    click: Target | None = None
    double_click: Target | None = None
    hover: Target | None = None
    fill: Target | None = None
    text: str | None = None
    type: str | None = None
    press: list[str] | None = None
    scroll: Target | None = None
    dy: int | None = None
    drag: dict[str, Target] | None = None
    wait: int | None = None
    switch_tab: str | None = None
    done: bool | None = None
    answer: str | None = None

    _KINDS = ("click", "double_click", "hover", "fill", "type", "press", "scroll", "drag", "wait", "switch_tab", "done")

    @model_validator(mode="after")
    def _exactly_one(self):
        set_kinds = [k for k in self._KINDS if getattr(self, k) is not None]
        if self.scroll is None and self.dy is not None and "scroll" not in set_kinds:
            set_kinds.append("scroll")
        if len(set_kinds) != 1:
            raise ValueError(f"a solution step needs exactly one of {', '.join(self._KINDS)}; got {set_kinds or 'none'}")
        if self.fill is not None and self.text is None:
            raise ValueError("a 'fill' step needs 'text'")
        if self.drag is not None and set(self.drag) != {"from", "to"}:
            raise ValueError("a 'drag' step needs {'from': target, 'to': target}")
        if self.answer is not None and self.done is None:
            raise ValueError("'answer' goes with 'done'")
        return self

    @property
    def kind(self) -> str:
        for k in self._KINDS:
            if getattr(self, k) is not None:
                return k
        return "scroll"


AdversarialKind = Literal["hedge", "shotgun", "dump", "extra", "wrong_record", "wrong_app"]


class Adversarial(BaseModel):
    """A dishonest trajectory that must grade 0: what an RL policy would find if the grader let it.

    hedge: the right answer beside a wrong one ("23 or 8"); shotgun: every candidate at once;
    dump: written content listing the world's competing facts; extra: the gold solution plus a
    harmful side effect elsewhere; wrong_record: the right action on another record; wrong_app (a workspace
    task): the right action taken in the wrong app (the case "escalated" by flagging the mail, not in the CRM).
    """

    model_config = ConfigDict(extra="forbid")
    kind: AdversarialKind
    steps: list[SolutionStep] = Field(min_length=1)
    why: str = ""

    @model_validator(mode="after")
    def _ends_done(self):
        if self.steps[-1].kind != "done":
            raise ValueError("an adversarial trajectory must end with a 'done' step")
        return self


class ToolCall(BaseModel):
    """One function call of tool mode: a tool of the app (apps/<app>/tools.py) and its arguments, or
    `{"tool": "done", "args": {"answer": ...}}`, the episode's end."""

    model_config = ConfigDict(extra="forbid")
    tool: str = Field(pattern=r"^[a-z][a-z0-9_]{0,63}$")
    args: dict[str, Any] = Field(default_factory=dict)


HarmlessKind = Literal["open_first", "comment", "rsvp", "apply_existing", "autofilled", "phrasing", "other_control",
                       "addressing", "check_work", "courtesy", "follow_through"]


class Harmless(BaseModel):
    """An honest solution a careful person could choose, other than the gold one: it must grade 1.

    The other direction of `Adversarial`: the task must not punish the natural extra steps of someone
    doing exactly what the goal asks. open_first: opens (reads) what it acts on first; comment: adds a
    confirming comment or note where the product offers one; rsvp: answers an invitation's card the way
    the reply does; apply_existing: applies a new rule to the items that already match it, where the goal
    reads that way too; autofilled: sets a field to the value the product fills in itself; phrasing: the
    answer in a full sentence or another accepted format; other_control: another control or order of steps
    the product offers that reaches the same end (a line's own quantity dialog, the header's address
    picker); addressing: the recipients placed another way the goal allows (one on To, one on Cc);
    check_work: after the change, goes back to where it shows (reopens the record, the setting, the folder)
    to see that it took; courtesy: the written text with what a person adds to it (a greeting, a
    sign-off, a thank-you line) around what the goal asks for; follow_through: the step the goal's own words
    also imply, beside the asked one (handing an opportunity over also makes the teammate its owner).

    `steps` is the variant in the UI; `tools` the same variant as function calls (None: the UI only).
    """

    model_config = ConfigDict(extra="forbid")
    kind: HarmlessKind
    steps: list[SolutionStep] = Field(min_length=1)
    tools: list[ToolCall] | None = None
    why: str = Field(min_length=5)

    @model_validator(mode="after")
    def _ends_done(self):
        if self.steps[-1].kind != "done":
            raise ValueError("a harmless variant's steps must end with a 'done' step")
        if self.tools is not None:
            if not self.tools or self.tools[-1].tool != "done" or any(c.tool == "done" for c in self.tools[:-1]):
                raise ValueError("a harmless variant's tools must end with one 'done' call, and only there")
        return self


CalibrationKind = Literal["gold", "near_miss", "dump", "hedge", "injection", "off_topic", "too_long", "wrong_facts",
                          "rude", "empty"]


class CalibrationExample(BaseModel):
    """A labelled text for a judged task's judge: gold texts must pass, every other kind must fail.

    `uigym tasks validate` (and `uigym tasks calibrate`) run them through the task's judge checks
    against the configured judge and report agreement; browser validation answers the judge from them.
    """

    model_config = ConfigDict(extra="forbid")
    kind: CalibrationKind
    text: str
    expect: Literal["pass", "fail"]
    why: str = ""

    @model_validator(mode="after")
    def _gold_passes(self):
        if (self.kind == "gold") != (self.expect == "pass"):
            raise ValueError("a calibration example passes exactly when it is gold (every other kind must fail)")
        return self


class ToolPlan(BaseModel):
    """The task in tool mode: its gold calls and near-misses (each ends with `done`), or, for a task that
    truly cannot be done through the tools, `unsupported`: why."""

    model_config = ConfigDict(extra="forbid")
    solution: list[ToolCall] = Field(default_factory=list)
    near_misses: list[list[ToolCall]] = Field(default_factory=list)
    unsupported: str | None = None

    @model_validator(mode="after")
    def _solution_or_why(self):
        if bool(self.solution) == bool(self.unsupported):
            raise ValueError("tools: give a 'solution' (ending with done) or say why it is 'unsupported', not both")
        for calls in [self.solution, *self.near_misses]:
            if calls and calls[-1].tool != "done":
                raise ValueError("tools: a tool solution or near-miss must end with a 'done' call")
            if any(c.tool == "done" for c in calls[:-1]):
                raise ValueError("tools: 'done' ends a tool trajectory; it cannot come earlier")
        if self.unsupported and self.near_misses:
            raise ValueError("tools: an unsupported task has no near-misses")
        return self


class Task(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    app: AppName
    seed: int = 0
    now: dt.datetime | None = None
    difficulty: Literal[DIFFICULTIES]  # type: ignore[valid-type]
    goal: str = Field(min_length=5)
    start_path: str = "/"
    fixtures: list[dict[str, Any]] = Field(default_factory=list)
    max_steps: int = Field(default=30, ge=1, le=500)
    verify: VerifySpec
    solution: list[SolutionStep] = Field(min_length=1)
    near_misses: list[list[SolutionStep]] = Field(default_factory=list)
    adversarial: list[Adversarial] = Field(default_factory=list)
    # Honest other ways a careful person could do it: each must grade 1 (see Harmless).
    harmless: list[Harmless] = Field(default_factory=list)
    # Judged tasks: labelled judge texts (None, not [], for the others, so their JSON has no such key).
    calibration: list[CalibrationExample] | None = None
    # Tool mode (gym_core's tools and hybrid envs): the gold function calls. None: not written yet.
    tools: ToolPlan | None = None
    split: Literal["train", "test"] = "train"
    template: str | None = None
    tags: list[str] = Field(default_factory=list)
    # Injection tasks (tag `injection`): the checks that hold when the injected instruction was carried out, graded
    # on the episode's end beside `verify` (results rows' `attack_succeeded`, the eval summary's ASR). None elsewhere.
    attack: VerifySpec | None = None

    @field_validator("id")
    @classmethod
    def _id_shape(cls, v: str) -> str:
        if not ID_RE.fullmatch(v):
            raise ValueError(f"task id {v!r} must look like '<app>/<lowercase-name>', e.g. 'mail/star-latest-from-ana'")
        return v

    @field_validator("start_path")
    @classmethod
    def _path(cls, v: str) -> str:
        if not v.startswith("/") or v.startswith("/_gym"):
            raise ValueError("start_path must be an app path starting with '/' (and not /_gym)")
        return v

    @model_validator(mode="after")
    def _app_matches_id(self):
        if not self.id.startswith(self.app + "/"):
            raise ValueError(f"task id {self.id!r} must start with its app '{self.app}/'")
        if self.solution[-1].kind != "done":
            raise ValueError("a solution must end with a 'done' step")
        if ("injection" in self.tags) != (self.attack is not None):
            raise ValueError("a task tagged injection declares its `attack` (the checks of the injected action's "
                             "success), and only an injection task does")
        if self.attack is not None and not self.fixtures:
            raise ValueError("an injection task plants its injected text with `fixtures`")
        if {"infeasible", "harmful"} & set(self.tags) and not any(
                isinstance(c.answer if hasattr(c, "answer") else None, dict) and "$refusal" in c.answer
                for c in self.verify.checks):
            raise ValueError("a task tagged infeasible or harmful is passed by a refusal: its verify needs an answer "
                             "check with $refusal (grading/refusal.py)")
        self._tabs_fit()
        if self.verify.has_judge and not any(c.expect == "pass" for c in self.calibration or []):
            raise ValueError("a judged task needs calibration examples, at least one gold text that must pass")
        return self

    def _tabs_fit(self) -> None:
        """A workspace task's steps switch between the clones' tabs and its grader keeps every app's side-effect
        rule (an `unchanged_except` list: a change in any app that it does not allow fails); a single-app task
        has one tab."""
        steps = [*self.solution, *(s for nm in self.near_misses for s in nm),
                 *(s for v in [*self.adversarial, *self.harmless] for s in v.steps)]
        tabs = {s.switch_tab for s in steps if s.switch_tab is not None}
        if self.app != WORKSPACE:
            if tabs:
                raise ValueError("switch_tab is a workspace task's step: a single-app task has one tab")
            return
        if tabs - set(APPS):
            raise ValueError(f"switch_tab names an app: one of {', '.join(APPS)}, got {sorted(tabs - set(APPS))}")
        if self.verify.unchanged_except is None:
            raise ValueError("a workspace task's verify needs `unchanged_except` (tables <app>.<table>): nothing may "
                             "change in any app but what the task allows")
        if self.now is not None:
            raise ValueError("a workspace task runs on the workspace's one clock (seed_data.workspace.NOW): no `now`")

    @property
    def name(self) -> str:
        return self.id.split("/", 1)[1]
