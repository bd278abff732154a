"""Chatter on records (services/feed.py): the Feed tab's publisher, comments and likes, and the tools
(post_to_feed, comment_on_post, like_post, list_feed) share one rule each; mentions are read from the text by
one function (feed.mentions) over every user's name. The browser test is in test_feed_browser.py."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings, strategies as st
from sqlalchemy import select

from apps._shared.tools import ToolError
from apps.crm import models as m
from apps.crm.services import feed as svc
from tests.apps.crm.test_issue46 import in_world
from tests.apps.crm.test_tools import call, count

ONE_WORLD = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _users(dbs) -> list[m.User]:
    return list(dbs.scalars(select(m.User).where(m.User.is_active.is_(True)).order_by(m.User.id)))


@ONE_WORLD
@given(data=st.data())
def test_mentions_are_exactly_the_named_users(app, dbs, data):
    """Any text with some users' "@Full Name" (any case, any words around, punctuation after) mentions exactly
    those users, in order, each once; a name glued to more letters is no mention."""
    users = _users(dbs)
    picked = data.draw(st.lists(st.sampled_from(users), max_size=4))
    words = st.text(alphabet=st.sampled_from("abc xyz,.!?0123"), max_size=12)
    parts, want = [], []
    for u in picked:
        name = data.draw(st.sampled_from([u.name, u.name.upper(), u.name.lower()]))
        parts += [data.draw(words), " @" + name + data.draw(st.sampled_from([" ", ".", ",", "!", "?", "\n"]))]
        if u.id not in want:
            want.append(u.id)
    glued = data.draw(st.sampled_from(users))
    parts.append(" @" + glued.name + "x")  # "@Jordan Averyx" names nobody
    got = in_world(app, svc.mentions, "".join(parts))
    assert got == want


@ONE_WORLD
@given(text=st.text(max_size=60))
def test_a_blank_or_any_text_post_is_refused_or_kept(app, dbs, text):
    """Any text: a blank one is refused with a message (nothing written), any other is kept trimmed."""
    acc = dbs.scalar(select(m.Account).order_by(m.Account.id))
    before = count(dbs, m.FeedItem)
    try:
        out = call(app, "post_to_feed", object="Account", record_id=acc.id, text=text)
    except ToolError as e:
        assert not text.strip() and "Write something" in str(e)
        assert count(dbs, m.FeedItem) == before
    else:
        assert text.strip() and out["body"] == text.strip()
        assert count(dbs, m.FeedItem) == before + 1


def test_tools_post_comment_like_and_list_newest_first(app, dbs):
    users = _users(dbs)
    other = users[2]
    opp = dbs.scalar(select(m.Opportunity).order_by(m.Opportunity.id))
    first = call(app, "post_to_feed", object="Opportunity", record_id=opp.id, text="Kick-off booked.")
    out = call(app, "post_to_feed", object="Opportunity", record_id=opp.id, text=f"@{other.name} please review the quote")
    assert out["mentions"] == [other.name]
    dbs.expire_all()
    assert [x.user_id for x in dbs.scalars(select(m.FeedMention).where(m.FeedMention.feed_item_id == out["post_id"]))] == [other.id]
    call(app, "comment_on_post", post_id=first["post_id"], text="Thanks")
    call(app, "like_post", post_id=first["post_id"])
    call(app, "like_post", post_id=first["post_id"])  # liking twice is one like
    feed = call(app, "list_feed", object="Opportunity", record_id=opp.id)
    ids = [p["post_id"] for p in feed]
    assert ids.index(out["post_id"]) < ids.index(first["post_id"])  # newest first
    got = next(p for p in feed if p["post_id"] == first["post_id"])
    assert got["liked_by_me"] and got["likes"] == 1 and [c["body"] for c in got["comments"]] == ["Thanks"]
    call(app, "like_post", post_id=first["post_id"], liked=False)
    assert count(dbs, m.FeedLike, m.FeedLike.feed_item_id == first["post_id"], m.FeedLike.user_id == 1) == 0


def test_tools_refuse_unknown_records_and_posts(app):
    for tool, args, words in [("post_to_feed", {"object": "Account", "record_id": 99999, "text": "hi"}, "no Account"),
                              ("comment_on_post", {"post_id": 99999, "text": "hi"}, "no post"),
                              ("like_post", {"post_id": 99999}, "no post")]:
        try:
            call(app, tool, **args)
        except ToolError as e:
            assert words in str(e)
        else:
            raise AssertionError(f"{tool} accepted {args}")


def test_feed_routes(client, dbs):
    acc = dbs.scalar(select(m.Account).order_by(m.Account.id))
    users = _users(dbs)
    page = client.get(f"/lightning/r/Account/{acc.id}/view?tab=feed").get_data(as_text=True)
    assert 'id="tab-feed__item"' in page and "Share an update..." in page and users[1].name in page
    r = client.post(f"/lightning/r/Account/{acc.id}/feed/post", data={"body": f"Ping @{users[1].name}"})
    assert r.status_code == 303 and r.headers["Location"].endswith("?tab=feed")
    item = dbs.scalar(select(m.FeedItem).order_by(m.FeedItem.id.desc()))
    assert (item.parent_type, item.parent_id, item.body) == ("Account", acc.id, f"Ping @{users[1].name}")
    page = client.get(f"/lightning/r/Account/{acc.id}/view?tab=feed").get_data(as_text=True)
    assert re.search(rf'<a class="crm-mention" href="/lightning/r/User/{users[1].id}/view">@{re.escape(users[1].name)}</a>', page)
    r = client.post(f"/lightning/r/Account/{acc.id}/feed/post", data={"body": "   "})
    assert r.status_code < 500 and "Write something to post." in r.get_data(as_text=True)
    assert client.post(f"/lightning/r/Account/{acc.id}/feed/{item.id}/comment", data={"body": "ok"}).status_code == 303
    assert client.post(f"/lightning/r/Account/{acc.id}/feed/{item.id}/like", data={"liked": "1"}).status_code == 303
    assert count(dbs, m.FeedComment, m.FeedComment.feed_item_id == item.id) == 1
    assert count(dbs, m.FeedLike, m.FeedLike.feed_item_id == item.id) == 1
    # a post of another record, an unknown object: 404, never a 500
    assert client.post(f"/lightning/r/Contact/1/feed/{item.id}/like").status_code == 404
    assert client.post("/lightning/r/Lead/1/feed/post", data={"body": "x"}).status_code == 404
    assert client.post("/lightning/r/Account/999999/feed/post", data={"body": "x"}).status_code == 404
