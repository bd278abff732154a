"""EnvConfig: how an env shows the app and bounds an episode, in every mode (screen, tools, hybrid)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from gym_core.perturb import Perturb, parse_perturb
from gym_core.variant import VariantSpec, parse_variant


@dataclass
class EnvConfig:
    viewport: tuple[int, int] = (1280, 720)
    max_steps: int | None = None  # overrides the task's max_steps
    default_max_steps: int = 50  # for free play (no task)
    settle_timeout_ms: int = 5000
    action_timeout_s: float = 30.0  # an action, or a screenshot, that takes longer means a hung page
    a11y_tree: bool = False
    set_of_marks: bool = False
    locale: str = "en-US"
    timezone: str = "UTC"
    # Keep the env's browser context and tab across episodes, wiped clean at each reset (cookies,
    # storage, history, extra tabs, hover): about 3x cheaper than a new context, and the HTTP cache
    # keeps the app's CSS and fonts. False: a brand-new context every episode.
    reuse_context: bool = True
    # The LLM judge for tasks with judge checks: a callable (grading.judge.JudgeRequest -> JudgeVerdict).
    # None: built from UIGYM_JUDGE_BASE_URL / UIGYM_JUDGE_MODEL when a judged task is graded; with
    # neither, such an episode is graded "ungraded" (never passed).
    judge: Any = None
    # Partial credit (#38): a task whose verify declares checkpoints (its milestones: the order placed, the
    # confirmation sent) is rewarded the share it reached, 0 when a guard failed (grading.verify); the binary pass
    # is reported as before. Off by default: a reward a partial trajectory earns is one RL learns to stop at.
    partial_credit: bool = False
    # Hybrid mode: the app's tools beside the screen ({"type": "tool", "name", "args"} actions), and the last
    # call's result in the observation (`tool_result`). gym.make("uigym/<app>-hybrid-v0") turns it on.
    tools: bool = False
    # False: reset and step take no screenshot; the observation's screenshot is a blank frame of the
    # viewport's shape. For scripted players graded from the end state that never look (task validation's
    # probes: the oracle finds its targets in the DOM), where the capture is most of a step's cost.
    # Never for an agent: it would be blind.
    screenshots: bool = True
    # False: the tab loads no pictures (it lives in the runtime's second Chromium, whose Blink requests none;
    # the env's request guard would also fail any image request), so neither the app server draws them nor
    # Chromium decodes and rasters them, and no request is paused for each: a quarter of a food validation batch
    # (bench/no_images.py). The DOM, its text and its boxes are the same (the apps size their pictures in CSS). Only
    # with screenshots=False, for the same players that never look.
    images: bool = True
    # The app's look (apps/_shared/looks.py; `uigym looks` lists them): None for the app's default, a look id,
    # a list of ids or "random" (every look): a list or "random" is drawn per episode from the reset's seed.
    # reset(options={"look": ...}) overrides it for one episode.
    look: str | list[str] | None = None
    # Screen perturbations (gym_core/perturb.py), each family off by default: a Perturb, or a comma list of
    # "viewport", "scale", "dark", "overlays" (or "all", "none"), drawn per episode from the task and reset seed.
    # The world and grading are the same under every one.
    perturb: Perturb | str | None = None
    # The episode's variant (gym_core/variant.py; `uigym variants` lists the axes): a VariantSpec or a string such as
    # "look=outlook,zoom=0.8", "random" or a preset, drawn per episode from the task and reset seed. Its look axis,
    # when named, is used where `look` is None. The world and grading are the same in every variant.
    variant: VariantSpec | str | None = None
    # The seed family every task's world is built from instead of its app's own seeds (apps.TASK_FAMILIES:
    # "injected", the plain world plus attacker text; `uigym eval --family`); None: each app's own. The task's seed,
    # clock and fixtures are the same. The control API refuses a family the app does not offer.
    family: str | None = None

    def __post_init__(self) -> None:
        if not self.images and self.screenshots:
            raise ValueError("EnvConfig(images=False) is for players that never look: set screenshots=False too")
        self.perturb = parse_perturb(self.perturb)
        self.variant = parse_variant(self.variant)

    def for_mode(self, mode: str) -> "EnvConfig":
        """This config as `mode` plays it: hybrid mode lists the tools beside the screen (tools=True)."""
        return dataclasses.replace(self, tools=True) if mode == "hybrid" and not self.tools else self
