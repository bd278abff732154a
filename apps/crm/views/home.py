"""Home: quarterly performance chart, key deals, today's tasks and events, recent records."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from apps._shared import db, now
from apps.crm import charts
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.meta import OBJECTS
from apps.crm.views.base import bp, page, rurl

OPEN = ["Prospecting", "Qualification", "Needs Analysis", "Proposal", "Negotiation"]


def quarterly_performance(user_id: int) -> dict:
    qs, qe = R.this_quarter()
    today = now().date()
    won = list(db().scalars(select(m.Opportunity).where(
        m.Opportunity.owner_id == user_id, m.Opportunity.stage == "Closed Won",
        m.Opportunity.close_date >= qs, m.Opportunity.close_date <= qe).order_by(m.Opportunity.close_date)))
    commit = list(db().scalars(select(m.Opportunity).where(
        m.Opportunity.owner_id == user_id, m.Opportunity.stage.in_(OPEN), m.Opportunity.probability > 70,
        m.Opportunity.close_date >= qs, m.Opportunity.close_date <= qe).order_by(m.Opportunity.close_date)))
    goal = R.me().quarterly_goal if user_id == R.ME else 0
    closed = sum(o.amount or 0 for o in won)
    open70 = sum(o.amount or 0 for o in commit)
    # Cumulative series by day.
    days = (qe - qs).days + 1
    closed_pts, open_pts = [], []
    run = 0
    for i in range(days):
        d = qs + dt.timedelta(days=i)
        run += sum(o.amount or 0 for o in won if o.close_date == d)
        if d <= today:
            closed_pts.append((i, run))
    run2 = closed
    open_pts.append((max(0, (today - qs).days), closed))
    for i in range((today - qs).days + 1, days):
        d = qs + dt.timedelta(days=i)
        run2 += sum(o.amount or 0 for o in commit if o.close_date == d)
        open_pts.append((i, run2))
    run2 += sum(o.amount or 0 for o in commit if o.close_date <= today)
    months = []
    d = qs
    while d <= qe:
        months.append(((d - qs).days, R.shown_month(d)))
        d = (d.replace(day=1) + dt.timedelta(days=32)).replace(day=1)
    svg = charts.performance_chart(days, closed_pts, open_pts, goal, months, (today - qs).days)
    return {"closed": closed, "open": open70, "goal": goal, "svg": svg, "quarter": f"Q{(qs.month - 1) // 3 + 1} {qs.year}"}


def home_page(modal_html: str = ""):
    today = now().date()
    perf = quarterly_performance(R.ME)
    key_deals = list(db().scalars(select(m.Opportunity).where(
        m.Opportunity.owner_id == R.ME, m.Opportunity.stage.in_(OPEN)).order_by(
        m.Opportunity.amount.desc().nulls_last(), m.Opportunity.id).limit(5)))
    names = R.Names()
    for o in key_deals:
        names.add("Account", o.account_id)
    tasks = list(db().scalars(select(m.Task).where(
        m.Task.owner_id == R.ME, m.Task.status != "Completed", m.Task.activity_date <= today).order_by(
        m.Task.activity_date.desc(), m.Task.priority, m.Task.id).limit(10)))
    for t in tasks:
        names.add(t.who_type, t.who_id)
        names.add(t.what_type, t.what_id)
    start = dt.datetime.combine(today, dt.time.min)
    events = list(db().scalars(select(m.Event).where(
        m.Event.owner_id == R.ME, m.Event.start >= start, m.Event.start < start + dt.timedelta(days=1)).order_by(m.Event.start, m.Event.id)))
    for e in events:
        names.add(e.what_type, e.what_id)
    names.load()
    recent = []
    for obj in ("Account", "Contact", "Opportunity", "Lead", "Case"):
        o = OBJECTS[obj]
        for r in db().scalars(select(o.model).where(o.model.last_viewed_at.is_not(None)).order_by(o.model.last_viewed_at.desc()).limit(5)):
            recent.append((r.last_viewed_at, obj, r))
    recent.sort(key=lambda x: (x[0], x[1], x[2].id), reverse=True)
    recent = [{"label": r.name if obj in ("Lead", "Contact") else R.record_name(obj, r), "url": rurl(obj, r.id),
               "icon": OBJECTS[obj].icon, "obj": OBJECTS[obj].label} for _, obj, r in recent[:6]]
    return page("crm/home.html", active="Home", title="Home", page_icon="standard:home", perf=perf, key_deals=key_deals,
                tasks=tasks, events=events, names=names, recent=recent, today=today, modal_html=modal_html)


@bp.get("/lightning/page/home")
def home():
    return home_page()
