"""Round two of the clone (issue 17): attaching files from My Files, Reply all with its Cc, and the General
settings that came with it (Undo Send's period, keyboard shortcuts)."""

from __future__ import annotations

import random

from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.mail._tools import call, find_open, plan
from tasks.templates.mail._common import (COMPOSE, Mailbox, adversarial, all_settings, click, done, extra, graded,
                                          on_messages, open_row, phrase, search, text_bound)
from tasks.templates.mail.basics import letter
from tasks.templates.mail.compose import compose_steps
from tasks.templates.mail.settings import recheck

LETTERS = [
    ("Numbers for the review", "Here is the file we talked about. Let me know if anything looks off."),
    ("For Thursday", "Attached is what I mentioned this morning, ahead of Thursday."),
    ("The file you asked for", "As promised, here it is. Happy to walk you through it."),
    ("Quick share", "Sharing this before I forget. No rush on a reply."),
]
REPLIES = [
    "Thanks, everyone. The file is attached.",
    "Attaching it here so we all have the same version.",
    "Good point. Here is the latest file for all of you.",
    "Sharing the file with the whole group.",
]


def _files(w: World) -> list[dict]:
    return sorted(w.table("files"), key=lambda f: f["id"])


def insert_files(names: list[str], within: dict | None = None) -> list[dict]:
    """Open "Insert files from My Files", tick the files by name, Insert."""
    opener = click("button", "Insert files from My Files", exact=True, within=within)
    return [opener, *[click("checkbox", n, exact=True) for n in names], click("button", "Insert", exact=True)]


def _attachments_made(first_new_message: int, name: str) -> dict:
    return {"table": "attachments", "in": "created", "count": 1,
            "expect": {"filename": name, "message_id": {"$gte": first_new_message}},
            "name": f"{name} attached to the new message"}


def _attachment_allowance(first_new_message: int) -> dict:
    return {"table": "attachments", "ops": ["create"], "where": {"message_id": {"$gte": first_new_message}}, "max": 1}


def _people(mb: Mailbox) -> list[dict]:
    return [c for c in mb.contacts if c["relation"] in ("coworker", "client", "friend") and c["is_saved"]
            and not c["email"].startswith("ap@")]


@template("mail", "send-with-attachment", difficulty="medium", max_steps=18, count=4, test_every=4)
def send_with_attachment(w: World, rng: random.Random):
    """Write a new email and attach a named file from My Files (compose > Insert files from My Files)."""
    mb = Mailbox(w)
    files = _files(w)
    people = _people(mb)
    first_new = max(m["id"] for m in mb.msgs) + 1
    for i, c in enumerate(rng.sample(people, len(people))):
        subject, body = LETTERS[i % len(LETTERS)]
        f = files[(i * 5) % len(files)]
        wrong = files[(i * 5 + 1) % len(files)]
        second = people[(people.index(c) + 1) % len(people)]
        base = compose_steps(c["email"], subject, body)
        send = click("button", "Send", exact=True, within=COMPOSE)
        gold = base + insert_files([f["name"]], COMPOSE) + [send, done()]
        yield {
            "goal": f"Send an email to {c['name']} ({c['email']}) with the subject \u201c{subject}\u201d and the text "
                    f"\u201c{body}\u201d, with the file \u201c{f['name']}\u201d from My Files attached.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "in": "created", "count": 1,
                  "expect": {"to": [c["email"]], "cc": [], "bcc": [], "subject": {"$ieq": subject}, "is_sent": True,
                             "is_draft": False, "body": {"$icontains": body, "$len": text_bound(body, extra=mb.me["signature"])}},
                  "name": "one email sent"},
                 _attachments_made(first_new, f["name"])],
                [{"table": "messages", "ops": ["create"], "where": {"is_sent": True, "is_draft": False}, "max": 1},
                 {"table": "threads", "ops": ["create"], "max": 1},
                 _attachment_allowance(first_new)]),
            "solution": gold,
            "harmless": [harmless("courtesy", compose_steps(c["email"], subject, letter(c["name"], body, mb.me["name"]))
                                  + insert_files([f["name"]], COMPOSE) + [send, done()],
                                  "a greeting and a sign-off around the asked text",
                                  [call("send_email", to=[c["email"]], subject=subject,
                                        body=letter(c["name"], body, mb.me["name"]), file_ids=[f["id"]])])],
            "tools": plan([call("list_files", query=f["name"].rsplit(".", 1)[0]),
                           call("send_email", to=[c["email"]], subject=subject, body=body, file_ids=[f["id"]])],
                          [call("send_email", to=[c["email"]], subject=subject, body=body)],
                          [call("send_email", to=[c["email"]], subject=subject, body=body, file_ids=[wrong["id"]])],
                          [call("save_draft", to=[c["email"]], subject=subject, body=body, file_ids=[f["id"]])]),
            "near_misses": [base + [send, done()],
                            base + insert_files([wrong["name"]], COMPOSE) + [send, done()],
                            base + insert_files([f["name"]], COMPOSE) + [click("button", "Save & close", exact=True, within=COMPOSE), done()]],
            "adversarial": [
                adversarial("shotgun", base + insert_files([f["name"], wrong["name"]], COMPOSE) + [send, done()],
                            "attaches the file asked for and another one"),
                extra(gold, compose_steps(second["email"], subject, body) + insert_files([f["name"]], COMPOSE) + [send],
                      "sends the file to a second person too"),
            ],
        }


def _cc_threads(mb: Mailbox) -> list[int]:
    """Inbox conversations whose latest message is from a contact to me and others, with people on Cc."""
    out = []
    me = mb.me["email"].lower()
    for tid in sorted(mb.threads):
        if not (mb.in_inbox(tid) and mb.plain(tid) and mb.threads[tid]["category"] == "primary"):
            continue
        last = mb.last(tid)
        if mb.is_mine(last) or not last["cc"] or last["from_email"] not in mb.by_email:
            continue
        if me not in last["to"] and me not in last["cc"]:
            continue
        out.append(tid)
    return out


def reply_all_recipients(mb: Mailbox, m: dict) -> tuple[list[str], list[str]]:
    """Gmail's Reply all (apps/mail/services/compose.py): sender and To on To, Cc on Cc, without me."""
    me = mb.me["email"].lower()
    to = [e for e in dict.fromkeys(x.lower() for x in [m["from_email"], *m["to"]]) if e != me]
    cc = [e for e in dict.fromkeys(x.lower() for x in m["cc"]) if e != me and e not in to]
    return to, cc


@template("mail", "reply-all-with-attachment", difficulty="hard", max_steps=18, count=4, test_every=4)
def reply_all_with_attachment(w: World, rng: random.Random):
    """Reply all to an email that has people on Cc (they stay on Cc), with a named file from My Files attached."""
    mb = Mailbox(w)
    files = _files(w)
    first_new = max(m["id"] for m in mb.msgs) + 1
    tids = _cc_threads(mb)
    for i, tid in enumerate(rng.sample(tids, len(tids))):
        last = mb.last(tid)
        subject = mb.threads[tid]["subject"]
        to, cc = reply_all_recipients(mb, last)
        text = REPLIES[i % len(REPLIES)]
        f = files[(i * 3 + 2) % len(files)]
        wrong = files[(i * 3 + 3) % len(files)]
        path = search(phrase(subject)) + [open_row(subject)]
        fill_body = {"fill": {"role": "textbox", "name": "Message Body"}, "text": text}
        send = click("button", "Send", exact=True)

        def reply(mode: str, names: list[str]) -> list[dict]:
            return [click("button", mode, exact=True), fill_body, *insert_files(names), send]

        gold = path + reply("Reply all", [f["name"]]) + [done()]
        polite = f"Hi all,\n\n{text}\n\nBest,\n{mb.me['name'].split()[0]}"
        polite_fill = {"fill": {"role": "textbox", "name": "Message Body"}, "text": polite}
        yield {
            "goal": f"Reply all to {last['from_name']}'s email \u201c{subject}\u201d (everyone on it, Cc included) "
                    f"with \u201c{text}\u201d and attach \u201c{f['name']}\u201d from My Files.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "in": "created", "count": 1,
                  "expect": {"thread_id": tid, "in_reply_to_id": last["id"], "is_sent": True, "to": to, "cc": cc,
                             "bcc": [], "body": {"$icontains": text, "$len": text_bound(text, extra=mb.me["signature"])}},
                  "name": "a reply to everyone, the Cc kept on Cc"},
                 _attachments_made(first_new, f["name"])],
                [{"table": "messages", "ops": ["create"], "where": {"is_sent": True, "is_draft": False, "thread_id": tid},
                  "max": 1},
                 on_messages({"thread_id": tid}, []),
                 _attachment_allowance(first_new)]),
            "solution": gold,
            "harmless": [harmless("courtesy", path + [click("button", "Reply all", exact=True), polite_fill,
                                                      *insert_files([f["name"]]), send, done()],
                                  "a greeting to everyone and a sign-off around the asked text",
                                  find_open(subject, tid) + [call("reply", thread_id=tid, body=polite, reply_all=True,
                                                                  file_ids=[f["id"]])])],
            "tools": plan(find_open(subject, tid) + [call("list_files"),
                                                     call("reply", thread_id=tid, body=text, reply_all=True, file_ids=[f["id"]])],
                          find_open(subject, tid) + [call("reply", thread_id=tid, body=text, file_ids=[f["id"]])],
                          find_open(subject, tid) + [call("reply", thread_id=tid, body=text, reply_all=True)],
                          find_open(subject, tid) + [call("reply", thread_id=tid, body=text, reply_all=True,
                                                          to=[*to, *cc], file_ids=[f["id"]])]),
            "near_misses": [path + reply("Reply", [f["name"]]) + [done()],
                            path + [click("button", "Reply all", exact=True), fill_body, send, done()],
                            path + reply("Reply all", [wrong["name"]]) + [done()]],
            "adversarial": [
                adversarial("shotgun", path + reply("Reply all", [f["name"], wrong["name"]]) + [done()],
                            "attaches the file asked for and another one"),
                extra(gold, [click("button", "Reply", exact=True), fill_body, send], "sends a second reply"),
            ],
        }


@template("mail", "general-settings", difficulty="medium", max_steps=10, count=3, test_every=3)
def general_settings(w: World, rng: random.Random):
    """Settings > General: Undo Send's cancellation period, or keyboard shortcuts on."""
    save = click("button", "Save Changes", exact=True)
    for field, value in [("undo_send_seconds", 30), ("keyboard_shortcuts", True), ("undo_send_seconds", 20)]:
        if field == "undo_send_seconds":
            wrong = 10
            set_to = lambda v: [click("button", "Send cancellation period"), click("option", str(v), exact=True)]  # noqa: E731
            steps = all_settings() + set_to(value) + [save, done()]
            near = all_settings() + set_to(wrong) + [save, done()]
            goal = f"Give yourself more time to undo a sent email: set Undo Send's cancellation period to {value} seconds."
            tool_near = {"undo_send_seconds": wrong}
        else:
            steps = all_settings() + [click("radio", "Keyboard shortcuts on", exact=True), save, done()]
            near = all_settings() + [click("radio", "Keyboard shortcuts on", exact=True), done()]
            goal = "Turn on keyboard shortcuts in Inkbox's settings."
            tool_near = {"show_snippets": False}
        harm = [click("radio", "No snippets", exact=True), save]
        yield {
            "goal": goal,
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "account", "where": {"id": 1}, "expect": {field: value}, "name": "setting saved"}],
                [{"table": "account", "where": {"id": 1}, "fields": [field]}]),
            "solution": steps,
            "harmless": [harmless("check_work", steps[:-1] + recheck(),
                                  "saves it, then leaves and reopens the settings to see it took",
                                  [call("get_settings"), call("update_settings", **{field: value}), call("get_settings")])],
            "tools": plan([call("get_settings"), call("update_settings", **{field: value})],
                          [call("get_settings"), call("update_settings", **tool_near)]),
            "near_misses": [near],
            "adversarial": [extra(steps, harm, "turns snippets off too")],
        }
