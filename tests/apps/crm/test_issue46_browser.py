"""Issue 46 (crm) in a real browser through the env: pixel clicks and typing on the pages a person uses, then the
world's state. Sorting a list by a picklist, Change Account Owner, Merge Accounts (a file and a note of the
duplicate move to the master) and an email to a non-primary contact role. The in-process tests of the same rules
(every picklist, every option, every child table) are in test_issue46.py."""

from __future__ import annotations

import re

import pytest

from apps.crm.meta import OBJECTS
from domain.crm import OPEN_STAGES
from gym_core import AsyncUIEnv
from tests.apps.crm.test_browser import _click

pytestmark = pytest.mark.slow


async def _type_into(env: AsyncUIEnv, loc, text: str, clear: bool = False):
    await _click(env, loc)
    if clear:
        await env.step({"type": "keypress", "keys": ["Control", "a"]})
        await env.step({"type": "keypress", "keys": ["Backspace"]})
    await env.step({"type": "type", "text": text})


async def _shown_ids(env: AsyncUIEnv, obj: str) -> list[int]:
    html = await env.page.content()
    return list(dict.fromkeys(int(x) for x in re.findall(rf'/lightning/r/{obj}/(\d+)/view', html)))


async def test_sort_by_stage_follows_the_picklist(runtime):
    env = AsyncUIEnv("crm", runtime=runtime)
    try:
        await env.reset(seed=0, start_path="/lightning/o/Opportunity/list?filterName=AllOpportunities")
        stage_of = {o["id"]: o["stage"] for o in (await env.state())["opportunities"]}
        rank = OBJECTS["Opportunity"].field("stage").rank
        for direction in ("asc", "desc"):
            await _click(env, env.page.get_by_role("link", name="Sort by Stage"))
            await env.page.wait_for_url(re.compile(rf"sort=stage.*dir={direction}|dir={direction}.*sort=stage"))
            ranks = [rank(stage_of[i]) for i in await _shown_ids(env, "Opportunity")]
            assert len(ranks) > 20 and ranks == sorted(ranks, reverse=direction == "desc")
            assert ranks[0] == (0 if direction == "asc" else len(OBJECTS["Opportunity"].field("stage").options) - 1)
    finally:
        await env.close()


async def test_change_account_owner_takes_contacts_and_open_opportunities(runtime):
    env = AsyncUIEnv("crm", runtime=runtime)
    try:
        await env.reset(seed=0, start_path="/lightning/page/home")
        s0 = await env.state()
        opps_by_acc: dict = {}
        for o in s0["opportunities"]:
            opps_by_acc.setdefault(o["account_id"], []).append(o)
        acc = next(a for a in sorted(s0["accounts"], key=lambda a: a["id"]) if a["owner_id"] != 7
                   and any(o["stage"] in OPEN_STAGES and o["owner_id"] == a["owner_id"] for o in opps_by_acc.get(a["id"], []))
                   and any(o["stage"] not in OPEN_STAGES and o["owner_id"] == a["owner_id"] for o in opps_by_acc.get(a["id"], []))
                   and any(c["account_id"] == a["id"] and c["owner_id"] == a["owner_id"] for c in s0["contacts"]))
        await env.page.goto(f"{env.server.url}/lightning/r/Account/{acc['id']}/view")
        await _click(env, env.page.get_by_role("button", name="Show more actions"))
        await _click(env, env.page.get_by_role("menuitem", name="Change Owner"))
        dialog = env.page.get_by_role("dialog")
        assert await dialog.get_by_role("checkbox", name="Transfer closed opportunities").is_visible()
        await _type_into(env, dialog.get_by_role("combobox", name="Owner", exact=True), "Noah")
        await _click(env, env.page.get_by_role("option", name="Noah Patel", exact=True))
        await _click(env, dialog.get_by_role("button", name="Change Owner", exact=True))
        await dialog.wait_for(state="hidden", timeout=10_000)
        s1 = await env.state()
        old = acc["owner_id"]
        after = {o["id"]: o for o in s1["opportunities"]}
        for o in opps_by_acc[acc["id"]]:
            moves = o["stage"] in OPEN_STAGES and o["owner_id"] == old
            assert after[o["id"]]["owner_id"] == (7 if moves else o["owner_id"]), o
        cons = {c["id"]: c for c in s1["contacts"]}
        for c in s0["contacts"]:
            if c["account_id"] == acc["id"]:
                assert cons[c["id"]]["owner_id"] == (7 if c["owner_id"] == old else c["owner_id"])
        assert next(a for a in s1["accounts"] if a["id"] == acc["id"])["owner_id"] == 7
    finally:
        await env.close()


async def test_merge_accounts_moves_the_duplicates_file_and_note(runtime):
    master, dup = 130, 289  # seed 0: Dovetail Metalworks Corp. and its duplicate Dovetail Metalworks (with a note)
    env = AsyncUIEnv("crm", runtime=runtime)
    try:
        await env.reset(seed=0, start_path=f"/lightning/r/Account/{dup}/view")
        p = env.page
        s0 = await env.state()
        notes = [n["id"] for n in s0["notes"] if n["parent_type"] == "Account" and n["parent_id"] == dup]
        assert notes
        await p.get_by_role("button", name="Add Files").scroll_into_view_if_needed()
        await _click(env, p.get_by_role("button", name="Add Files"))
        box = p.get_by_role("checkbox", name="Select ROI Calculator", exact=True)
        await box.scroll_into_view_if_needed()
        await _click(env, box)
        await _click(env, p.get_by_role("button", name="Add", exact=True))
        await p.wait_for_url(f"**/lightning/r/Account/{dup}/view")
        link = next(lk for lk in (await env.state())["file_links"] if lk["parent_type"] == "Account" and lk["parent_id"] == dup)

        await p.goto(f"{env.server.url}/lightning/r/Account/{master}/view")
        await p.get_by_role("link", name="View Duplicates").scroll_into_view_if_needed()
        await _click(env, p.get_by_role("link", name="View Duplicates"))
        dialog = p.get_by_role("dialog")
        await _click(env, dialog.get_by_role("button", name="Next", exact=True))
        await _click(env, dialog.get_by_role("button", name="Merge Accounts", exact=True))
        await dialog.wait_for(state="hidden", timeout=10_000)
        s1 = await env.state()
        assert all(a["id"] != dup for a in s1["accounts"])
        assert {lk["id"]: (lk["parent_type"], lk["parent_id"]) for lk in s1["file_links"]}[link["id"]] == ("Account", master)
        assert {n["id"]: n["parent_id"] for n in s1["notes"] if n["id"] in notes} == {i: master for i in notes}
    finally:
        await env.close()


async def test_email_to_a_non_primary_contact_role_is_logged_on_that_contact(runtime):
    env = AsyncUIEnv("crm", runtime=runtime)
    try:
        await env.reset(seed=0, start_path="/lightning/page/home")
        s0 = await env.state()
        contacts = {c["id"]: c for c in s0["contacts"]}
        roles: dict = {}
        for r in sorted(s0["opportunity_contact_roles"], key=lambda r: (not r["is_primary"], r["id"])):
            roles.setdefault(r["opportunity_id"], []).append(r)
        oid, rs = next((o, rs) for o, rs in sorted(roles.items()) if len(rs) >= 2 and rs[0]["is_primary"]
                       and contacts[rs[1]["contact_id"]]["email"] and contacts[rs[1]["contact_id"]]["email"] != contacts[rs[0]["contact_id"]]["email"])
        other = contacts[rs[1]["contact_id"]]
        p = env.page
        await p.goto(f"{env.server.url}/lightning/r/Opportunity/{oid}/view")
        await _click(env, p.get_by_role("tab", name="Email", exact=True))
        await _type_into(env, p.get_by_role("textbox", name="To", exact=True), other["email"], clear=True)
        await _type_into(env, p.get_by_role("textbox", name="Subject", exact=True), "Pricing for your team")
        await _type_into(env, p.get_by_role("textbox", name="Body", exact=True), "As promised.")
        await p.get_by_role("button", name="Send", exact=True).scroll_into_view_if_needed()
        await _click(env, p.get_by_role("button", name="Send", exact=True))
        await p.get_by_text("Email was sent.").first.wait_for(timeout=10_000)
        sent = [t for t in (await env.state())["tasks"] if t["subject"] == "Email: Pricing for your team"]
        assert len(sent) == 1
        t = sent[0]
        assert (t["who_type"], t["who_id"], t["what_type"], t["what_id"]) == ("Contact", other["id"], "Opportunity", oid)
        assert t["description"].startswith(f"To: {other['email']}")
    finally:
        await env.close()
