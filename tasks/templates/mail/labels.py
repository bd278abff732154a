"""Managing labels: create (nested), rename, colour, remove."""

from __future__ import annotations

import random

from apps.mail.services.labels import LABEL_COLORS
from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.mail._common import Mailbox, all_settings, click, done, extra, graded, rail
from tasks.templates.mail._tools import call, plan

NAV = {"role": "navigation", "name": "Mailboxes"}
NEW_NAMES = ["Conferences", "Vendors", "Hiring", "Taxes 2026", "Side projects", "Contracts", "Board", "Recipes"]


# check_work for a label change: Settings > Labels, where every label shows with its name, nesting and colour.
LABELS_PAGE = [*all_settings(), click("tab", "Labels", exact=True), done()]


def _options(mb: Mailbox, lid: int) -> list[dict]:
    """Hover the label in the rail, then open its options menu."""
    lab = mb.labels[lid]
    return [{"hover": {"role": "link", "name": lab["name"], "within": NAV}},
            click("button", f"Options for label {mb.label_paths[lid]}", exact=True)]


@template("mail", "create-nested-label", difficulty="medium", max_steps=14, count=4, test_every=4)
def create_nested_label(w: World, rng: random.Random):
    """Create a new label nested under an existing one."""
    mb = Mailbox(w)
    parents = [lid for lid in sorted(mb.labels) if mb.labels[lid]["parent_id"] is None]
    names = rng.sample(NEW_NAMES, len(NEW_NAMES))
    for i, name in enumerate(names):
        parent = parents[(i * 3) % len(parents)]
        ppath = mb.label_paths[parent]

        def steps(nest: bool = True, name: str = name):
            s = [click("button", "Create new label", exact=True, within=NAV),
                 {"fill": {"role": "textbox", "name": "Label name"}, "text": name}]
            if nest:
                s += [click("checkbox", "Nest label under:"), click("button", "Parent label"),
                      click("option", ppath, exact=True)]
            return s + [click("button", "Create", exact=True), done()]

        yield {
            "goal": f"Create a new label \u201c{name}\u201d nested under \u201c{ppath}\u201d.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "labels", "in": "created", "count": 1,
                  "expect": {"name": name, "parent_id": parent}, "name": f"{ppath}/{name} exists"}],
                [{"table": "labels", "ops": ["create"], "max": 1}]),
            "solution": steps(),
            "harmless": [harmless("check_work", steps()[:-1] + LABELS_PAGE,
                                  "creates it, then opens Settings > Labels to see it nested under its parent",
                                  [call("list_labels"), call("create_label", name=name, parent_id=parent), call("list_labels")])],
            "tools": plan([call("list_labels"), call("create_label", name=name, parent_id=parent)],
                          [call("list_labels"), call("create_label", name=name)]),
            "adversarial": [extra(steps(), steps(name=names[(i + 1) % len(names)])[:-1],
                                  "creates a second nested label")],
            "near_misses": [steps(nest=False)],
        }


RENAMES = {"Receipts": "Purchases", "Travel": "Trips", "Personal": "Friends", "Family": "Home", "2024 Archive": "Old mail",
           "Projects": "Initiatives", "Clients": "Customers", "Invoices": "Bills"}


@template("mail", "rename-label", difficulty="medium", max_steps=12, count=4, test_every=4)
def rename_label(w: World, rng: random.Random):
    """Rename a label (its conversations keep it): rail label > options > Edit."""
    mb = Mailbox(w)
    lids = [lid for lid in sorted(mb.labels) if mb.labels[lid]["name"] in RENAMES]
    for i, lid in enumerate(rng.sample(lids, len(lids))):
        old = mb.labels[lid]["name"]
        new = RENAMES[old]
        edit = _options(mb, lid) + [click("menuitem", "Edit", exact=True),
                                    {"fill": {"role": "textbox", "name": "Label name"}, "text": new},
                                    click("button", "Save", exact=True), done()]
        o = [x for x in lids if x != lid][i % (len(lids) - 1)]
        edit_other = _options(mb, o) + [click("menuitem", "Edit", exact=True),
                                        {"fill": {"role": "textbox", "name": "Label name"}, "text": RENAMES[mb.labels[o]["name"]]},
                                        click("button", "Save", exact=True)]
        create = [click("button", "Create new label", exact=True, within=NAV),
                  {"fill": {"role": "textbox", "name": "Label name"}, "text": new}, click("button", "Create", exact=True), done()]
        yield {
            "goal": f"Rename the label \u201c{mb.label_paths[lid]}\u201d to \u201c{new}\u201d.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "labels", "where": {"id": lid},
                  "expect": {"name": new, "parent_id": mb.labels[lid]["parent_id"]}, "name": "renamed in place"}],
                [{"table": "labels", "where": {"id": lid}, "fields": ["name"]}]),
            "solution": edit,
            "harmless": [harmless("check_work", edit[:-1] + [rail(new), done()],
                                  "renames it, then opens the label by its new name to see its conversations kept it",
                                  [call("list_labels"), call("rename_label", label_id=lid, name=new), call("list_labels"),
                                   call("list_label_mail", label_id=lid)])],
            "tools": plan([call("list_labels"), call("rename_label", label_id=lid, name=new)],
                          [call("list_labels"), call("create_label", name=new)]),
            "adversarial": [extra(edit, edit_other, "renames another label too")],
            "near_misses": [create],
        }


@template("mail", "label-color", difficulty="medium", max_steps=10, count=4, test_every=4)
def label_color(w: World, rng: random.Random):
    """Change a label's colour from the rail's label menu."""
    mb = Mailbox(w)
    colours = [c for c in LABEL_COLORS if " " not in c[0] and c[0] != "Grey"]
    lids = rng.sample(sorted(mb.labels), len(mb.labels))
    for i, lid in enumerate(lids):
        name, bg, fg = colours[i % len(colours)]
        if mb.labels[lid]["color"] == bg:
            name, bg, fg = colours[(i + 1) % len(colours)]
        near = next(c for c in LABEL_COLORS if c[0] == f"Light {name.lower()}") if any(
            c[0] == f"Light {name.lower()}" for c in LABEL_COLORS) else colours[(i + 2) % len(colours)]

        def steps(colour: str, target: int = lid):
            return _options(mb, target) + [click("menuitem", "Label color"), click("menuitem", colour, exact=True), done()]

        o = lids[(i + 1) % len(lids)]
        o_colour = next(c[0] for c in colours if c[1] != mb.labels[o]["color"])

        yield {
            "goal": f"Change the colour of the label \u201c{mb.label_paths[lid]}\u201d to {name.lower()}.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "labels", "where": {"id": lid}, "expect": {"color": bg, "text_color": fg},
                  "name": f"label is {name}"}],
                [{"table": "labels", "where": {"id": lid}, "fields": ["color", "text_color"]}]),
            "solution": steps(name),
            "harmless": [harmless("check_work", steps(name)[:-1] + LABELS_PAGE,
                                  "recolours it, then opens Settings > Labels to see the new colour",
                                  [call("list_labels"), call("set_label_color", label_id=lid, color=name.lower()),
                                   call("list_labels")])],
            "tools": plan([call("list_labels"), call("set_label_color", label_id=lid, color=name.lower())],
                          [call("list_labels"), call("set_label_color", label_id=lid, color=near[0].lower())]),
            "adversarial": [extra(steps(name), steps(o_colour, o)[:-1], "recolours another label too")],
            "near_misses": [steps(near[0])],
        }


@template("mail", "delete-label", difficulty="medium", max_steps=10, count=4, test_every=4)
def delete_label(w: World, rng: random.Random):
    """Remove a label: its conversations lose the label but are not deleted."""
    mb = Mailbox(w)
    lids = [lid for lid in sorted(mb.labels) if not any(x["parent_id"] == lid for x in mb.labels.values())]
    for i, lid in enumerate(rng.sample(lids, len(lids))):
        other = [x for x in lids if x != lid][i % (len(lids) - 1)]
        tagged = [ml["id"] for ml in w.table("message_labels") if ml["label_id"] == lid]

        def steps(target: int):
            return _options(mb, target) + [click("menuitem", "Remove label", exact=True),
                                           click("button", "Delete", exact=True), done()]

        yield {
            "goal": f"Delete the label \u201c{mb.label_paths[lid]}\u201d. Keep the emails themselves.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "labels", "where": {"id": lid}, "count": 0, "name": "label gone"},
                 {"table": "message_labels", "where": {"label_id": lid}, "count": 0, "name": "no message keeps it"}],
                [{"table": "labels", "ops": ["delete"], "where": {"id": lid}, "max": 1}]
                + ([{"table": "message_labels", "ops": ["delete"], "where": {"label_id": lid}, "max": len(tagged)}]
                   if tagged else [])
                + [{"table": "filters", "where": {"apply_label_id": lid}, "fields": ["apply_label_id"]}]),
            "solution": steps(lid),
            # A look at what it holds first (its conversations stay; only the label goes).
            "harmless": [harmless("open_first", [rail(mb.labels[lid]["name"])] + steps(lid),
                                  "opens the label first to see its conversations, then deletes it",
                                  [call("list_labels"), call("list_label_mail", label_id=lid), call("delete_label", label_id=lid)])],
            "tools": plan([call("list_labels"), call("delete_label", label_id=lid)],
                          [call("list_labels"), call("delete_label", label_id=other)]),
            "adversarial": [extra(steps(lid), steps(other)[:-1], "deletes another label too")],
            "near_misses": [steps(other)],
            "tags": [f"messages:{len(tagged)}"],
        }
