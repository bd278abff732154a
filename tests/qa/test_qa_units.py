"""QA's pure parts, without a browser: the declaration format, URL templates and control groups, goal lint,
pixel diffs, the reports."""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image
from pydantic import ValidationError

from agent_harness.qa import AppQA, QAReport
from agent_harness.qa.lint import known_text, lint_goal
from agent_harness.qa.queries import fold, matches
from agent_harness.qa.report import Defect, outline, render_html
from agent_harness.qa.spec import load_declaration, resolve_vocabulary
from agent_harness.qa.states import Templates, group_key, pixels_changed, world_hash

NOW = dt.datetime(2026, 3, 12, 10, 24)


# ------------------------------------------------------------------ declaration
def test_declaration_is_validated_with_clear_errors():
    ok = AppQA.model_validate({
        "start_pages": ["/inbox"],
        "vocabulary": {"subject": ["invoice"], "contact": {"table": "contacts", "field": "name", "sample": 3}},
        "queries": [{"name": "search", "vocab": "subject", "url": "/search?q={q}", "results": "tr"},
                    {"name": "box", "vocab": "contact", "page": "/inbox", "results": "tr",
                     "steps": [{"fill": {"role": "searchbox", "name": "Search"}, "text": "{q}"}, {"press": ["Enter"]}]}],
        "allow": [{"kind": "dead_control", "name": "^Help$", "reason": "out of scope"}],
    })
    assert ok.queries[1].step_models("ana")[0].text == "ana"
    with pytest.raises(ValidationError, match="not declared"):
        AppQA.model_validate({"queries": [{"name": "s", "vocab": "nope", "url": "/s?q={q}", "results": "li"}]})
    with pytest.raises(ValidationError, match="exactly one of 'url' or 'steps'"):
        AppQA.model_validate({"vocabulary": {"w": ["a"]},
                              "queries": [{"name": "s", "vocab": "w", "results": "li"}]})
    with pytest.raises(ValidationError, match="step #0"):
        AppQA.model_validate({"vocabulary": {"w": ["a"]}, "queries": [
            {"name": "s", "vocab": "w", "page": "/", "results": "li", "steps": [{"clik": {"role": "button"}}]}]})
    with pytest.raises(ValidationError, match="starting with '/'"):
        AppQA.model_validate({"start_pages": ["inbox"]})
    with pytest.raises(ValidationError):
        AppQA.model_validate({"allow": [{"kind": "dead_control"}]})  # a reason is required
    with pytest.raises(ValidationError):
        AppQA.model_validate({"start_page": ["/"]})  # unknown key


def test_declarations_of_the_fixture_apps_load():
    qa, declared = load_declaration("tests.fixture_apps.qa_clean")
    assert declared and qa.start_pages == ["/"] and len(qa.queries) == 2
    toy, declared = load_declaration("tests.fixture_apps.toy")  # no QA: crawl from its start page
    assert not declared and toy.start_pages == ["/"] and toy.queries == []


def test_vocabulary_from_the_world():
    qa = AppQA.model_validate({"vocabulary": {
        "lit": ["a", "b"],
        "names": {"table": "people", "field": "name", "sample": 2, "words": 1},
        "open": {"table": "people", "field": "name", "where": {"open": True}},
    }})
    state = {"people": [{"name": "Ana  Ruiz", "open": True}, {"name": "Bob Li", "open": False},
                        {"name": "Ana Ruiz", "open": True}, {"name": "Cy Ng", "open": True}, {"name": "", "open": True}]}
    v = resolve_vocabulary(qa, state)
    assert v == {"lit": ["a", "b"], "names": ["Ana", "Cy"], "open": ["Ana Ruiz", "Cy Ng"]}
    with pytest.raises(ValueError, match="no table 'people'"):
        resolve_vocabulary(qa, {})


def test_allow_list_matches_kind_page_and_name():
    qa = AppQA.model_validate({"allow": [
        {"kind": ["dead_control"], "page": "/settings*", "name": "^Help$", "reason": "opens help, out of scope"}]})
    d = {"kind": "dead_control", "page": "/settings/general", "template": "/settings/{s}",
         "element": {"role": "button", "name": "Help"}, "detail": ""}
    assert qa.allowed(d).reason.startswith("opens help")
    assert qa.allowed(d | {"kind": "js_error"}) is None
    assert qa.allowed(d | {"page": "/inbox", "template": "/inbox"}) is None
    assert qa.allowed(d | {"element": {"role": "button", "name": "Helpful"}}) is None


# ------------------------------------------------------------------ templates and groups
def test_url_templates():
    t = Templates()
    assert t("/thread/123") == "/thread/{n}"
    assert t("/thread/a1b2c3d4e5f6") == "/thread/{n}"
    assert t("/search?q=lunch&page=2") == "/search?q={q}&page={n}"
    assert t("/inbox?tab=social") == "/inbox?tab=social"
    for obj in ["Account", "Contact", "Lead", "Opportunity", "Case", "Task"]:  # a few values: distinct pages
        assert t(f"/lightning/o/{obj}/home") == f"/lightning/o/{obj}/home"
    for i, slug in enumerate(["pizza-palace", "thai-garden", "sushi-go", "taco-town", "curry-house", "noodle-bar",
                              "wok-this-way", "pho-real", "bao-down", "grill-house", "bagel-co", "pie-hole"]):
        assert t(f"/store/{slug}") == f"/store/{slug}"
    assert t("/store/burger-barn") == "/store/{s}"  # many values under one parent: a slug


def _el(**kw):
    base = {"role": "button", "name": "x", "struct": "main>div.bar>button", "rep": None, "act": "click",
            "href": None, "raw_href": None}
    return base | kw


def test_control_groups():
    t = Templates()
    row = lambda i: _el(role="link", name=f"Thread {i}", href=f"http://h/thread/{i}", raw_href=f"/thread/{i}",
                        struct="table>tbody>tr>td>a")
    assert group_key(row(1), t) == group_key(row(2), t)  # rows linking to the same template
    nav = lambda p: _el(role="link", name=p, href=f"http://h/{p}", raw_href=f"/{p}", struct="nav>ul>li>a")
    assert group_key(nav("inbox"), t) != group_key(nav("starred"), t)
    star = lambda n: _el(name=f"Star {n}", rep={"count": 50, "inner": "td>button.star", "list": "table>tbody>tr"})
    assert group_key(star("Ana"), t) == group_key(star("Bob"), t)  # one per list, sampled
    tool = lambda n: _el(name=n)
    assert group_key(tool("Archive"), t) != group_key(tool("Delete"), t)
    assert group_key(tool("Page 1"), t) == group_key(tool("Page 2"), t)  # digits are not identity


# ------------------------------------------------------------------ diffs and hashes
def _png(color, box=None, box_color=(0, 0, 0)):
    im = Image.new("RGB", (100, 60), color)
    if box:
        x, y, w, h = box
        for i in range(x, x + w):
            for j in range(y, y + h):
                im.putpixel((i, j), box_color)
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


def test_pixel_diff_ignores_the_controls_own_box():
    a = _png((255, 255, 255))
    inside = _png((255, 255, 255), box=(20, 20, 10, 10))
    assert pixels_changed(a, inside, [20, 20, 10, 10]) == 0  # the button's focus ring / pressed look
    assert pixels_changed(a, inside, [60, 20, 10, 10]) == 100
    assert pixels_changed(a, a, None) == 0


def test_world_hash_ignores_volatile_fields():
    s1 = {"t": [{"id": 1, "seen_at": "a", "x": 1}], "_meta": {"volatile": {"t": ["seen_at"]}}}
    s2 = {"t": [{"id": 1, "seen_at": "b", "x": 1}], "_meta": {"volatile": {"t": ["seen_at"]}}}
    s3 = {"t": [{"id": 1, "seen_at": "a", "x": 2}], "_meta": {"volatile": {"t": ["seen_at"]}}}
    assert world_hash(s1) == world_hash(s2) != world_hash(s3)


# ------------------------------------------------------------------ query matching
def test_query_matching_is_case_and_accent_insensitive():
    assert fold("  Crème   Brûlée ") == "creme brulee"
    assert matches("Best CRÈME brûlée in town", "creme brulee", tokens=False)
    assert not matches("brulee creme", "creme brulee", tokens=False)
    assert matches("brulee and creme", "creme brulee", tokens=True)


# ------------------------------------------------------------------ goal lint
WORLD = {"contacts": [{"name": "Ana Ruiz", "email": "ana@acme.com"}, {"name": "Bank of America"}],
         "messages": [{"subject": "Q3 invoice", "sent_at": "2026-03-10T09:00:00"},
                      {"subject": "Old", "sent_at": "2024-06-03T09:00:00"}]}


def lint(goal, *extra):
    return lint_goal(goal, known_text(WORLD, *extra), NOW)


def test_goal_lint_accepts_what_the_world_has():
    assert lint("Star the latest email from Ana Ruiz.") == []
    assert lint("Forward the Bank of America statement to ana@acme.com.") == []
    assert lint('Reply to Ana Ruiz\'s "Q3 invoice" email.') == []
    assert lint("Find the email Ana sent on March 10 and the one from June 3, 2024.") == []
    assert lint("Schedule lunch tomorrow; remind me on Friday, March 13.") == []  # 2026-03-13 is a Friday
    assert lint("Unsubscribe Ana Ruiz from the list.") == []  # a sentence's first word is grammar
    assert lint('Create a contact named "Zed Zebra".', {"expect": {"name": "Zed Zebra"}}) == []  # what it creates


def test_goal_lint_flags_names_dates_and_weekdays_the_world_does_not_back():
    assert lint("Star the latest email from Ana Ruis.") == [
        "names 'Ana Ruis', which is neither in its world nor in what the task checks"]
    assert lint('Reply "see you" to Ana Ruiz.')[0].startswith("quotes 'see you'")
    assert lint("Email bob@acme.com.")[0].startswith("names the address 'bob@acme.com'")
    problems = lint("Find the email from Saturday, March 13.")
    assert problems == ["'Saturday, March 13': 2026-03-13 is a Friday, not a Saturday"]
    assert "not backed by the task's frozen now" in lint("Find the invoice from 2025-01-07.")[0]
    assert lint("What did Ana Ruiz send in 2023?") == [
        "the year 2023 is neither the frozen now's (2026) nor in its world"]


# ------------------------------------------------------------------ reports
def test_report_json_html_and_outlined_screenshot(tmp_path):
    shot = _png((255, 255, 255))
    r = QAReport("demo", declared=True)
    r.states = [{"url": "/", "template": "/", "prefix": [], "elements": 3, "groups": 2, "exercised": 2,
                 "not_exercised": 1, "disabled": 0, "defects": 1}]
    r.probes = [{"page": "/", "state": "", "role": "button", "name": "Go", "op": "click", "outcome": "nothing",
                 "effects": []}]
    r.defects = [Defect("dead_control", "clicking it does nothing", page="/", template="/",
                        element={"role": "button", "name": "Go", "path": "body > button", "box": [10, 10, 30, 20]},
                        screenshot=shot, shot_box=(10, 10, 30, 20))]
    r.write(tmp_path)
    data = json.loads((tmp_path / "report.json").read_text())
    assert data["ok"] is False and data["coverage"]["exercised"] == 1 and data["coverage"]["not_exercised"] == 1
    assert data["defects"][0]["screenshot"] == "shots/001-dead_control.png"
    im = Image.open(tmp_path / "shots" / "001-dead_control.png").convert("RGB")
    assert im.getpixel((7, 7))[0] > 200 and im.getpixel((7, 7))[1] < 60  # the red outline
    html = (tmp_path / "report.html").read_text()
    assert "Controls that do nothing" in html and "<b>Go</b>" in html
    assert "demo" in render_html([r, QAReport("other")])
    assert outline(shot, None) != b""


def test_page_scripts_parse():
    """Every script QA evaluates in pages is a valid JS function (checked with Playwright's own node)."""
    import subprocess
    from pathlib import Path

    import playwright

    from agent_harness.qa import js

    node = Path(playwright.__file__).parent / "driver" / "node"
    if not node.exists():
        pytest.skip("Playwright's node is not bundled here")
    names = [n for n in dir(js) if n.endswith("_JS")]
    src = "\n".join(f"if (typeof ({getattr(js, n).strip()}) !== 'function') throw new Error('{n}');" for n in names)
    r = subprocess.run([str(node), "-e", src], capture_output=True, text=True, timeout=60, check=False)
    assert r.returncode == 0, r.stderr[-2000:]


async def test_job_queue_lets_queries_take_turns_with_the_crawl():
    import asyncio

    from agent_harness.qa.jobqueue import JobQueue

    q = JobQueue()
    for i in range(3):
        q.put_nowait(("query", i))
    q.put_nowait(("crawl", "a"))
    q.put_nowait(("probe", "b"))
    order = []
    while not q.empty():
        order.append(await q.get())
        q.task_done()
    assert order == [("crawl", "a"), ("query", 0), ("probe", "b"), ("query", 1), ("query", 2)]
    await asyncio.wait_for(q.join(), 1)



@settings(max_examples=60, deadline=None)
@given(jobs=st.lists(st.tuples(st.sampled_from(["query", "crawl", "probe"]), st.integers(0, 50)), max_size=40),
       seed=st.integers(0, 2**32))
def test_job_queue_with_an_order_seed_gives_every_job_once_in_a_drawn_order(jobs, seed):
    """QAConfig.order_seed: the same jobs, each once, lanes still taking turns, in an order the seed draws
    (the same seed, the same order), so a time-capped crawl samples another part of the app per seed."""
    import asyncio

    from agent_harness.qa.jobqueue import JobQueue

    async def drain(order_seed):
        q = JobQueue(order_seed)
        for j in jobs:
            q.put_nowait(j)
        out = []
        while not q.empty():
            out.append(await q.get())
            q.task_done()
        await asyncio.wait_for(q.join(), 1)
        return out

    plain, drawn, again = (asyncio.run(drain(x)) for x in (None, seed, seed))
    assert sorted(drawn) == sorted(jobs) and drawn == again
    # the lanes alternate whatever the order: the kinds of job come out in the same sequence
    assert [j[0] == "query" for j in drawn] == [j[0] == "query" for j in plain]


def test_job_queue_orders_differ_between_seeds():
    import asyncio

    from agent_harness.qa.jobqueue import JobQueue

    async def first_five(seed):
        q = JobQueue(seed)
        for i in range(30):
            q.put_nowait(("crawl", i))
        return [(await q.get())[1] for _ in range(5)]

    orders = {tuple(asyncio.run(first_five(s))) for s in range(8)}
    assert len(orders) > 4  # 8 seeds, 30 jobs: almost surely all different



def test_job_budget_stops_starting_jobs_and_says_why():
    from types import SimpleNamespace

    from agent_harness.qa.crawler import Crawler

    me = SimpleNamespace(cfg=SimpleNamespace(max_jobs=3, time_limit_s=0), jobs_started=0, started=0.0)
    me.over_time = lambda: Crawler.over_time(me)
    assert [Crawler.out_of_budget(me) for _ in range(5)] == [None, None, None, "job budget", "job budget"]
    me.cfg.max_jobs, me.jobs_started = 0, 0
    assert all(Crawler.out_of_budget(me) is None for _ in range(50))  # 0: no cap


# ------------------------------------------------------------------ aiming
def test_click_point_is_on_screen_or_a_replay_error():
    from types import SimpleNamespace

    from agent_harness.qa.states import ReplayError
    from agent_harness.qa.worker import Worker

    me = SimpleNamespace(env=SimpleNamespace(width=1280, height=720))
    assert Worker.point(me, [100, 200, 50, 20]) == (125, 210)
    assert Worker.point(me, [-40, 700, 80, 60]) == (20, 709)  # only the on-screen part counts
    with pytest.raises(ReplayError, match="off the 1280x720 screen"):
        Worker.point(me, [300, -80, 120, 14])  # wholly above the viewport


def test_coverage_table_fits_80_columns_with_whole_headers():
    """`uigym qa`'s coverage table on an 80-column terminal: every header word whole (it was cut to "dialo…"),
    big numbers included."""
    from rich.console import Console

    from agent_harness.commands.qa import COVERAGE_COLUMNS, coverage_table

    big = QAReport("crm.hubspot", seconds=12345.6, states=[{"prefix": "", "template": f"/t/{i}", "elements": 999,
                                                            "groups": 99, "not_exercised": 9, "disabled": 0} for i in range(120)],
                   probes=[{"outcome": "ok"}] * 1500, queries=[{}] * 95, tasks=[{}] * 300)
    table, summary = coverage_table([big, QAReport("mail")])
    out = io.StringIO()
    Console(file=out, width=80, color_system=None).print(table)
    text = out.getvalue()
    assert "…" not in text and max(len(line) for line in text.splitlines()) <= 80, text
    for word in " ".join(COVERAGE_COLUMNS).split():  # every header word, and the last columns not dropped
        assert word in text, (word, text)
    assert summary["crm.hubspot"]["exercised"] == 1500 and "119880" in text  # 120 pages x 999 elements
    assert "12346" in text and "crm.hubspot" in text
