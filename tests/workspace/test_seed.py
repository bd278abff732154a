"""The workspace seed family (seed_data/workspace.py): one cast over mail, food and crm, deterministic, and the
single-app worlds and bundled tasks untouched."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from seed_data import workspace as ws
from tests.workspace.hashes import TASK_PINS, app_world_digest, digest, task_file_digests

ROOT = Path(__file__).resolve().parents[2]
SEED = 0

# The single-app worlds of seed 0 and the bundled tasks, as they were before the workspace family existed
# (checked against the commit before it: `git archive` of that commit, `python -m tests.workspace.hashes`).
# The workspace must never move them. Changing a single-app seed or task on purpose: re-pin from that module.
PINNED = {
    "mail": "de04ecbe82b7f4fb26c5",
    "food": "86eac869809cde6f222c",
    "crm": "207bbc2986694473666d",
}


@pytest.fixture(scope="module")
def world():
    return ws.build(SEED, ws.NOW)


@pytest.fixture(scope="module")
def links():
    return ws.links(SEED, ws.NOW)


@pytest.mark.parametrize("app", ["mail", "food", "crm"])
def test_single_app_world_unchanged(app):
    assert app_world_digest(app) == PINNED[app], f"the bundled {app} world changed"


def test_bundled_tasks_unchanged():
    """Every pinned task file is there, byte for byte (tests/workspace/pinned_tasks.json; new templates add files:
    `python -m tests.workspace.hashes` re-pins after a deliberate change)."""
    pinned, now = json.loads(TASK_PINS.read_text()), task_file_digests()
    changed = sorted(f for f, d in pinned.items() if now.get(f) != d)
    assert len(pinned) > 100 and not changed, f"bundled task files changed or gone: {changed[:10]}"


def test_same_seed_same_worlds_across_processes(world):
    """Another process (another hash seed) builds byte-for-byte the same three worlds."""
    code = ("from seed_data import workspace as ws; from tests.workspace.hashes import digest; "
            f"w = ws.build({SEED}, ws.NOW); print(digest(w['mail']), digest(w['food']), digest(w['crm']))")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == [digest(world["mail"]), digest(world["food"]), digest(world["crm"])]


def test_other_seed_other_cast(world):
    other = ws.build(1, ws.NOW)
    assert digest(other["mail"]["contacts"]) != digest(world["mail"]["contacts"])
    assert digest(other["crm"]["accounts"]) != digest(world["crm"]["accounts"])


def test_me_is_one_person(world, links):
    crm_me = next(u for u in world["crm"]["users"] if u["id"] == links["me"]["crm_user_id"])
    acct = world["mail"]["account"][0]
    food_me = world["food"]["users"][0]
    name = f"{crm_me['first_name']} {crm_me['last_name']}"
    assert acct["name"] == name == f"{food_me['first_name']} {food_me['last_name']}" == links["me"]["name"]
    assert acct["email"] == crm_me["email"] == food_me["email"]
    assert food_me["phone"] == crm_me["phone"]
    # The CRM's other users are the mail world's coworkers, at the same addresses.
    mail_by_email = {c["email"]: c for c in world["mail"]["contacts"]}
    for u in world["crm"]["users"]:
        if u["id"] != crm_me["id"]:
            c = mail_by_email[u["email"]]
            assert (c["name"], c["relation"], c["company"]) == (f"{u['first_name']} {u['last_name']}", "coworker",
                                                               links["me"]["company"])


def test_clients_are_crm_contacts(world, links):
    crm_contacts = {c["id"]: c for c in world["crm"]["contacts"]}
    accounts = {a["id"]: a for a in world["crm"]["accounts"]}
    clients = [c for c in world["mail"]["contacts"] if c["relation"] == "client"]
    assert len(clients) >= 40 and {c["email"] for c in clients} == set(links["contacts"])
    for c in clients:
        crm = crm_contacts[links["contacts"][c["email"]]]
        acc = accounts[crm["account_id"]]
        assert c["name"] == f"{crm['first_name']} {crm['last_name']}"
        assert (c["email"], c["phone"], c["title"], c["company"]) == (crm["email"], crm["phone"], crm["title"], acc["name"])
        assert c["address"].startswith(f"{crm['mailing_street']}, {crm['mailing_city']}")
    # One name, one person: nobody else in the mailbox shares a client's name.
    names = [c["name"] for c in world["mail"]["contacts"]]
    assert len(names) == len(set(names))
    # Their mail is theirs: every client has a message from or to their CRM address.
    senders = {m["from_email"] for m in world["mail"]["messages"]}
    assert {c["email"] for c in clients} <= senders | {e for m in world["mail"]["messages"] for e in m["to"]}


def test_case_threads_name_their_case(world, links):
    cases = {c["case_number"]: c for c in world["crm"]["cases"]}
    contacts = {c["id"]: c for c in world["crm"]["contacts"]}
    accounts = {a["id"]: a for a in world["crm"]["accounts"]}
    assert len(links["case_threads"]) == ws.N_CASE_THREADS
    for t in links["case_threads"]:
        case = cases[t["case_number"]]
        assert case["status"] in ws.OPEN_CASE and case["origin"] == "Email"
        assert contacts[case["contact_id"]]["email"] == t["contact_email"]
        assert accounts[case["account_id"]]["name"] == t["account"]
        assert t["subject"] == f"{case['subject']} ({t['account']})"
        msgs = [m for m in world["mail"]["messages"] if m["subject"] in (t["subject"], f"Re: {t['subject']}")]
        assert msgs[0]["from_email"] == t["contact_email"] and msgs[0]["in_inbox"]
        assert any(case["case_number"] in m["body"] for m in msgs)
        assert all(m["sent_at"] <= ws.NOW for m in msgs)


def test_office_address_is_a_saved_delivery_address(world, links):
    from domain.food import address_full

    office = next(a for a in world["food"]["addresses"] if a["id"] == links["office"]["address_id"])
    assert office["label"] == "Work"
    assert world["mail"]["account"][0]["signature"].endswith("\n" + address_full(office))


def test_receipts_match_orders(world, links):
    from domain.food import money

    orders = {o["id"]: o for o in world["food"]["orders"]}
    assert len(links["receipts"]) == ws.N_RECEIPTS
    for r in links["receipts"]:
        o = orders[r["order_id"]]
        msg = next(m for m in world["mail"]["messages"] if m["subject"] == r["subject"] and f"#{o['id']}" in m["body"])
        assert f"Total {money(o['total_cents'])}" in msg["body"] and msg["to"] == [links["me"]["email"]]


def test_store_builds_the_family_apart(tmp_path, monkeypatch):
    """A world store resets a world to the workspace family's snapshot when asked, to the app's own otherwise;
    an unknown family is a WorldError (the control API's 400)."""
    import apps.food
    from apps._shared.worlds import WorldError, WorldStore

    monkeypatch.delenv("UIGYM_SNAPSHOTS", raising=False)  # this store's own snapshots, not the suite's shared ones
    store = WorldStore(apps.food.SPEC, tmp_path)
    assert store.snap_dir == tmp_path / "snapshots" / "food"
    info = store.reset("w", SEED, ws.NOW.isoformat(), [], family="workspace")
    assert info["family"] == "workspace"
    state = store.state("w")
    assert state["_meta"]["family"] == "workspace"
    assert state["users"][0]["email"] == ws.links(SEED, ws.NOW)["me"]["email"]
    info = store.reset("w", SEED, ws.NOW.isoformat(), [])
    assert "family" not in info and "family" not in store.state("w")["_meta"]
    with pytest.raises(WorldError):
        store.reset("w", SEED, None, [], family="nope")
    # The app's own snapshot keeps its name (so its cache); the family's is named apart.
    stamp = ws.NOW.strftime("%Y%m%dT%H%M%S")
    assert sorted(p.name for p in store.snap_dir.iterdir()) == sorted([
        f"s{SEED}-{stamp}-{store.fingerprint()}.sqlite",
        f"workspace-s{SEED}-{stamp}-{store.fingerprint()}-{store.family_fingerprint()}.sqlite"])


def test_control_api_takes_a_family(tmp_path):
    """The reset route passes `family` to the store: an app without that family answers 400, never a 5xx."""
    from tests.fixture_apps import toy

    app = toy.create_app({"TESTING": True, "GYM_TOKEN": "t", "UIGYM_HOME": str(tmp_path)})
    ctl = app.extensions["uigym_control"].test_client()
    r = ctl.post("/worlds/w1/reset", json={"seed": 1, "family": "workspace"}, headers={"X-Gym-Token": "t"})
    assert r.status_code == 400 and "'family'" in r.json["error"]
    r = ctl.post("/worlds/w1/reset", json={"seed": 1, "family": 3}, headers={"X-Gym-Token": "t"})
    assert r.status_code == 400


@pytest.mark.parametrize("app", ["food", "crm"])
def test_one_app_built_alone_is_the_same(world, app):
    """Each app's server builds only its own world (with no more than it needs): the same rows as the whole."""
    alone, _links = ws._build(SEED, ws.NOW, app)  # uncached: built from scratch with only what it needs
    assert set(alone) == {app} and digest(alone[app]) == digest(world[app])
