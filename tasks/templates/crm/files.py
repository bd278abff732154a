"""Files on records (apps/crm/services/files.py): Add Files shares a library file to a record's Files list."""

from __future__ import annotations

import random

from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.crm._common import (
    DIALOG, Crm, allow_create, button, call, done, extra, find, finish, neighbour, open_record, reread, tools, wrong_record)

# (the file to attach, the look-alike a careless pick takes instead)
PAIRS = [("Q1 Pricing Sheet", "Q1 Pricing Sheet (draft)"), ("Master Services Agreement", "Master Services Agreement - Redline"),
         ("Security Whitepaper", "Data Processing Addendum"), ("ROI Calculator", "Customer Reference List"),
         ("Implementation Plan Template", "Onboarding Checklist")]
WHY = {"Q1 Pricing Sheet": "they asked for the current prices", "Master Services Agreement": "legal wants the signed version on file",
       "Security Whitepaper": "their security team is reviewing us", "ROI Calculator": "the CFO wants to check the numbers",
       "Implementation Plan Template": "the project kick-off is next week"}


def _add_file(title: str) -> list[dict]:
    return [button("Add Files"), {"click": {"role": "checkbox", "name": f"Select {title}", "exact": True}}, button("Add", within=DIALOG)]


@template("crm", "attach-file", difficulty="easy", max_steps=16)
def attach_file(w: World, rng: random.Random):
    """Attach a file from the library to an account or opportunity (Add Files on its Files card)."""
    crm = Crm(w)
    files = {f["title"]: f for f in w.table("files")}
    linked = {(lk["parent_type"], lk["parent_id"]) for lk in w.table("file_links")}
    cands = [("Account", a) for a in crm.accounts if crm.unique(a["name"]) and ("Account", a["id"]) not in linked and len(a["name"]) < 40]
    cands += [("Opportunity", o) for o in crm.opps if crm.is_open(o) and crm.unique(o["name"]) and ("Opportunity", o["id"]) not in linked
              and len(o["name"]) < 60]
    order = rng.sample(cands, len(cands))
    for k, (obj, rec) in enumerate(order):
        gold, decoy = PAIRS[k % len(PAIRS)]
        g, d = files[gold], files[decoy]
        kind = obj.lower()
        other_obj, other = neighbour(order, (obj, rec), lambda x: x[0] == obj)
        where = {"parent_type": obj, "parent_id": rec["id"]}
        solution = open_record(rec["name"]) + _add_file(gold) + [done()]
        yield {
            "goal": f"Attach the file \u201c{gold}\u201d from Files to the {kind} \u201c{rec['name']}\u201d: {WHY[gold]}.",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "file_links", "in": "created", "where": where, "count": 1, "expect": {"file_id": g["id"]}}],
                "unchanged_except": [allow_create("file_links", where)],
            },
            "solution": solution,
            "near_misses": [open_record(rec["name"]) + _add_file(decoy) + [done()]],
            "harmless": [harmless("check_work", solution[:-1] + open_record(rec["name"]) + [done()],
                                  f"opens the {kind} again to see the file on its Files card",
                                  [find(obj, rec["name"]), call("list_files", search=gold),
                                   call("attach_files", object=obj, record_id=rec["id"], file_ids=[g["id"]]), reread(obj, rec["id"])])],
            "adversarial": [
                extra(solution, _add_file(decoy), f"attaches \u201c{decoy}\u201d as well"),
                wrong_record(open_record(other["name"]) + _add_file(gold) + [done()], f"attaches it to \u201c{other['name']}\u201d instead"),
            ],
            "tools": tools(
                [find(obj, rec["name"]), call("list_files", search=gold),
                 call("attach_files", object=obj, record_id=rec["id"], file_ids=[g["id"]]), finish()],
                [find(obj, rec["name"]), call("list_files", search=gold),
                 call("attach_files", object=obj, record_id=rec["id"], file_ids=[d["id"]]), finish()],
            ),
        }
