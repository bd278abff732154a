"""The seeded Chatter: posts, comments, likes and mentions on some accounts, opportunities, contacts and cases.

Drawn after seed_data.crm.build from a random stream of its own (so every other table stays exactly as
that build makes it), as the record page's Feed tab and the feed tasks need: colleagues' posts, some
@mentioning the signed-in user, some with comments and likes.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import seed_data.crm

ME = 1

POSTS = {
    "Account": ["Renewal conversation is on the calendar for next month.",
                "{who} can you share the latest org chart for this account?",
                "Their new CIO starts next week. Worth an intro call.",
                "Logged the QBR notes; overall sentiment is positive."],
    "Opportunity": ["Procurement asked for a revised quote by Friday.",
                    "{who} can you join the pricing call on Thursday?",
                    "Legal review is done; waiting on signatures.",
                    "Champion confirmed budget is approved for this quarter."],
    "Contact": ["Met at the user conference; very interested in the roadmap.",
                "{who} she asked for the security whitepaper.",
                "Prefers email over phone calls."],
    "Case": ["Reproduced the issue on our side; engineering has the logs.",
             "{who} the customer is asking for an update today.",
             "Workaround shared; waiting for their confirmation."],
}
COMMENTS = ["Thanks, on it.", "Sounds good.", "I'll follow up tomorrow.", "Done, see the latest note.",
            "Can we talk about this at stand-up?"]


def add_feed(rows: dict[str, list[dict[str, Any]]], seed: int, now: dt.datetime) -> None:
    """Add feed_items, feed_comments, feed_likes and feed_mentions to a built world's `rows`."""
    rng = random.Random(f"crm-feed-{seed}")
    users = [u for u in rows["users"] if u.get("is_active", True)]
    name = {u["id"]: f"{u['first_name']} {u['last_name']}" for u in users}
    others = [u["id"] for u in users if u["id"] != ME]
    items: list[dict] = []
    comments: list[dict] = []
    likes: list[dict] = []
    mentions: list[dict] = []
    pools = {"Account": rows["accounts"], "Opportunity": rows["opportunities"], "Contact": rows["contacts"],
             "Case": rows["cases"]}
    counts = {"Account": 8, "Opportunity": 10, "Contact": 5, "Case": 5}
    for obj, pool in pools.items():
        for rec in rng.sample(sorted(pool, key=lambda r: r["id"]), min(counts[obj], len(pool))):
            for text in rng.sample(POSTS[obj], rng.choice((1, 2, 2))):  # a record's posts say different things
                author = rng.choice(others + [ME])
                target = None
                if "{who}" in text:
                    target = ME if author != ME else rng.choice(others)
                    text = text.replace("{who}", f"@{name[target]}")
                at = now - dt.timedelta(days=rng.randint(1, 40), hours=rng.randint(0, 23), minutes=rng.randint(0, 59))
                iid = len(items) + 1
                items.append({"id": iid, "parent_type": obj, "parent_id": rec["id"], "body": text,
                              "created_by_id": author, "created_at": at})
                if target is not None:
                    mentions.append({"id": len(mentions) + 1, "feed_item_id": iid, "feed_comment_id": None,
                                     "user_id": target})
                for _ in range(rng.choice((0, 0, 1, 2))):
                    cid = len(comments) + 1
                    at = at + dt.timedelta(hours=rng.randint(1, 20))
                    comments.append({"id": cid, "feed_item_id": iid, "body": rng.choice(COMMENTS),
                                     "created_by_id": rng.choice(others), "created_at": min(at, now)})
                for uid in rng.sample(others, rng.choice((0, 0, 1, 2))):
                    likes.append({"id": len(likes) + 1, "feed_item_id": iid, "user_id": uid,
                                  "created_at": min(at + dt.timedelta(hours=1), now)})
    rows["feed_items"] = items
    rows["feed_comments"] = comments
    rows["feed_likes"] = likes
    rows["feed_mentions"] = mentions


def build(seed: int, now: dt.datetime) -> dict[str, list[dict[str, Any]]]:
    rows = seed_data.crm.build(seed, now)
    add_feed(rows, seed, now)
    return rows


def build_workspace(seed: int, now: dt.datetime) -> dict[str, list[dict[str, Any]]]:
    """The CRM world of workspace seed `seed` (seed_data/workspace.py) plus its seeded Chatter."""
    import seed_data.workspace

    rows = seed_data.workspace.build_app("crm", seed, now)
    add_feed(rows, seed, now)
    return rows
