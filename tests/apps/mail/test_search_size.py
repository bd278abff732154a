"""Gmail's size operators (issue 46): `larger:2M`, `smaller:500K`, `size:<bytes>` were searched as plain words
(0 results while seed 0 holds a dozen messages over 2 MB). The size rule is domain/mail.py's (`parse_size`,
`message_size`, `size_matches`); apps/mail/search.py is the one parser the search box, the tools' `search_mail`
and the filters call. A message's size: its subject, plain body and formatted body (UTF-8 bytes) plus its
attachments' bytes; K = 1024, M = 1024 x 1024; larger / size: = strictly larger, smaller = strictly smaller."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from apps.mail import queries as Q
from apps.mail.models import Attachment, Label, Message, MessageLabel
from apps.mail.search import message_sizes
from apps.mail.tools import TOOLS
from domain import mail as rules
from tests.apps.mail.conftest import NOW

UNITS = {"": 1, "K": 1024, "k": 1024, "KB": 1024, "kb": 1024, "M": 1024 ** 2, "m": 1024 ** 2, "MB": 1024 ** 2}


def hits(dbs: Session, q: str) -> set[int]:
    return set(dbs.scalars(select(Message.id).where(*Q.parse_search(dbs, q, NOW).conds)))


@pytest.mark.parametrize("text, expected", [
    ("2M", 2 * 1024 ** 2), ("2m", 2 * 1024 ** 2), ("2MB", 2 * 1024 ** 2), ("500K", 500 * 1024), ("500kb", 500 * 1024),
    ("1000000", 1_000_000), ("1.5M", 1_572_864), ("0", 0),
    ("", None), ("M", None), ("2X", None), ("-1", None), ("two", None), ("2 M B", None), ("1e9", None),
])
def test_parse_size_reads_bytes_k_and_m(text, expected):
    assert rules.parse_size(text) == expected


def test_a_huge_number_is_a_size_not_a_crash():
    assert rules.parse_size("9" * 400 + "M") == int("9" * 400) * 1024 ** 2


def test_seed_0_finds_its_big_messages(dbs):
    """The reported case: larger:2M found nothing (searched as the words "larger" and "2M")."""
    sizes = message_sizes(dbs)
    live = set(dbs.scalars(select(Message.id).where(*Q.scope_conds("default", NOW))))
    big = {i for i in live if sizes[i] > 2 * 1024 ** 2}
    assert len(big) >= 12
    assert hits(dbs, "larger:2M") == big
    assert hits(dbs, "size:2097152") == big  # Gmail's size: is "larger than"
    assert hits(dbs, "smaller:500K") == {i for i in live if sizes[i] < 500 * 1024}
    assert hits(dbs, "larger:2M smaller:3M") == {i for i in big if sizes[i] < 3 * 1024 ** 2}
    assert hits(dbs, "larger:lots") == hits(dbs, "larger lots")  # not a size: words, as any unknown operator


def test_a_message_size_counts_its_text_and_its_attachments(dbs):
    m = dbs.scalars(select(Message).where(Message.id.not_in(select(Attachment.message_id)))
                    .order_by(Message.id)).first()
    m.subject, m.body, m.body_html = "é" * 10, "x" * 1000, "<b>x</b>"
    dbs.add(Attachment(message_id=m.id, filename="a.pdf", mime="application/pdf", size=5000))
    dbs.flush()
    assert message_sizes(dbs)[m.id] == 20 + 1000 + 8 + 5000
    dbs.rollback()


def test_size_operators_find_exactly_the_messages_of_that_size(dbs):
    """For random message sizes and thresholds (each unit spelling, values at and either side of the threshold),
    larger: / size: / smaller: (and their negations) find exactly the messages whose size passes the comparison.
    The messages under test carry a label of their own, so the search is exact over them."""
    ids = list(dbs.scalars(select(Message.id).where(*Q.scope_conds("default", NOW)).order_by(Message.id).limit(8)))

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(data=st.data(), n=st.integers(0, 3000), unit=st.sampled_from(sorted(UNITS)),
           op=st.sampled_from(["larger", "smaller", "size"]), negated=st.booleans())
    def check(data, n, unit, op, negated):
        try:
            run(data, n, unit, op, negated)
        finally:
            dbs.rollback()

    def run(data, n, unit, op, negated):
        threshold = n * UNITS[unit]
        lab = Label(name="Sizetest")
        dbs.add(lab)
        dbs.flush()
        want = {}
        for mid in ids:
            m = dbs.get(Message, mid)
            text = data.draw(st.text(st.sampled_from("ab é€"), max_size=30))
            m.subject, m.body, m.body_html = text, "", ""
            dbs.execute(delete(Attachment).where(Attachment.message_id == mid))
            target = data.draw(st.integers(max(0, threshold - 2), threshold + 2) | st.integers(0, 6 * 1024 ** 2))
            att = max(0, target - len(text.encode()))
            if att or data.draw(st.booleans()):
                dbs.add(Attachment(message_id=mid, filename="f.bin", mime="application/octet-stream", size=att))
            dbs.add(MessageLabel(message_id=mid, label_id=lab.id))
            size = len(text.encode()) + att
            want[mid] = size < threshold if op == "smaller" else size > threshold
        dbs.flush()
        got = hits(dbs, f"label:Sizetest {'-' if negated else ''}{op}:{n}{unit}")
        assert got == {mid for mid, ok in want.items() if ok != negated}

    check()


def test_the_search_mail_tool_reads_the_size_operators_as_the_search_box_does(app, client, dbs):
    """Same query, same conversations: the tool and the page call the one parser."""
    sizes = message_sizes(dbs)
    big_threads = {t for i, t in dbs.execute(select(Message.id, Message.thread_id).where(*Q.scope_conds("default", NOW)))
                   if sizes[i] > 2 * 1024 ** 2}
    r = TOOLS.call(app, app.config["TEST_WORLD"], "search_mail", {"query": "larger:2M", "limit": 50})
    assert {c["thread_id"] for c in r["conversations"]} == big_threads and r["total"] == len(big_threads)
    page = client.get("/search?q=larger%3A2M").get_data(as_text=True)
    assert all(f'data-id="{t}"' in page for t in big_threads)
    assert "No messages matched your search." not in page


def test_a_size_filter_counts_and_labels_the_same_conversations_from_the_page_and_the_tool(app, client, dbs):
    """Advanced search's Create filter keeps the size in the filter's words; the page's count and the tool's
    filter (applied to existing mail) reach the same conversations."""
    sizes = message_sizes(dbs)
    big_threads = {t for i, t in dbs.execute(select(Message.id, Message.thread_id).where(*Q.scope_conds("default", NOW)))
                   if sizes[i] > 2 * 1024 ** 2}
    r = client.get("/api/filters/count?has_words=larger%3A2M").get_json()
    assert r["count"] == len(big_threads) and r["query"] == "larger:2M"
    lab = dbs.scalars(select(Label).where(Label.name == "Travel")).one()

    def labelled() -> set[int]:
        dbs.expire_all()
        return set(dbs.scalars(select(Message.thread_id).join(MessageLabel, MessageLabel.message_id == Message.id)
                               .where(MessageLabel.label_id == lab.id)))

    before = labelled()
    TOOLS.call(app, app.config["TEST_WORLD"], "create_filter",
               {"has_words": "larger:2M", "apply_label_id": lab.id, "apply_to_existing": True})
    after = labelled()
    assert big_threads and big_threads <= after and after - before <= big_threads
