"""List view filter logic ("1 AND (2 OR 3)", apps/crm/filters.parse_logic): Salesforce's rules for the text, one
checker (services/listviews.check_logic) for the filters panel's Save and the set_list_view_filters tool, and
the list's rows are exactly the rows the logic selects (hypothesis over random logic trees and filters)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st
from sqlalchemy import select

from apps._shared.tools import ToolError
from apps.crm import models as m
from apps.crm.filters import LogicError, logic_eval, logic_numbers, logic_text, parse_logic
from apps.crm.services import read
from tests.apps.crm.test_issue46 import in_world
from tests.apps.crm.test_tools import call

ONE_WORLD = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def trees(n: int):
    """Any logic tree over filters 1..n (each used at least once is checked by the caller)."""
    leaf = st.integers(1, n).map(lambda i: ("num", i))
    return st.recursive(leaf, lambda kids: st.one_of(
        kids.map(lambda t: ("not", t)),
        st.tuples(st.sampled_from(["and", "or"]), st.lists(kids, min_size=2, max_size=3)).map(lambda x: (x[0], x[1]))),
        max_leaves=8)


@given(st.integers(1, 5).flatmap(lambda n: st.tuples(st.just(n), trees(n))))
def test_written_logic_reads_back_as_the_same_tree(nt):
    n, tree = nt
    text = logic_text(tree)
    if logic_numbers(tree) != set(range(1, n + 1)):
        with pytest.raises(LogicError, match="not referenced"):
            parse_logic(text, n)
        return
    back = parse_logic(text, n)
    assert logic_text(back) == text
    for bits in range(2 ** n):
        truth = [bool(bits >> k & 1) for k in range(n)]
        assert logic_eval(back, truth) == logic_eval(tree, truth)
    assert parse_logic(text.lower(), n) == back  # operators in any case


@given(st.text(max_size=40), st.integers(1, 4))
def test_any_text_is_parsed_or_refused_with_a_message(text, n):
    try:
        tree = parse_logic(text, n)
    except LogicError as e:
        assert str(e)
    else:
        assert logic_numbers(tree) == set(range(1, n + 1))


@pytest.mark.parametrize("text,words", [("1 AND 2 OR 3", "mixes AND and OR"), ("1 AND (2 OR 3", "isn't closed"),
                                        ("1 AND 2", "not referenced"), ("1 AND 2 AND 4", "filter 4"),
                                        ("1 AND 2 XOR 3", "spelling"), ("", "Enter filter logic")])
def test_salesforce_refusals(text, words):
    with pytest.raises(LogicError, match=words):
        parse_logic(text, 3)


FILTERS = [{"field": "stage", "op": "equals", "value": "Proposal,Negotiation"},
           {"field": "amount", "op": "greater", "value": "50000"},
           {"field": "lead_source", "op": "equals", "value": "Web"}]


@ONE_WORLD
@given(tree=trees(3))
# NOT over filters on fields some rows leave blank (amount, lead source): those rows match the NOT (found by this
# property in a CI rehearsal: SQL's NULL comparison under NOT dropped them)
@example(tree=("not", ("or", [("num", 1), ("num", 2), ("num", 3)])))
def test_the_list_shows_exactly_the_rows_the_logic_selects(app, dbs, tree):
    if logic_numbers(tree) != {1, 2, 3}:
        tree = ("and", [tree, ("num", 1), ("num", 2), ("num", 3)])
    lv = dbs.scalar(select(m.ListView).where(m.ListView.object == "Opportunity", m.ListView.is_standard.is_(False),
                                             m.ListView.owner_id == 1))
    out = call(app, "set_list_view_filters", list_view_id=lv.id, filters=FILTERS, scope="all", filter_logic=logic_text(tree))
    assert out["filter_logic"] == logic_text(tree)
    got = {r["id"] for r in call(app, "list_records", object="Opportunity", list_view=lv.api_name, limit=50)["records"]}
    total = call(app, "list_records", object="Opportunity", list_view=lv.api_name, limit=50)["total"]
    opps = list(dbs.scalars(select(m.Opportunity)))
    want = {o.id for o in opps if logic_eval(tree, [o.stage in ("Proposal", "Negotiation"), (o.amount or 0) > 50000,
                                                    o.lead_source == "Web"])}
    assert total == len(want)
    assert got <= want and len(got) == min(50, len(want))


def test_panel_save_and_tool_refusals(client, app, dbs):
    lv = dbs.scalar(select(m.ListView).where(m.ListView.object == "Opportunity", m.ListView.is_standard.is_(False),
                                             m.ListView.owner_id == 1))
    import json
    url = f"/lightning/o/Opportunity/listview/{lv.id}/filters"
    r = client.post(url, data={"payload": json.dumps({"scope": "all", "filters": FILTERS, "filter_logic": "1 and (2 or 3)"})})
    assert r.status_code == 303
    dbs.expire_all()
    assert dbs.get(m.ListView, lv.id).filter_logic == "1 AND (2 OR 3)"
    r = client.post(url, data={"payload": json.dumps({"scope": "all", "filters": FILTERS, "filter_logic": "1 AND 2 OR 3"})})
    assert r.status_code < 500 and "mixes AND and OR" in r.get_data(as_text=True)
    dbs.expire_all()
    assert dbs.get(m.ListView, lv.id).filter_logic == "1 AND (2 OR 3)"  # nothing saved
    page = client.get(f"/lightning/o/Opportunity/list?filterName={lv.api_name}").get_data(as_text=True)
    assert '"filter_logic": "1 AND (2 OR 3)"' in page
    with pytest.raises(ToolError, match="not referenced"):
        call(app, "set_list_view_filters", list_view_id=lv.id, filters=FILTERS, filter_logic="1 OR 2")
    # fewer than two filters: kept logic goes, asked-for logic is refused
    assert call(app, "set_list_view_filters", list_view_id=lv.id, filters=FILTERS[:1])["filter_logic"] == ""
    with pytest.raises(ToolError, match="at least two filters"):
        call(app, "set_list_view_filters", list_view_id=lv.id, filters=FILTERS[:1], filter_logic="1")
    listed = next(v for v in call(app, "list_list_views", object="Opportunity") if v["id"] == lv.id)
    assert listed["filter_logic"] == ""
