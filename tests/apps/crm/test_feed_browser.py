"""Chatter and dashboard editing in a real browser through the env (pixel clicks and typing), then the world's
state: a post that @mentions a colleague chosen from the typeahead, a comment and a like on a seeded post;
+ Component, Remove and Save on a dashboard. In-process tests: test_feed.py, test_dashboard_edit.py."""

from __future__ import annotations

import pytest

from gym_core import AsyncUIEnv
from tests.apps.crm.test_browser import _click
from tests.apps.crm.test_issue46_browser import _type_into

pytestmark = pytest.mark.slow


async def test_post_with_mention_comment_and_like(runtime):
    env = AsyncUIEnv("crm", runtime=runtime)
    try:
        await env.reset(seed=0, start_path="/lightning/page/home")
        s0 = await env.state()
        users = {u["id"]: f"{u['first_name']} {u['last_name']}" for u in s0["users"]}
        seeded = next(i for i in sorted(s0["feed_items"], key=lambda i: i["id"]) if i["parent_type"] == "Opportunity")
        oid = seeded["parent_id"]
        colleague = users[3]
        p = env.page
        await p.goto(f"{env.server.url}/lightning/r/Opportunity/{oid}/view")
        await _click(env, p.get_by_role("tab", name="Feed", exact=True))
        await _type_into(env, p.get_by_role("textbox", name="Share an update...", exact=True),
                         f"Pricing call moved to Thursday @{colleague.split()[0][:3]}")
        await _click(env, p.get_by_role("option", name=colleague, exact=True))
        await _click(env, p.get_by_role("button", name="Share", exact=True))
        await p.get_by_text("Post was shared.").first.wait_for(timeout=10_000)
        s1 = await env.state()
        new = [i for i in s1["feed_items"] if i["id"] not in {x["id"] for x in s0["feed_items"]}]
        assert len(new) == 1 and (new[0]["parent_type"], new[0]["parent_id"]) == ("Opportunity", oid)
        assert new[0]["body"].strip() == f"Pricing call moved to Thursday @{colleague}"
        assert [(x["feed_item_id"], x["user_id"]) for x in s1["feed_mentions"] if x["feed_item_id"] == new[0]["id"]] == [(new[0]["id"], 3)]
        # the feed is newest first: the new post is the first article
        first = p.get_by_role("article").first
        assert (await first.get_attribute("data-feed-item")) == str(new[0]["id"])
        post = p.get_by_role("article", name=f"{users[seeded['created_by_id']]}: {seeded['body']}", exact=True)
        await post.get_by_role("textbox", name="Write a comment...", exact=True).scroll_into_view_if_needed()
        await _type_into(env, post.get_by_role("textbox", name="Write a comment...", exact=True), "Thanks, on it.")
        await _click(env, post.get_by_role("button", name="Comment", exact=True))
        await p.get_by_text("Comment was added.").first.wait_for(timeout=10_000)
        post = p.get_by_role("article", name=f"{users[seeded['created_by_id']]}: {seeded['body']}", exact=True)
        await post.scroll_into_view_if_needed()
        liked_before = any(lk["feed_item_id"] == seeded["id"] and lk["user_id"] == 1 for lk in s0["feed_likes"])
        await _click(env, post.get_by_role("button", name="Liked" if liked_before else "Like", exact=True))
        await p.get_by_text("this post.").first.wait_for(timeout=10_000)
        s2 = await env.state()
        assert [c["body"] for c in s2["feed_comments"] if c["feed_item_id"] == seeded["id"] and c["created_by_id"] == 1] == ["Thanks, on it."]
        mine = [lk for lk in s2["feed_likes"] if lk["feed_item_id"] == seeded["id"] and lk["user_id"] == 1]
        assert len(mine) == (0 if liked_before else 1)
    finally:
        await env.close()


async def test_edit_dashboard_add_remove_save(runtime):
    env = AsyncUIEnv("crm", runtime=runtime)
    try:
        await env.reset(seed=0, start_path="/lightning/r/Dashboard/2/view")
        s0 = await env.state()
        d0 = next(d for d in s0["dashboards"] if d["id"] == 2)
        rep = next(r for r in s0["reports"] if r["id"] == 9)
        p = env.page
        await _click(env, p.get_by_role("link", name="Edit", exact=True))
        await _click(env, p.get_by_role("button", name="+ Component", exact=True))
        await _click(env, p.get_by_role("combobox", name="Report", exact=True))
        await p.get_by_role("option", name=rep["name"], exact=True).scroll_into_view_if_needed()
        await _click(env, p.get_by_role("option", name=rep["name"], exact=True))
        await _click(env, p.get_by_role("combobox", name="Display As", exact=True))
        await _click(env, p.get_by_role("option", name="Donut Chart", exact=True))
        await _type_into(env, p.get_by_role("textbox", name="Title", exact=True), "Leads by Status (donut)")
        await _click(env, p.get_by_role("button", name="Add", exact=True))
        removed = d0["components"][0]["title"]
        await p.get_by_role("button", name=f"Remove {removed}", exact=True).scroll_into_view_if_needed()
        await _click(env, p.get_by_role("button", name=f"Remove {removed}", exact=True))
        await _click(env, p.get_by_role("button", name="Save", exact=True))
        await p.get_by_text("was saved.").first.wait_for(timeout=10_000)
        d1 = next(d for d in (await env.state())["dashboards"] if d["id"] == 2)
        assert d1["components"] == d0["components"][1:] + [
            {"title": "Leads by Status (donut)", "report_id": 9, "chart": "donut", "measure": "count"}]
        assert await p.get_by_role("article", name="Leads by Status (donut)", exact=True).count() == 1
    finally:
        await env.close()


async def test_filter_logic_from_the_filters_panel(runtime):
    """Hot Web Leads (Rating = Hot, Lead Source = Web): Add Filter Logic, 1 OR 2, Save: the list view stores it and
    the list shows the hot leads and the web leads."""
    env = AsyncUIEnv("crm", runtime=runtime)
    try:
        await env.reset(seed=0, start_path="/lightning/o/Lead/list?filterName=Hot_Web_Leads&filters=open")
        p = env.page
        await _click(env, p.get_by_role("button", name="Add Filter Logic", exact=True))
        await _type_into(env, p.get_by_role("textbox", name="Filter Logic", exact=True), "1 or 2", clear=True)
        await _click(env, p.get_by_role("button", name="Save", exact=True))
        await p.get_by_text('List view "Hot Web Leads" was saved.').first.wait_for(timeout=10_000)
        s = await env.state()
        lv = next(v for v in s["list_views"] if v["id"] == 36)
        assert lv["filter_logic"] == "1 OR 2"
        want = sum(1 for x in s["leads"] if not x["is_converted"] and (x["rating"] == "Hot" or x["lead_source"] == "Web"))
        assert want > sum(1 for x in s["leads"] if not x["is_converted"] and x["rating"] == "Hot" and x["lead_source"] == "Web")
        shown = "50+ items" if want > 50 else f"{want} items"
        assert await p.get_by_text(shown, exact=False).count() >= 1
    finally:
        await env.close()
