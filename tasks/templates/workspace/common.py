"""What the cross-app templates share: each app's pieces (steps, checks, allowances, tool calls, written by that
app's own template helpers) put into the workspace's terms.

- a check or an allowance of an app names its table `<app>.<table>` in the joint state (`scoped`), `$ref`s too;
- a tool call of an app is `<app>_<tool>` (`calls`);
- a run of an app's UI steps is taken in its tab: `in_tab` puts the `switch_tab` before it.
"""

from __future__ import annotations

from typing import Any

from grading.joint import SEP
from seed_data import workspace as ws
from tasks.templates import World

DONE = {"done": True}


def links(w: World) -> dict[str, Any]:
    """The joins of the workspace world `w` (seed_data.workspace.links): the cast, case threads, office, receipts."""
    return ws.links(w.seed, w.now)


def scoped(app: str, piece: Any) -> Any:
    """A check, an allowance or a list of them written for `app` alone, in the joint state's terms: every `table`
    key (a row check's, an allowance's, a `$ref`'s, a judge text's) becomes `<app>.<table>`."""
    if isinstance(piece, list):
        return [scoped(app, p) for p in piece]
    if isinstance(piece, dict):
        out = {k: scoped(app, v) for k, v in piece.items()}
        if isinstance(out.get("table"), str) and SEP not in out["table"]:
            out["table"] = f"{app}{SEP}{out['table']}"
        return out
    return piece


def body(steps: list[dict]) -> list[dict]:
    """An app's steps without their final `done`."""
    return list(steps[:-1]) if steps and steps[-1].get("done") else list(steps)


def in_tab(app: str, steps: list[dict]) -> list[dict]:
    """`steps` of `app` (their `done` dropped), taken after bringing its tab to the front."""
    return [{"switch_tab": app}, *body(steps)]


def done(answer: str | None = None) -> dict[str, Any]:
    return {"done": True, "answer": answer} if answer is not None else dict(DONE)


def calls(app: str, app_calls: list[dict]) -> list[dict]:
    """An app's tool calls (its own helpers' `{"tool", "args"}`; a `done` dropped) as workspace calls."""
    return [{"tool": f"{app}_{c['tool']}", "args": dict(c.get("args", {}))} for c in app_calls if c["tool"] != "done"]


def finish(answer: str | None = None) -> dict[str, Any]:
    return {"tool": "done", "args": {"answer": answer}} if answer is not None else {"tool": "done", "args": {}}


def plan(solution: list[dict], *near_misses: list[dict]) -> dict[str, Any]:
    """A tool plan, each trajectory ending with one `done`."""
    def ended(cs: list[dict]) -> list[dict]:
        return cs if cs and cs[-1]["tool"] == "done" else [*cs, finish()]

    return {"solution": ended(solution), "near_misses": [ended(n) for n in near_misses]}


# The world answering what the agent sent (apps/mail/services/correspondence.py: a correspondent's answer queued when
# the message is sent, delivered into the conversation when the clock passes its time). Never the agent's own change:
# it writes neither, and each follows from a send the task's own allowances already limit (whom, how many). Without
# it, a correct email that politely ends with a question ("Does 12:30 still work?") failed as a side effect.
def answers(allow: list[dict]) -> list[dict]:
    """The allowances of the correspondents' answers to the sends `allow` permits: at most two answers a permitted
    message (its To and a Cc), queued (pending_replies) and delivered (an inbound reply in the conversation)."""
    sends = sum(a.get("max", 1) for a in allow if a.get("table") == f"mail{SEP}messages"
                and "create" in (a.get("ops") or ["create"]) and (a.get("where") or {}).get("is_sent") is True)
    if not sends:
        return []
    n = 2 * sends
    return [{"table": f"mail{SEP}pending_replies", "ops": ["create"], "max": n},
            {"table": f"mail{SEP}pending_replies", "ops": ["update"], "where": {"state": {"$in": ["delivered", "dropped"]}},
             "fields": ["state", "delivered_id"]},
            {"table": f"mail{SEP}messages", "ops": ["create"], "max": n,
             "where": {"is_sent": False, "is_draft": False, "in_reply_to_id": {"$ne": None}}}]


def asked_and_answered(email: str, then: tuple[list[dict], list[dict]] = ([], [])) -> dict[str, list[dict]]:
    """The mail side of a task that asks `email` something and waits for the answer (mail/parts' `graded`: checks and
    allowances, in the mail app's terms): their answer came; one question sent to them, their reply, its queue.
    `then`: the checks and allowances of what the task sends after the answer (`sent_once`), after those."""
    from tasks.templates.mail.parts import graded

    return graded(
        [{"table": "messages", "in": "created", "where": {"from_email": email, "is_sent": False}, "count": 1,
          "name": "their answer came (asked, and waited for)"}, *then[0]],
        [{"table": "messages", "ops": ["create"], "where": {"is_sent": True, "is_draft": False, "to": [email]}, "max": 1},
         {"table": "messages", "ops": ["create"], "where": {"from_email": email}, "max": 1},
         {"table": "threads", "ops": ["create"], "max": 1},
         {"table": "pending_replies", "ops": ["create"], "where": {"from_email": email}, "max": 1}, *then[1]])


def sent_once(to: str, body: dict, name: str, **expect: Any) -> tuple[list[dict], list[dict]]:
    """One new email the task sends to `to` alone (no Cc, no Bcc), in the mail app's terms: its check (`body`'s tests,
    `expect`'s fields) and its allowances (the message and its thread)."""
    check = {"table": "messages", "in": "created", "where": {"is_sent": True, "to": [to]}, "count": 1,
             "expect": {"to": [to], "cc": [], "bcc": [], "is_sent": True, "body": body, **expect}, "name": name}
    return [check], [{"table": "messages", "ops": ["create"], "where": {"is_sent": True, "is_draft": False, "to": [to]},
                      "max": 1}, {"table": "threads", "ops": ["create"], "max": 1}]


def every(*parts: str) -> str:
    """A text test (`$regex`): each of `parts` somewhere in the text, in any order, any case."""
    import re

    return "(?is)^" + "".join(f"(?=.*{re.escape(p)})" for p in parts)


def told(to: str, body: dict, name: str, **expect: Any) -> dict[str, list[dict]]:
    """The mail side of a task whose one write in the mailbox is a new email to `to` (`sent_once`, `graded`)."""
    from tasks.templates.mail.parts import graded

    return graded(*sent_once(to, body, name, **expect))


def office_order(f: Any, s: dict, it: dict, opts: list, rows: list[dict], q: int) -> dict[str, Any]:
    """One Forkful order of `q` x a store's dish for standard delivery to the office (the Work address): its UI steps
    (`steps(q, to_work)`, in the food tab, no `done`), its tool calls (`calls(q, to_work)`, workspace names), its
    checks and its allowances (food's terms)."""
    from tasks.templates.food.orders import order_expect
    from tasks.templates.food.parts import (add_line, call, checkout_address, created_order, goto_store, order_allow,
                                            order_line, place, t_add, t_checkout_address, to_checkout, user_update)

    work = next(a for a in f.addr.values() if a["label"] == "Work")
    ids = [r["id"] for r in rows]

    def steps(n: int = q, to_work: bool = True) -> list[dict]:
        return (goto_store(s) + add_line(f, it, opts, n) + to_checkout()
                + (checkout_address("Work") if to_work else []) + place())

    def tcalls(n: int = q, to_work: bool = True) -> list[dict]:
        return calls("food", [call("get_store", store_id=s["id"]), *t_add(it, ids, n),
                              *(t_checkout_address(work["id"]) if to_work else []),
                              call("get_checkout"), call("place_order")])

    return {"steps": steps, "calls": tcalls, "id": max(o["id"] for o in f.orders) + 1,
            "checks": created_order(order_expect(f, s, f.unit(it, rows) * q, addr=work), 1) + [order_line(it["id"], ids, q)],
            "allow": order_allow(s["id"], [it["id"]], 1, user_update("current_address_id"))}


def spec(checks: list[dict], allow: list[dict], milestones: dict[str, list[dict]] | None = None) -> dict[str, Any]:
    """A workspace verify spec: the checks, and `unchanged_except` over every app (what no allowance names, in any
    app, must not change; the correspondents' answers to the permitted sends, `answers`, are the world's). `milestones`: the task's checkpoints
    for partial credit (grading.Checkpoint), each a name and the checks of `checks` that reach it; the checks no
    milestone holds stay guards."""
    out: dict[str, Any] = {"checks": checks, "unchanged_except": [*allow, *answers(allow)]}
    if milestones:
        out["checkpoints"] = [{"name": name, "checks": [_label(c) for c in cs]} for name, cs in milestones.items()]
    return out


def _label(check: dict) -> str:
    """A check's label as the verifier names it (its `name`, else one made from the check)."""
    from pydantic import TypeAdapter

    from grading.spec import Check

    return TypeAdapter(Check).validate_python(check).label()


__all__ = ["answers", "asked_and_answered", "body", "calls", "done", "every", "finish", "in_tab", "links", "office_order", "plan",
           "scoped", "sent_once", "spec", "told"]
