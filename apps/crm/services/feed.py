"""Chatter on records (the record page's Feed tab): posts, @mentions, comments and likes.

One rule each, shared by the Feed tab's publisher and buttons (views/feed.py) and the tools
(post_to_feed, comment_on_post, like_post, list_feed):

- `mentions(text)`: the users a text @mentions. A mention is "@" followed by an active user's full name
  (what the publisher's typeahead inserts when a person is chosen), case-insensitive, ending at a word
  boundary; the longest name wins ("@Ann Lee-Park" is not "@Ann Lee"). Stored as feed_mentions rows.
- `post` / `comment`: the text is required, at most MAX_BODY characters, trimmed.
- `set_like`: one like per user and post; Like again is Unlike.
- `feed(obj, rid)`: the record's posts newest first (ties: the later id first), each with its comments
  oldest first, its likes and mentions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sqlalchemy import delete, select

from apps._shared import db, now
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.services import ServiceError, record

FEED_OBJECTS = ("Account", "Contact", "Opportunity", "Case")
MAX_BODY = 10000  # Chatter's post limit


def _active_users() -> list[m.User]:
    return list(db().scalars(select(m.User).where(m.User.is_active.is_(True)).order_by(m.User.id)))


def mention_pattern(names: list[str]) -> re.Pattern | None:
    """"@" + one of `names` (longest first, so a longer name is never read as a shorter one), not followed by
    a letter or digit."""
    if not names:
        return None
    alts = "|".join(re.escape(n) for n in sorted(set(names), key=len, reverse=True))
    return re.compile(rf"@({alts})(?![\w])", re.IGNORECASE)


def mentions(text: str) -> list[int]:
    """The ids of the active users `text` @mentions, in order of first mention, each once."""
    users = _active_users()
    by_name = {u.name.casefold(): u.id for u in users}
    pat = mention_pattern([u.name for u in users])
    out: list[int] = []
    if pat is None:
        return out
    for mt in pat.finditer(text or ""):
        uid = by_name[mt.group(1).casefold()]
        if uid not in out:
            out.append(uid)
    return out


def _body(text, what: str) -> str:
    if not isinstance(text, str) or not text.strip():
        raise ServiceError(f"Write something to {what}.", {"body": "Complete this field."})
    text = text.strip()
    if len(text) > MAX_BODY:
        raise ServiceError(f"A {what} can have at most {MAX_BODY:,} characters (this one has {len(text):,}).",
                           {"body": f"At most {MAX_BODY:,} characters."})
    return text


def _mention_rows(item_id: int, comment_id: int | None, text: str) -> None:
    nid = R.next_id(m.FeedMention)
    for k, uid in enumerate(mentions(text)):
        db().add(m.FeedMention(id=nid + k, feed_item_id=item_id, feed_comment_id=comment_id, user_id=uid))
    db().flush()


def post(obj: str, rid: int, text) -> m.FeedItem:
    """Share a post on a record's feed (the publisher's Share button)."""
    record(obj, rid, FEED_OBJECTS)
    body = _body(text, "post")
    item = m.FeedItem(id=R.next_id(m.FeedItem), parent_type=obj, parent_id=rid, body=body,
                      created_by_id=R.ME, created_at=now())
    db().add(item)
    db().flush()
    _mention_rows(item.id, None, body)
    return item


def item(fid: int) -> m.FeedItem:
    it = db().get(m.FeedItem, fid)
    if it is None:
        raise ServiceError(f"there is no post with id {fid} (a record's posts are in list_feed)", status=404)
    return it


def comment(fid: int, text) -> m.FeedComment:
    """Comment on a post."""
    it = item(fid)
    body = _body(text, "comment")
    c = m.FeedComment(id=R.next_id(m.FeedComment), feed_item_id=it.id, body=body, created_by_id=R.ME, created_at=now())
    db().add(c)
    db().flush()
    _mention_rows(it.id, c.id, body)
    return c


def set_like(fid: int, liked: bool = True) -> bool:
    """Like (or unlike) a post as the signed-in user; liking a liked post changes nothing. Returns whether it
    is liked now."""
    it = item(fid)
    mine = db().scalar(select(m.FeedLike).where(m.FeedLike.feed_item_id == it.id, m.FeedLike.user_id == R.ME))
    if liked and mine is None:
        db().add(m.FeedLike(id=R.next_id(m.FeedLike), feed_item_id=it.id, user_id=R.ME, created_at=now()))
    elif not liked and mine is not None:
        db().execute(delete(m.FeedLike).where(m.FeedLike.id == mine.id))
    return liked


@dataclass
class Post:
    item: m.FeedItem
    comments: list[m.FeedComment] = field(default_factory=list)
    likers: list[int] = field(default_factory=list)
    mentions: list[int] = field(default_factory=list)

    @property
    def liked(self) -> bool:
        return R.ME in self.likers


def feed(obj: str, rid: int) -> list[Post]:
    """A record's feed: posts newest first, comments oldest first."""
    record(obj, rid, FEED_OBJECTS)
    items = list(db().scalars(select(m.FeedItem).where(m.FeedItem.parent_type == obj, m.FeedItem.parent_id == rid)
                              .order_by(m.FeedItem.created_at.desc(), m.FeedItem.id.desc())))
    ids = [i.id for i in items]
    posts = {i.id: Post(i) for i in items}
    if ids:
        for c in db().scalars(select(m.FeedComment).where(m.FeedComment.feed_item_id.in_(ids))
                              .order_by(m.FeedComment.created_at, m.FeedComment.id)):
            posts[c.feed_item_id].comments.append(c)
        for lk in db().scalars(select(m.FeedLike).where(m.FeedLike.feed_item_id.in_(ids)).order_by(m.FeedLike.id)):
            posts[lk.feed_item_id].likers.append(lk.user_id)
        for mn in db().scalars(select(m.FeedMention).where(m.FeedMention.feed_item_id.in_(ids),
                                                           m.FeedMention.feed_comment_id.is_(None)).order_by(m.FeedMention.id)):
            posts[mn.feed_item_id].mentions.append(mn.user_id)
    return [posts[i] for i in ids]


def segments(text: str) -> list[tuple[str, int | None]]:
    """A text cut into (piece, user id) for display: a mention is its own piece with the user's id."""
    users = _active_users()
    by_name = {u.name.casefold(): u.id for u in users}
    pat = mention_pattern([u.name for u in users])
    if pat is None:
        return [(text, None)]
    out: list[tuple[str, int | None]] = []
    pos = 0
    for mt in pat.finditer(text):
        if mt.start() > pos:
            out.append((text[pos:mt.start()], None))
        out.append((mt.group(0), by_name[mt.group(1).casefold()]))
        pos = mt.end()
    if pos < len(text):
        out.append((text[pos:], None))
    return out


def as_dict(p: Post) -> dict:
    names = {u.id: u.name for u in R.users()}
    who = lambda uid: names.get(uid, str(uid))  # noqa: E731
    return {"post_id": p.item.id, "author": who(p.item.created_by_id), "created_at": p.item.created_at.isoformat(),
            "body": p.item.body, "mentions": [who(u) for u in p.mentions], "likes": len(p.likers),
            "liked_by_me": p.liked,
            "comments": [{"comment_id": c.id, "author": who(c.created_by_id), "body": c.body,
                          "created_at": c.created_at.isoformat()} for c in p.comments]}
