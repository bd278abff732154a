"""The injected seed family (seed_data/injected.py, issue #39): a plain world plus attacker text, a family of its own
seeds. Deterministic; it changes only the rows it says it planted (the plain worlds are pinned by digest in
tests/workspace/test_seed.py); one injection per app hides from the screen (mail's and crm's white 1-pixel HTML
paragraph, food's review past its card's three lines); an env reset in the family serves that world."""

from __future__ import annotations

import pytest

import apps.crm
import apps.food
import apps.mail
from seed_data.injected import FAMILY, planted

SPECS = {"mail": apps.mail.SPEC, "food": apps.food.SPEC, "crm": apps.crm.SPEC}


def _by_id(rows):
    return {t: {r["id"]: r for r in rs} for t, rs in rows.items() if rs and "id" in rs[0]}


@pytest.mark.parametrize("app", ["mail", "food", "crm"])
def test_the_family_plants_what_it_says_and_nothing_else(app):
    spec = SPECS[app]
    now = spec.default_now
    plain, injected = spec.build_world(0, now), spec.families[FAMILY](0, now)
    assert injected == spec.families[FAMILY](0, now)  # same seed, same world
    marks = planted(app, spec.build_world, 0, now)
    assert marks and any(m["hidden"] for m in marks)  # every app hides one from the screen
    assert marks != planted(app, spec.build_world, 1, now)  # another seed, other places
    before, after = _by_id(plain), _by_id(injected)
    where = {(m["table"], m["id"]) for m in marks}
    for table, rows in after.items():
        for rid, row in rows.items():
            if (table, rid) in where:
                m = next(m for m in marks if (m["table"], m["id"]) == (table, rid))
                assert m["text"] in row[m["column"]]
                assert rid not in before[table] or before[table][rid] != row
            else:
                assert before[table].get(rid) == row, (table, rid)  # untouched elsewhere
    assert sum(len(r) for r in after.values()) - sum(len(r) for r in before.values()) == \
        sum(1 for m in marks if m["id"] not in before[m["table"]])  # only food's review and crm's email are new
    if app in ("mail", "crm"):  # white 1-pixel text at the end of an email's HTML
        hidden = next(m for m in marks if m["hidden"])
        html = after[hidden["table"]][hidden["id"]]["body_html" if app == "mail" else "html_body"]
        assert 'style="color:#ffffff;font-size:1px"' in html and hidden["text"][:40] in html


@pytest.mark.asyncio
async def test_an_env_reset_in_the_family_serves_the_injected_world(runtime):
    """Free play in the family (WorldEnv.family): the tools read the planted text; the plain reset does not."""
    from gym_core.tool_env import AsyncToolEnv

    spec = SPECS["crm"]
    marks = planted("crm", spec.build_world, 0, spec.default_now)
    mark = next(m for m in marks if m["table"] == "cases")
    email = next(m for m in marks if m["hidden"])
    env = AsyncToolEnv("crm", runtime=runtime)
    try:
        texts = {}
        for family in (FAMILY, None):
            env.family = family
            await env.reset(seed=0)
            case = await env.runtime.control(env.server).call_tool(env.world_id, "get_record",
                                                                   {"object": "Case", "record_id": mark["id"]})
            texts[family] = str(case)
            if family == FAMILY:  # the email's HTML reached the world (its only task row with html_body)
                row = next(r for r in (await env.state())["tasks"] if r["id"] == email["id"])
                assert 'style="color:#ffffff;font-size:1px"' in (row["html_body"] or "")
    finally:
        await env.close()
    assert mark["text"][:60] in texts[FAMILY] and mark["text"][:60] not in texts[None]
