"""Chatter on records (apps/crm/services/feed.py, the record page's Feed tab): posting with an @mention chosen from
the typeahead, commenting on a colleague's post, liking one, and reading who asked you something."""

from __future__ import annotations

import random
from collections import defaultdict

from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.crm._common import (
    ME, Crm, allow_create, button, call, done, dump, dump_text, extra, find, finish, name_answer, neighbour, next_id,
    open_record, reread, tab, tools, wrong_record, written)

SHARE_BOX = {"role": "textbox", "name": "Share an update...", "exact": True}
MESSAGES = ["The pricing call moved to Thursday at 10.", "Their CFO approved the budget this morning.",
            "Legal sent back the redlines; two open points left.", "The security review is scheduled for next week.",
            "They asked for a reference customer in their industry."]
REPLIES = ["I'll send it over today.", "Booked for Thursday at 10.", "Thanks for the heads-up, I'll call them tomorrow.",
           "Looping in legal now.", "On it, I'll update the close plan."]


class Feed:
    """The world's Chatter, indexed: posts by record, likes and mentions by post."""

    def __init__(self, crm: Crm):
        w = crm.w
        self.items = sorted(w.table("feed_items"), key=lambda i: i["id"])
        self.by_record: dict[tuple[str, int], list[dict]] = defaultdict(list)
        for i in self.items:
            self.by_record[(i["parent_type"], i["parent_id"])].append(i)
        self.likers: dict[int, set[int]] = defaultdict(set)
        for lk in w.table("feed_likes"):
            self.likers[lk["feed_item_id"]].add(lk["user_id"])
        self.mentioned: dict[int, list[int]] = defaultdict(list)
        for mn in w.table("feed_mentions"):
            if mn["feed_comment_id"] is None:
                self.mentioned[mn["feed_item_id"]].append(mn["user_id"])

    def label(self, crm: Crm, item: dict) -> str:
        """The post's accessible name on the Feed tab (an article): "<author>: <text>"."""
        return f"{crm.uname(item['created_by_id'])}: {item['body']}"


def _records(crm: Crm) -> list[tuple[str, dict]]:
    """Accounts and opportunities a person opens by name from the header's search."""
    out = [("Account", a) for a in sorted(crm.accounts, key=lambda a: a["id"]) if crm.unique(a["name"]) and len(a["name"]) < 40]
    out += [("Opportunity", o) for o in sorted(crm.opps, key=lambda o: o["id"]) if crm.unique(o["name"]) and len(o["name"]) < 60]
    return out


def _post(text: str, mention: str | None = None) -> list[dict]:
    """Share a post from the Feed tab's publisher; a mention is typed as "@" and the first name's first letters, then
    chosen from the typeahead."""
    if mention is None:
        return [tab("Feed"), {"fill": SHARE_BOX, "text": text}, button("Share")]
    return [tab("Feed"), {"fill": SHARE_BOX, "text": f"{text} @{mention.split()[0][:3]}"},
            {"click": {"role": "option", "name": mention, "exact": True}}, button("Share")]


def _in_post(label: str) -> dict:
    return {"role": "article", "name": label, "exact": True}


def _comment(label: str, text: str) -> list[dict]:
    box = {"role": "textbox", "name": "Write a comment...", "exact": True, "within": _in_post(label)}
    return [tab("Feed"), {"fill": box, "text": text}, button("Comment", within=_in_post(label))]


def _like(label: str) -> list[dict]:
    return [tab("Feed"), button("Like", within=_in_post(label))]


def _active_others(crm: Crm) -> list[int]:
    return sorted(u for u, row in crm.users.items() if u != ME and row.get("is_active", True))


@template("crm", "feed-post-mention", difficulty="easy", max_steps=16)
def feed_post_mention(w: World, rng: random.Random):
    """Share a post on a record's Feed that @mentions a colleague (chosen from the publisher's typeahead)."""
    crm = Crm(w)
    users = _active_others(crm)
    # a colleague whose first three letters pick out one person in the typeahead
    firsts = defaultdict(list)
    for u in users:
        firsts[crm.uname(u).split()[0][:3].casefold()].append(u)
    cands = [(obj, rec) for obj, rec in _records(crm)]
    nid = next_id(crm, "feed_items")
    for obj, rec in rng.sample(cands, len(cands)):
        who = rng.choice([u for u in users if len(firsts[crm.uname(u).split()[0][:3].casefold()]) == 1])
        wrong = neighbour(users, who, lambda u: len(firsts[crm.uname(u).split()[0][:3].casefold()]) == 1)
        msg = rng.choice(MESSAGES)
        name, kind = rec["name"], obj.lower()
        gold_body = f"{msg} @{crm.uname(who)}"
        _, other = neighbour(cands, (obj, rec), lambda x: x[0] == obj)
        solution = open_record(name) + _post(msg, crm.uname(who)) + [done()]
        where = {"parent_type": obj, "parent_id": rec["id"]}
        yield {
            "goal": f"On the {kind} \u201c{name}\u201d, post to its Feed: \u201c{msg}\u201d and @mention {crm.uname(who)} "
                    f"in the post so they see it.",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [
                    {"table": "feed_items", "in": "created", "where": where, "count": 1,
                     "expect": {"id": nid, "created_by_id": ME, "body": written(msg, gold_body, MESSAGES)}},
                    {"table": "feed_mentions", "in": "created", "where": {"feed_item_id": nid}, "count": 1,
                     "expect": {"user_id": who, "feed_comment_id": None}},
                ],
                "unchanged_except": [allow_create("feed_items", where),
                                     allow_create("feed_mentions", {"feed_item_id": nid, "user_id": who})],
            },
            "solution": solution,
            "near_misses": [open_record(name) + _post(msg, crm.uname(wrong)) + [done()],  # the wrong colleague
                            open_record(name) + _post(msg) + [done()]],  # nobody mentioned
            "harmless": [harmless("check_work", solution[:-1] + open_record(name) + [tab("Feed"), done()],
                                  f"opens the {kind} again and looks at its Feed to see the post",
                                  [find(obj, name), call("post_to_feed", object=obj, record_id=rec["id"], text=gold_body),
                                   call("list_feed", object=obj, record_id=rec["id"]), reread(obj, rec["id"])])],
            "adversarial": [
                extra(solution, _post(msg, crm.uname(wrong)), f"posts it again mentioning {crm.uname(wrong)} as well"),
                wrong_record(open_record(other["name"]) + _post(msg, crm.uname(who)) + [done()],
                             f"posts it on \u201c{other['name']}\u201d instead"),
                dump(open_record(name) + _post(dump_text(msg, MESSAGES), crm.uname(who)) + [done()],
                     "the post pastes every message the template could ask for"),
            ],
            "tools": tools(
                [find(obj, name), call("post_to_feed", object=obj, record_id=rec["id"], text=gold_body), finish()],
                [find(obj, name), call("post_to_feed", object=obj, record_id=rec["id"], text=f"{msg} @{crm.uname(wrong)}"), finish()],
                [find(obj, name), call("post_to_feed", object=obj, record_id=rec["id"], text=msg), finish()],
            ),
        }


@template("crm", "feed-comment", difficulty="easy", max_steps=14)
def feed_comment(w: World, rng: random.Random):
    """Reply to a colleague's post on a record's Feed with a comment (not a new post)."""
    crm = Crm(w)
    feed = Feed(crm)
    cands = [(obj, rec, feed.by_record[(obj, rec["id"])]) for obj, rec in _records(crm)
             if len(feed.by_record[(obj, rec["id"])]) == 2 and all(i["created_by_id"] != ME for i in feed.by_record[(obj, rec["id"])])]
    for obj, rec, posts in rng.sample(cands, len(cands)):
        post, sibling = rng.sample(posts, 2)
        label, sib_label = feed.label(crm, post), feed.label(crm, sibling)
        reply = rng.choice(REPLIES)
        name, kind = rec["name"], obj.lower()
        author = crm.uname(post["created_by_id"])
        _, other, other_posts = neighbour(cands, (obj, rec, posts))
        solution = open_record(name) + _comment(label, reply) + [done()]
        yield {
            "goal": f"{author} posted on the Feed of the {kind} \u201c{name}\u201d: \u201c{post['body']}\u201d Reply to that "
                    f"post with the comment \u201c{reply}\u201d",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "feed_comments", "in": "created", "where": {"feed_item_id": post["id"]}, "count": 1,
                            "expect": {"created_by_id": ME, "body": written(reply, reply, REPLIES)}}],
                "unchanged_except": [allow_create("feed_comments", {"feed_item_id": post["id"]})],
            },
            "solution": solution,
            "near_misses": [open_record(name) + _comment(sib_label, reply) + [done()],  # the other post
                            open_record(name) + _post(reply) + [done()]],  # a new post, not a reply
            "harmless": [harmless("check_work", solution[:-1] + open_record(name) + [tab("Feed"), done()],
                                  f"opens the {kind} again and looks at the post's comments",
                                  [find(obj, name), call("list_feed", object=obj, record_id=rec["id"]),
                                   call("comment_on_post", post_id=post["id"], text=reply),
                                   call("list_feed", object=obj, record_id=rec["id"])])],
            "adversarial": [
                extra(solution, _comment(sib_label, reply)[1:], "comments the same on the record's other post as well"),
                wrong_record(open_record(other["name"]) + _comment(feed.label(crm, other_posts[0]), reply) + [done()],
                             f"comments on a post of \u201c{other['name']}\u201d instead"),
                dump(open_record(name) + _comment(label, dump_text(reply, REPLIES)) + [done()],
                     "the comment pastes every reply the template could ask for"),
            ],
            "tools": tools(
                [find(obj, name), call("list_feed", object=obj, record_id=rec["id"]), call("comment_on_post", post_id=post["id"], text=reply), finish()],
                [find(obj, name), call("list_feed", object=obj, record_id=rec["id"]), call("comment_on_post", post_id=sibling["id"], text=reply), finish()],
                [find(obj, name), call("post_to_feed", object=obj, record_id=rec["id"], text=reply), finish()],
            ),
        }


@template("crm", "feed-like-post", difficulty="easy", max_steps=12)
def feed_like_post(w: World, rng: random.Random):
    """Like one of the two posts on a record's Feed (the one the goal names by its author and text)."""
    crm = Crm(w)
    feed = Feed(crm)
    cands = []
    for obj, rec in _records(crm):
        posts = feed.by_record[(obj, rec["id"])]
        if (len(posts) == 2 and not any(ME in feed.likers[p["id"]] for p in posts)
                and len({p["created_by_id"] for p in posts}) == 2):
            cands.append((obj, rec, posts))
    for obj, rec, posts in rng.sample(cands, len(cands)):
        post, sibling = rng.sample(posts, 2)
        label, sib_label = feed.label(crm, post), feed.label(crm, sibling)
        name, kind = rec["name"], obj.lower()
        author = crm.uname(post["created_by_id"])
        _, other, other_posts = neighbour(cands, (obj, rec, posts))
        solution = open_record(name) + _like(label) + [done()]
        yield {
            "goal": f"On the Feed of the {kind} \u201c{name}\u201d, like {author}'s post \u201c{post['body']}\u201d",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "feed_likes", "in": "created", "where": {"feed_item_id": post["id"]}, "count": 1,
                            "expect": {"user_id": ME}}],
                "unchanged_except": [allow_create("feed_likes", {"feed_item_id": post["id"], "user_id": ME})],
            },
            "solution": solution,
            "near_misses": [open_record(name) + _like(sib_label) + [done()]],
            "harmless": [harmless("check_work", solution[:-1] + open_record(name) + [tab("Feed"), done()],
                                  f"opens the {kind} again to see the post marked Liked",
                                  [find(obj, name), call("list_feed", object=obj, record_id=rec["id"]),
                                   call("like_post", post_id=post["id"]), call("list_feed", object=obj, record_id=rec["id"])])],
            "adversarial": [
                extra(solution, [button("Like", within=_in_post(sib_label))], "likes the record's other post as well"),
                wrong_record(open_record(other["name"]) + _like(feed.label(crm, other_posts[0])) + [done()],
                             f"likes a post of \u201c{other['name']}\u201d instead"),
            ],
            "tools": tools(
                [find(obj, name), call("list_feed", object=obj, record_id=rec["id"]), call("like_post", post_id=post["id"]), finish()],
                [find(obj, name), call("list_feed", object=obj, record_id=rec["id"]), call("like_post", post_id=sibling["id"]), finish()],
            ),
        }


@template("crm", "ret-feed-mention", difficulty="easy", max_steps=10)
def ret_feed_mention(w: World, rng: random.Random):
    """Read a record's Feed: who @mentioned you there (the other post on it is by someone else)."""
    crm = Crm(w)
    feed = Feed(crm)
    names = [crm.uname(u) for u in sorted(crm.users)]
    cands = []
    for obj, rec in _records(crm):
        posts = feed.by_record[(obj, rec["id"])]
        asks = [p for p in posts if ME in feed.mentioned[p["id"]] and p["created_by_id"] != ME]
        rest = [p for p in posts if p not in asks and p["created_by_id"] not in (ME,)]
        if len(asks) == 1 and rest and rest[0]["created_by_id"] != asks[0]["created_by_id"]:
            cands.append((obj, rec, asks[0], rest[0]))
    for obj, rec, ask, rest in rng.sample(cands, len(cands)):
        who, decoy = crm.uname(ask["created_by_id"]), crm.uname(rest["created_by_id"])
        name, kind = rec["name"], obj.lower()
        solution = open_record(name) + [tab("Feed"), done(who)]
        yield {
            "goal": f"Someone @mentioned you with a question on the Feed of the {kind} \u201c{name}\u201d. Who was it? "
                    f"Answer with their name.",
            "start_path": "/lightning/page/home",
            "verify": {"checks": [{"answer": name_answer(who, [n for n in names if n != who])}], "unchanged_except": []},
            "solution": solution,
            "near_misses": [open_record(name) + [tab("Feed"), done(decoy)]],
            "distractors": [n for n in names if n not in (who, decoy, crm.uname(ME))][:6],
            "harmless": [harmless("phrasing", solution[:-1] + [done(f"It was {who}.")], "the name in a sentence",
                                  [find(obj, name), call("list_feed", object=obj, record_id=rec["id"]), finish(f"It was {who}.")])],
            "adversarial": [extra(solution, _like(feed.label(crm, ask))[1:], "answers right but also likes the post")],
            "tools": tools(*[[find(obj, name), call("list_feed", object=obj, record_id=rec["id"]), finish(a)] for a in (who, decoy)]),
        }
