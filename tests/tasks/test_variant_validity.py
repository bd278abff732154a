"""Every template is valid in every variant (issue 45): its first instance, played in a variant, gets oracle 1, noop 0,
near-misses 0 and adversarial trajectories 0, as in the plain screen.

The variants are each app's covering sample (gym_core.variant.covering_sample): a handful of pinned variants that
together show every value of every axis the app offers at least once, rotated with the commit. CI (the default suite)
plays a small part of it, drawn from the commit: per app, CI_PAIRS (variant, template) pairs, so over the commits every
template meets every axis value. The full sweep, every template's first instance in every variant of the sample, is
`pytest -m slow tests/tasks/test_variant_validity.py` (UIGYM_VARIANT_APPS=mail,food to narrow it to those apps,
UIGYM_VARIANT_TEMPLATES=N to N templates a variant, drawn from the commit)."""

from __future__ import annotations

import asyncio
import hashlib
import os
import random

import pytest

from agent_harness.validate import validate_tasks
from apps import app_looks, look_carries
from gym_core import EnvConfig
from gym_core.variant import covering_sample
from tasks.loader import load_tasks
from tests.batch import validate_workers
from tests.commit import commit

APPS = ("mail", "food", "crm")
CI_PAIRS = 2
FIRSTS = [t for t in load_tasks() if t.id.endswith("-00") and t.app in APPS]


def sample(app: str) -> list:
    return covering_sample(app, app_looks(app), commit())


def carried(app: str, spec) -> list:
    return [t for t in FIRSTS if t.app == app and look_carries(app, spec.look, t.template)]


def ci_pairs(app: str) -> list[tuple[object, object]]:
    """This commit's (variant, template's first instance) pairs for `app`."""
    r = random.Random(int.from_bytes(hashlib.sha256(f"variant-validity:{app}:{commit()}".encode()).digest()[:8], "big"))
    specs = sample(app)
    out = []
    for spec in r.sample(specs, min(CI_PAIRS, len(specs))):
        out.append((spec, r.choice(carried(app, spec))))
    return out


async def check(plan: list[tuple[object, list]]) -> list[str]:
    """Validate each (variant, tasks) of `plan` over one Chromium; the failures, each naming its variant."""
    from gym_core.runtime import Runtime

    rt = Runtime.current()
    bad = []
    try:
        for spec, tasks in plan:
            config = EnvConfig(screenshots=False, images=False, look=spec.look, variant=spec)
            results = await validate_tasks(tasks, workers=validate_workers(), near_misses=True, harmless=False,
                                           config=config, runtime=rt)
            for t, r in zip(tasks, results):
                kinds = [p.kind for p in r.probes]
                if "oracle" not in kinds or "noop" not in kinds:
                    bad.append(f"in variant {spec}: {t.id}: not played ({r.unsupported or kinds})")
                elif not r.ok:
                    bad.append(f"in variant {spec}: {r.failures()}")
    finally:
        await rt.close()
    return bad


@pytest.mark.timeout(900)
@pytest.mark.parametrize("app", APPS)
def test_this_commits_variants_keep_templates_valid(app):
    bad = asyncio.run(check([(spec, [task]) for spec, task in ci_pairs(app)]))
    assert not bad, "\n".join(bad)


def test_the_sample_covers_every_axis_value_of_each_app():
    for app in APPS:
        specs = sample(app)
        assert {s.look for s in specs} == set(app_looks(app))
        assert {s.locale for s in specs} == {"en-US", "en-GB", "de-DE"}
        assert all(carried(app, s) for s in specs)


SWEEP_APPS = [a for a in os.environ.get("UIGYM_VARIANT_APPS", ",".join(APPS)).split(",") if a]


@pytest.mark.slow
@pytest.mark.timeout(7200)
@pytest.mark.parametrize("app,i", [(a, i) for a in SWEEP_APPS for i in range(8)])
def test_every_template_is_valid_in_every_variant_of_the_sample(app, i):
    specs = sample(app)
    if i >= len(specs):
        pytest.skip(f"{app}'s sample has {len(specs)} variants")
    spec = specs[i]
    tasks = carried(app, spec)
    cap = int(os.environ.get("UIGYM_VARIANT_TEMPLATES", "0"))  # N: that many templates a variant, drawn from the commit
    if cap:
        tasks = sorted(random.Random(f"{commit()}:{app}:{i}").sample(tasks, min(cap, len(tasks))), key=lambda t: t.id)
    bad = asyncio.run(check([(spec, tasks)]))
    print(f"{app} variant {i} ({spec}): {len(tasks) - len(bad)}/{len(tasks)} templates valid")
    assert not bad, "\n".join(bad)
