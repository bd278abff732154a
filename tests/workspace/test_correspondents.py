"""Correspondents who answer (domain/correspondence.py, apps/mail/services/correspondence.py): an e-mail that asks a
workspace person something gets their answer, from the world's facts, once the frozen clock passes their delay; the
same seed gives the same answers; the single-app mail world has nobody who answers."""

from __future__ import annotations

import datetime as dt
import tempfile
from pathlib import Path

import pytest

from domain.correspondence import HOLDING, asked, reply_text
from gym_core.runtime import Runtime
from gym_core.tool_env import AsyncToolEnv
from gym_core.workspace_env import AsyncWorkspaceEnv
from seed_data import workspace as ws

FACTS = {"phone": "(316) 555-9936", "po_number": "PO-45487", "headcount": 11, "lunch_time": "12:30 PM",
         "diet": "Two of us are vegetarian."}


def test_the_rules_answer_each_topic_asked_from_the_facts():
    r = reply_text(FACTS, "Order\nWhat is your PO number, and how many people will join?", to_first="Jordan",
                   from_first="Ana")
    assert r == "Hi Jordan,\n\nOur purchase order number is PO-45487. We will be 11 people.\n\nBest,\nAna"
    assert "12:30 PM works best" in reply_text(FACTS, "What time should lunch arrive?", to_first="J", from_first="A")
    assert HOLDING in reply_text(FACTS, "Did you enjoy the conference?", to_first="J", from_first="A")
    assert reply_text(FACTS, "Thanks, see you Monday.", to_first="J", from_first="A") is None  # asks nothing
    # a forward's quoted text is not the question
    assert asked("FYI\n\n---------- Forwarded message ---------\nWhat is your PO number?") == []


async def _ask(env, email: str, question: str, waits: list[int]) -> tuple[list[str], list[dict]]:
    await env.reset(seed=0)
    await env.step({"type": "tool", "name": "mail_send_email",
                    "args": {"to": [email], "subject": "Lunch next week", "body": question}})
    results = []
    for minutes in waits:
        obs, *_ = await env.step({"type": "tool", "name": "wait", "args": {"minutes": minutes}})
        assert not obs["last_action_error"], obs["last_action_error"]
        results.append(obs["tool_result"])
    end = await env.end_state()
    replies = [m for m in end["mail"]["messages"] if m["from_email"] == email and m["thread_id"] ==
               max(x["thread_id"] for x in end["mail"]["messages"])]
    return results, replies


async def test_an_answer_lands_after_its_delay_and_the_same_seed_gives_the_same_answer(runtime):
    person = ws.build(0, ws.NOW)["mail"]["correspondents"][0]
    env = AsyncWorkspaceEnv("tools", runtime=runtime)
    try:
        early = person["delay_minutes"] - 1
        waits, replies = await _ask(env, person["email"], "What is your PO number?", [early, 1])
        assert '"new_mail": 0' in waits[0] and '"new_mail": 1' in waits[1]  # not before its time, then at it
        [reply] = replies
        assert person["facts"]["po_number"] in reply["body"] and not reply["is_read"] and reply["in_inbox"]
        assert reply["sent_at"] == (ws.NOW + dt.timedelta(minutes=person["delay_minutes"])).isoformat()
        again = await _ask(env, person["email"], "What is your PO number?", [early, 1])
        assert again[1] == replies  # the same seed, the same answer, at the same time
        # one clock for the three worlds
        end = await env.end_state()
        assert len({end[app]["_meta"]["now"] for app in ws.APPS}) == 1
        obs, *_ = await env.step({"type": "tool", "name": "wait", "args": {"minutes": 0}})
        assert "wait takes" in obs["last_action_error"]
    finally:
        await env.close()


async def test_the_clock_only_moves_forward_and_single_app_mail_has_nobody_who_answers(runtime):
    env = AsyncToolEnv("mail", runtime=runtime)
    try:
        await env.reset(seed=0)
        contact = (await env.state())["contacts"][0]
        await env.step({"type": "tool", "name": "send_email",
                        "args": {"to": [contact["email"]], "subject": "Hi", "body": "What is your PO number?"}})
        assert await env.advance_clock(env.world_now.replace(hour=env.world_now.hour + 2)) == 0
        assert (await env.end_state())["pending_replies"] == []
        with pytest.raises(Exception, match="only moves forward"):
            await env.advance_clock(env.world_now.replace(hour=1))
    finally:
        await env.close()


async def test_a_courteous_question_in_a_statement_email_is_not_a_side_effect():
    """A task that only asks the agent to tell someone something (office-lunch-confirm: email the order's number): the
    gold email ending with a polite question draws the coworker's answer, queued and, after a wait, delivered. That is
    the world answering, not the agent's side effect: still 1 (tasks/templates/workspace/common.py `answers`). The
    answer allowance does not cover the agent's own sends: the same email to another coworker too still fails."""
    from agent_harness.agents import ToolOracleAgent
    from agent_harness.episode import run_episode
    from tasks.loader import select_tasks

    (task,) = [t for t in select_tasks("workspace/office-lunch-confirm-00") if t.id.endswith("-00")]
    gold = [c.model_dump() for c in task.tools.solution]
    send = next(i for i, c in enumerate(gold) if c["tool"] == "mail_send_email")
    asked = [*gold[:send], {**gold[send], "args": {**gold[send]["args"], "body": gold[send]["args"]["body"]
                                                   + "\n\nDoes 12:30 still work for everyone?"}},
             {"tool": "wait", "args": {"minutes": 30}}, *gold[send + 1:]]
    other = next(c["email"] for c in ws.build(0, ws.NOW)["mail"]["correspondents"]
                 if c["email"] not in gold[send]["args"]["to"])
    extra = [*asked[:-1], {"tool": "mail_send_email", "args": {**gold[send]["args"], "to": [other]}}, asked[-1]]
    call = type(task.tools.solution[0]).model_validate  # the plan's own call model
    runtime = Runtime()  # its own: an in-process `uigym eval` earlier in the worker may have closed the current one
    env = AsyncWorkspaceEnv("tools", runtime=runtime)
    try:
        for calls, reward in ((asked, 1.0), (extra, 0.0)):
            row = await run_episode(env, ToolOracleAgent(calls=[call(c) for c in calls]), task, Path(tempfile.mkdtemp()), 0, "oracle",
                                    save_screenshots=False)
            assert row["error"] is None and row["reward"] == reward, row
        end = await env.end_state()
        assert [r["state"] for r in end["mail"]["pending_replies"]], "the question drew answers"
    finally:
        await env.close()
        await runtime.close()
