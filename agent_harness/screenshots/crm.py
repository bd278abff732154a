"""Screenshots of Stratus CRM at 1280x720: `python -m agent_harness.screenshots.crm [--out docs/screenshots/crm] [--only home,kanban]`.

Serves the app on a free port with a throwaway UIGYM_HOME (seed 0, the default now), opens it in
Chromium with Playwright (clock frozen to the world's now), checks that the font loaded and that
no request failed or console error happened, and saves PNGs of the pages the README shows.
"""

from __future__ import annotations

import argparse
import datetime as dt
import logging
import sys
import tempfile
import threading
from pathlib import Path

from werkzeug.serving import make_server

from gym_core.browser import chromium_executable

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--font-render-hinting=none", "--force-color-profile=srgb"]




def picks(app) -> dict:
    from sqlalchemy import func, select

    from apps.crm import models as m

    eng = app.extensions["uigym_worlds"].engine("default")
    with eng.connect() as c:
        opp = c.execute(select(m.Opportunity.id).where(m.Opportunity.owner_id == 1, m.Opportunity.stage == "Proposal")
                        .order_by(m.Opportunity.amount.desc()).limit(1)).scalar()
        lead = c.execute(select(m.Lead.id).where(m.Lead.status == "Working - Contacted", m.Lead.owner_id == 1)
                         .order_by(m.Lead.id).limit(1)).scalar()
        match_lead = c.execute(select(m.Lead.id).where(m.Lead.is_converted.is_(False), m.Lead.company.in_(select(m.Account.name)))
                               .order_by(m.Lead.id).limit(1)).scalar()
        acc = c.execute(select(m.Opportunity.account_id).where(m.Opportunity.owner_id == 1).group_by(m.Opportunity.account_id)
                        .order_by(func.count().desc(), m.Opportunity.account_id).limit(1)).scalar()
        case = c.execute(select(m.Case.id).where(m.Case.status == "Working", m.Case.owner_id == 1).order_by(m.Case.id).limit(1)).scalar()
    return {"opp": opp, "lead": lead, "match_lead": match_lead or lead, "account": acc, "case": case}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m agent_harness.screenshots.crm")
    ap.add_argument("--out", default=str(ROOT / "docs" / "screenshots" / "crm"))
    ap.add_argument("--only", default="", help="comma-separated shot names")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    only = {x for x in args.only.split(",") if x}

    from playwright.sync_api import sync_playwright

    from apps.crm import SPEC, create_app

    home = tempfile.mkdtemp(prefix="stratus-shots-")
    app = create_app({"UIGYM_HOME": home, "GYM_TOKEN": "shots", "OPEN_DEFAULT_WORLD": True})
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    with app.test_request_context():
        app.extensions["uigym_worlds"].engine("default")
    pk = picks(app)
    problems: list[str] = []

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(p.chromium.executable_path), args=CHROMIUM_ARGS)
        ctx = browser.new_context(viewport={"width": 1280, "height": 720}, device_scale_factor=1, timezone_id="UTC",
                                  locale="en-US", reduced_motion="reduce")
        ctx.clock.set_fixed_time(SPEC.default_now.replace(tzinfo=dt.timezone.utc))
        page = ctx.new_page()
        page.on("console", lambda msg: problems.append(f"console {msg.type}: {msg.text}") if msg.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
        page.on("response", lambda r: problems.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)

        def settle():
            page.wait_for_load_state("networkidle")
            page.evaluate("document.fonts.ready.then(() => true)")

        def go(path):
            page.goto(base + path)
            settle()

        def shot(name):
            settle()
            page.wait_for_timeout(150)
            page.screenshot(path=str(out / f"{name}.png"))
            print(f"saved {out / name}.png")

        def want(name):
            return not only or name in only

        go("/lightning/page/home")
        ok = page.evaluate("document.fonts.check('600 13px Inter')")
        if not ok:
            problems.append("Inter did not load")
        if want("home"):
            shot("home")
        if want("list"):
            go("/lightning/o/Lead/list?filterName=AllOpenLeads")
            shot("list")
        if want("list-filters"):
            go("/lightning/o/Opportunity/list?filterName=My_Big_Deals&filters=open")
            shot("list-filters")
        if want("kanban"):
            go("/lightning/o/Opportunity/list?filterName=MyOpportunities&display=kanban")
            shot("kanban")
        if want("lead"):
            go(f"/lightning/r/Lead/{pk['lead']}/view")
            shot("lead")
        if want("opportunity"):
            go(f"/lightning/r/Opportunity/{pk['opp']}/view")
            shot("opportunity")
        if want("opportunity-details"):
            go(f"/lightning/r/Opportunity/{pk['opp']}/view")
            page.get_by_role("tab", name="Details").click()
            shot("opportunity-details")
        if want("account"):
            go(f"/lightning/r/Account/{pk['account']}/view")
            shot("account")
        if want("new-modal"):
            go("/lightning/o/Opportunity/list")
            page.get_by_role("link", name="New", exact=True).click()
            settle()
            page.get_by_role("combobox", name="Stage").click()
            shot("new-modal")
        if want("convert"):
            go(f"/lightning/r/Lead/{pk['match_lead']}/convert")
            shot("convert")
        if want("search"):
            go("/lightning/search?q=health")
            shot("search")
        if want("typeahead"):
            go("/lightning/page/home")
            page.get_by_role("combobox", name="Search").click()
            page.keyboard.type("north")
            settle()
            shot("typeahead")
        if want("report"):
            go("/lightning/r/Report/1/view")
            shot("report")
        if want("dashboard"):
            go("/lightning/r/Dashboard/1/view")
            shot("dashboard")
        if want("close-case"):
            go(f"/lightning/r/Case/{pk['case']}/view")
            page.get_by_role("button", name="Show more actions").click()
            page.get_by_role("menuitem", name="Close Case").click()
            page.get_by_role("dialog", name="Close Case").wait_for()
            page.get_by_role("combobox", name="Case Reason").click()
            page.get_by_role("option", name="Performance", exact=True).click()
            page.get_by_role("textbox", name="Internal Comments").fill("Customer confirmed the fix after the 2.4 patch.")
            shot("close-case")
            if want("case-closed"):  # saved: the case closed, its comment in the Case Comments card
                page.get_by_role("button", name="Save", exact=True).click()
                page.wait_for_load_state("load")
                shot("case-closed")
        if want("list-fields"):
            go("/lightning/o/Lead/list?filterName=Hot_Web_Leads")
            page.get_by_role("button", name="List View Controls").click()
            page.get_by_role("menuitem", name="Select Fields to Display").click()
            page.get_by_role("dialog", name="Select Fields to Display").wait_for()
            page.get_by_role("listbox", name="Available Fields").get_by_role("option", name="Lead Source", exact=True).click()
            shot("list-fields")
        if want("tasks"):
            go("/lightning/o/Task/list?filterName=TodaysTasks")
            shot("tasks")
        # Products last: they write to the world (the shots above show it as seeded).
        if want("products-add") or want("products-edit") or want("products-pricebook") or want("opportunity-products"):
            go(f"/lightning/r/Opportunity/{pk['opp']}/view")
            page.get_by_role("button", name="Add Products", exact=True).click()
            settle()
            page.get_by_role("combobox", name="Price Book").click()
            shot("products-pricebook")
            page.get_by_role("option", name="Standard Price Book", exact=True).click()
            page.get_by_role("dialog").get_by_role("button", name="Save", exact=True).click()
            settle()
            for name in ("Analytics Cloud", "Premier Support"):
                page.get_by_role("checkbox", name=f"Select {name}", exact=True).check(force=True)
            shot("products-add")
            page.get_by_role("button", name="Next", exact=True).click()
            settle()
            page.get_by_role("textbox", name="Quantity for Analytics Cloud", exact=True).fill("40")
            page.get_by_role("textbox", name="Sales Price for Analytics Cloud", exact=True).fill("1350")
            page.get_by_role("textbox", name="Quantity for Premier Support", exact=True).fill("1")
            shot("products-edit")
            page.get_by_role("dialog").get_by_role("button", name="Save", exact=True).click()
            settle()
            shot("opportunity-products")
        if want("files-add") or want("file-preview"):
            go(f"/lightning/r/Account/{pk['account']}/view")
            page.get_by_role("button", name="Add Files", exact=True).click()
            settle()
            page.get_by_role("checkbox", name="Select Q1 Pricing Sheet", exact=True).check(force=True)
            shot("files-add")
            page.get_by_role("dialog").get_by_role("button", name="Add", exact=True).click()
            settle()
            page.get_by_role("article", name="Files").get_by_role("link", name="Q1 Pricing Sheet", exact=True).click()
            settle()
            shot("file-preview")
        if want("report-builder"):
            go("/lightning/r/Report/9/edit?nc_add=rating")
            shot("report-builder")
        browser.close()
    server.shutdown()
    for pr in problems:
        print("PROBLEM:", pr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
