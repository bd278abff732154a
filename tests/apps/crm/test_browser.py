"""A real browser through the env: drive Lightning flows with pixel clicks and typing, check the world's JSON."""

from __future__ import annotations

import pytest

from gym_core import AsyncUIEnv

pytestmark = pytest.mark.slow


async def _center(loc) -> tuple[int, int]:
    await loc.wait_for(state="visible", timeout=10_000)
    b = await loc.bounding_box()
    return int(b["x"] + b["width"] / 2), int(b["y"] + b["height"] / 2)


async def _click(env: AsyncUIEnv, loc):
    x, y = await _center(loc)
    obs, *_ = await env.step({"type": "click", "x": x, "y": y})
    assert obs["last_action_error"] == ""
    return obs


async def test_path_stage_change_and_global_search(runtime):
    env = AsyncUIEnv("crm", runtime=runtime)
    try:
        await env.reset(seed=0, start_path="/lightning/page/home")
        state = await env.state()
        opp = next(o for o in sorted(state["opportunities"], key=lambda o: o["id"]) if o["stage"] == "Qualification")

        # Global search typeahead -> the record page.
        await _click(env, env.page.get_by_role("combobox", name="Search", exact=True))
        await env.step({"type": "type", "text": opp["name"]})
        await _click(env, env.page.get_by_role("option", name=opp["name"], exact=True).first)
        await env.page.wait_for_url(f"**/lightning/r/Opportunity/{opp['id']}/view")

        # Path: pick Negotiation, then "Mark as Current Stage".
        await _click(env, env.page.get_by_role("option", name="Negotiation"))
        await _click(env, env.page.get_by_role("button", name="Mark as Current Stage"))
        await env.page.get_by_role("option", name="Current Stage: Negotiation").wait_for(timeout=10_000)

        after = {o["id"]: o for o in (await env.state())["opportunities"]}[opp["id"]]
        assert (after["stage"], after["probability"], after["forecast_category"]) == ("Negotiation", 80, "Commit")
        ignore = {"last_viewed_at", "updated_at", "last_modified_by_id"}
        end = {o["id"]: o for o in (await env.state())["opportunities"]}
        for o in state["opportunities"]:  # nothing else changed
            if o["id"] != opp["id"]:
                assert {k: v for k, v in o.items() if k not in ignore} == {k: v for k, v in end[o["id"]].items() if k not in ignore}
        obs, reward, term, trunc, info = await env.step({"type": "done"})
        assert term and reward == 0.0  # free play: nothing to grade
    finally:
        await env.close()


async def test_a_task_graded_through_the_env(runtime):
    """contact-phone-00 played with pixel actions: reward 1, and a do-nothing episode gets 0."""
    from tasks import load_task

    task = load_task("crm/contact-phone-00")
    env = AsyncUIEnv("crm", runtime=runtime)
    try:
        await env.reset(task=task)
        obs, reward, term, *_ = await env.step({"type": "done"})
        assert term and reward == 0.0

        await env.reset(task=task)
        contact_id = task.verify.checks[0].where["id"]
        await env.page.goto(f"{env.server.url}/lightning/r/Contact/{contact_id}/view")
        await _click(env, env.page.get_by_role("button", name="Edit", exact=True).first)
        dialog = env.page.get_by_role("dialog")
        await _click(env, dialog.get_by_role("textbox", name="Phone", exact=True))
        await env.step({"type": "keypress", "keys": ["Control", "a"]})
        await env.step({"type": "type", "text": "(312) 555-0163"})
        await _click(env, dialog.get_by_role("button", name="Save", exact=True))
        await dialog.wait_for(state="hidden", timeout=10_000)
        obs, reward, term, *_ = await env.step({"type": "done"})
        assert term and reward == 1.0
    finally:
        await env.close()


async def test_select_files_search_keeps_ticks(runtime):
    """Select Files: a file ticked before searching (or switching to Owned by Me) is still ticked after, and Add
    shares every ticked file."""
    env = AsyncUIEnv("crm", runtime=runtime)
    try:
        acc = {"id": 1}
        await env.reset(seed=0, start_path=f"/lightning/r/Account/{acc['id']}/view")
        state = await env.state()
        files = {f["title"]: f for f in state["files"]}
        p = env.page
        await p.get_by_role("button", name="Add Files").scroll_into_view_if_needed()
        await _click(env, p.get_by_role("button", name="Add Files"))

        async def tick(title: str):
            box = p.get_by_role("checkbox", name=f"Select {title}", exact=True)
            await box.scroll_into_view_if_needed()
            await _click(env, box)
        await tick("ROI Calculator")
        assert await p.get_by_role("checkbox", name="Select ROI Calculator", exact=True).is_checked()
        await _click(env, p.get_by_role("searchbox", name="Search Files"))
        await env.step({"type": "type", "text": "pricing"})
        await env.step({"type": "keypress", "keys": ["Enter"]})  # Enter must not reload the list
        assert "q=" not in p.url
        assert not await p.get_by_role("checkbox", name="Select ROI Calculator", exact=True).is_visible()
        await tick("Q1 Pricing Sheet")
        await _click(env, p.get_by_role("link", name="Owned by Me"))
        await _click(env, p.get_by_role("link", name="All Files"))
        await p.get_by_role("searchbox", name="Search Files").fill("")
        await p.get_by_role("searchbox", name="Search Files").dispatch_event("input")
        assert await p.get_by_role("checkbox", name="Select ROI Calculator", exact=True).is_checked()
        await _click(env, p.get_by_role("button", name="Add", exact=True))
        await p.wait_for_url(f"**/lightning/r/Account/{acc['id']}/view")
        links = [lk for lk in (await env.state())["file_links"] if lk["parent_type"] == "Account" and lk["parent_id"] == acc["id"]]
        got = {lk["file_id"] for lk in links} - {lk["file_id"] for lk in state["file_links"]
                                                  if lk["parent_type"] == "Account" and lk["parent_id"] == acc["id"]}
        assert got == {files["ROI Calculator"]["id"], files["Q1 Pricing Sheet"]["id"]}
    finally:
        await env.close()
