"""Salesforce fills a case's account from its contact (apps/crm/services/records.autofill_case_account): the New
and Edit modals and the create/update tools all save through it. Over the seeded contacts: a case saved with
a contact and no account gets the contact's account; an account given is kept; an edit that leaves the account
blank refills it from the (new) contact."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st
from sqlalchemy import select

from apps.crm import models as m
from tests.apps.crm.conftest import fresh
from tests.apps.crm.test_tools import call

ONE_WORLD = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _contacts(dbs) -> list[m.Contact]:
    return list(dbs.scalars(select(m.Contact).where(m.Contact.account_id.is_not(None)).order_by(m.Contact.id)))


@ONE_WORLD
@given(pick=st.integers(0, 10_000), other=st.integers(0, 10_000), give_account=st.booleans(), via=st.sampled_from(["tool", "form"]))
def test_a_new_case_takes_its_contacts_account_unless_one_is_given(app, client, dbs, pick, other, give_account, via):
    contacts = _contacts(dbs)
    c = contacts[pick % len(contacts)]
    accounts = list(dbs.scalars(select(m.Account.id).order_by(m.Account.id)))
    chosen = accounts[other % len(accounts)]
    subject = f"Autofill probe {pick}-{other}-{give_account}-{via}"
    fields = {"subject": subject, "contact_id": c.id, **({"account_id": chosen} if give_account else {})}
    if via == "tool":
        call(app, "create_record", object="Case", fields=fields)
    else:  # the New Case modal posts every input, the account's blank unless chosen
        r = client.post("/lightning/o/Case/new", data={"subject": subject, "status": "New", "priority": "Medium",
                                                        "origin": "Phone", "owner_id": "1", "contact_id": str(c.id),
                                                        "account_id": str(chosen) if give_account else ""})
        assert r.status_code == 303, r.data[:300]
    dbs.expire_all()
    case = dbs.scalars(select(m.Case).where(m.Case.subject == subject)).one()
    assert case.contact_id == c.id
    assert case.account_id == (chosen if give_account else c.account_id)


@ONE_WORLD
@given(pick=st.integers(0, 10_000), via=st.sampled_from(["tool", "form"]))
def test_an_edit_that_clears_the_account_refills_it_from_the_contact(app, client, dbs, pick, via):
    contacts = _contacts(dbs)
    c = contacts[pick % len(contacts)]
    case = dbs.scalars(select(m.Case).where(m.Case.account_id.is_not(None)).order_by(m.Case.id)).first()
    if via == "tool":
        call(app, "update_record", object="Case", record_id=case.id, fields={"contact_id": c.id, "account_id": None})
    else:
        r = client.post(f"/lightning/r/Case/{case.id}/edit", data={"contact_id": str(c.id), "account_id": ""})
        assert r.status_code == 303, r.data[:300]
    after = fresh(dbs, m.Case, case.id)
    assert (after.contact_id, after.account_id) == (c.id, c.account_id)


def test_a_case_with_neither_keeps_neither_and_an_edit_of_other_fields_keeps_the_account(app, dbs):
    r = call(app, "create_record", object="Case", fields={"subject": "No contact at all"})
    dbs.expire_all()
    case = dbs.scalars(select(m.Case).where(m.Case.subject == "No contact at all")).one()
    assert (case.contact_id, case.account_id) == (None, None)
    kept = dbs.scalars(select(m.Case).where(m.Case.account_id.is_not(None), m.Case.contact_id.is_not(None))
                       .order_by(m.Case.id)).first()
    call(app, "update_record", object="Case", record_id=kept.id, fields={"priority": "High"})
    assert fresh(dbs, m.Case, kept.id).account_id == kept.account_id
    assert r["id"] == case.id
