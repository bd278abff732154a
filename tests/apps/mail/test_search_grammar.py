"""The search language's grammar over its terms (apps/mail/search.py `parse_tree`): side by side is AND, `OR`
either, `( ... )` groups, `{a b}` any of them, `-` negates a term or a group. The property: for any query tree
over the seeded world's terms, the search finds exactly what set algebra over each term's own hits says.
Before the grammar, `-{a b}` (a filter's "Doesn't have: a b") was read as the words "-{a" and "b}", top-level
`OR` as a word, and `is:muted` as text."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st
from sqlalchemy import select, update

from apps.mail import queries as Q
from apps.mail.models import Message, Thread
from apps.mail.search import parse_tree
from apps.mail.services.filters import filter_query
from tests.apps.mail.conftest import NOW
from tests.apps.mail.test_search_negation import FIXED_TERMS, hits, searchable, terms, vocab  # noqa: F401

# A tree: ("t", term) | ("and", [trees]) | ("or", [trees]) | ("not", tree); rendered in Gmail's syntax.


def render(tree, style: int = 0) -> str:
    kind = tree[0]
    if kind == "t":
        return tree[1]
    if kind == "not":
        inner = tree[1]
        if inner[0] == "or" and all(c[0] == "t" for c in inner[1]):
            return "-{" + " ".join(c[1] for c in inner[1]) + "}"
        return "-(" + render(inner) + ")"
    if kind == "and":
        return "(" + " ".join(render(c) for c in tree[1]) + ")"
    if style and all(c[0] == "t" for c in tree[1]):
        return "{" + " ".join(c[1] for c in tree[1]) + "}"
    return "(" + " OR ".join(render(c) for c in tree[1]) + ")"


def evaluate(tree, hit, everything: set[int]) -> set[int]:
    kind = tree[0]
    if kind == "t":
        return hit(tree[1])
    if kind == "not":
        return everything - evaluate(tree[1], hit, everything)
    sets = [evaluate(c, hit, everything) for c in tree[1]]
    out = set(sets[0])
    for s in sets[1:]:
        out = out & s if kind == "and" else out | s
    return out


def trees(term):
    return st.recursive(
        st.builds(lambda t: ("t", t), term),
        lambda sub: st.one_of(st.builds(lambda cs: ("and", cs), st.lists(sub, min_size=2, max_size=3)),
                              st.builds(lambda cs: ("or", cs), st.lists(sub, min_size=2, max_size=3)),
                              st.builds(lambda c: ("not", c), sub)),
        max_leaves=5)


def test_any_query_tree_finds_what_set_algebra_over_its_terms_says(dbs, vocab):  # noqa: F811
    everything = searchable(dbs)
    dbs.execute(update(Thread).where(Thread.id.in_(select(Thread.id).limit(40))).values(is_muted=True))
    dbs.flush()
    cache: dict[str, set[int]] = {}

    def hit(t: str) -> set[int]:
        if t not in cache:
            cache[t] = hits(dbs, t)
        return cache[t]

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(trees(terms(vocab)), st.integers(0, 1))
    def check(tree, style):
        q = render(tree, style)
        assert hits(dbs, q) == evaluate(tree, hit, everything), q

    check()


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet='ab -(){}"OR:is', max_size=30))
def test_any_text_parses_into_a_tree(q):
    """Unbalanced brackets, stray quotes and dangling ORs never raise: they are forgiven."""
    tree = parse_tree(q)
    assert tree[0] == "and"


def test_top_level_or_braces_and_groups(dbs):
    star, unread = hits(dbs, "is:starred"), hits(dbs, "is:unread")
    assert star and unread and star != unread
    assert hits(dbs, "is:starred OR is:unread") == star | unread
    assert hits(dbs, "{is:starred is:unread}") == star | unread
    assert hits(dbs, "is:starred is:unread") == star & unread
    assert hits(dbs, "-{is:starred is:unread}") == searchable(dbs) - star - unread
    assert hits(dbs, "(is:starred OR is:unread) -is:starred") == unread - star
    assert hits(dbs, "is:starred AND is:unread") == star & unread
    read = hits(dbs, "is:read")
    assert hits(dbs, "is:read is:starred OR is:unread") == read & (star | unread)  # OR binds tighter, as in Gmail
    assert hits(dbs, "OR is:starred OR") == star
    assert hits(dbs, "has:yellow-star") == star


def test_is_muted_finds_the_muted_conversations(dbs):
    tids = list(dbs.scalars(select(Message.thread_id).where(*Q.scope_conds("default", NOW)).limit(3)))
    dbs.execute(update(Thread).where(Thread.id.in_(tids)).values(is_muted=True))
    dbs.flush()
    muted = set(dbs.scalars(select(Message.id).where(Message.thread_id.in_(select(Thread.id).where(Thread.is_muted)))))
    assert hits(dbs, "is:muted") == muted & searchable(dbs)
    assert hits(dbs, "-is:muted") == searchable(dbs) - muted


def test_a_filters_doesnt_have_with_several_words_excludes_each(client, dbs, vocab):  # noqa: F811
    """A filter's "Doesn't have: a b" leaves out the mail with any of the words (Gmail's -{a b})."""
    words = [w for w in vocab["words"] if 5 < len(hits(dbs, w)) < 200][:2]
    a, b = words
    crit = {"from_contains": "", "to_contains": "", "subject_contains": "", "has_words": "",
            "doesnt_have": f"{a} {b}", "has_attachment": False}
    assert filter_query(crit) == f"-{{{a} {b}}}"
    found = hits(dbs, filter_query(crit))
    assert found == searchable(dbs) - hits(dbs, a) - hits(dbs, b)
    tids = {dbs.get(Message, i).thread_id for i in found}
    having = {dbs.get(Message, i).thread_id for i in hits(dbs, a) | hits(dbs, b)}
    assert having - tids  # some conversation that has a word is left out
    r = client.get("/api/filters/count", query_string={"doesnt_have": f"{a} {b}"})  # "Also apply to N"
    assert r.status_code == 200 and r.get_json()["count"] == len(tids)
