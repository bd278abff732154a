"""Lead conversion: into a new or existing account and contact, and a new, existing or no opportunity.

The form is the Convert dialog's (account_mode/contact_mode/opp_mode new|existing, the chosen ids, the new
names, no_opportunity, owner_id); default_form is the dialog as it opens, so a tool that changes only what a
user would change converts exactly as the dialog does."""

from __future__ import annotations

from typing import Mapping

from sqlalchemy import func, or_, select

from apps._shared import db, now
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.services import ServiceError, record
from domain.crm import company_base, normalize_company


def matching_accounts(lead: m.Lead) -> list[m.Account]:
    key = normalize_company(lead.company)
    if not key:
        return []
    first = company_base(lead.company).split(" ")[0]
    cands = db().scalars(select(m.Account).where(m.Account.name.ilike(f"{first}%")).order_by(m.Account.name, m.Account.id))
    return [a for a in cands if normalize_company(a.name) == key][:5]


def matching_contacts(lead: m.Lead) -> list[m.Contact]:
    conds = [(func.lower(m.Contact.first_name) == (lead.first_name or "").lower()) & (func.lower(m.Contact.last_name) == lead.last_name.lower())]
    if lead.email:
        conds.append(func.lower(m.Contact.email) == lead.email.lower())
    return list(db().scalars(select(m.Contact).where(or_(*conds)).order_by(m.Contact.id).limit(5)))


def default_form(lead: m.Lead) -> dict[str, str]:
    """The Convert dialog as it opens: new account named after the company, new contact, a new
    opportunity named "<Company>-", the lead's owner as record owner."""
    return {"account_mode": "new", "account_name": lead.company, "contact_mode": "new", "salutation": lead.salutation or "",
            "first_name": lead.first_name or "", "last_name": lead.last_name, "opp_mode": "new", "opp_name": f"{lead.company}-",
            "owner_id": str(lead.owner_id or "")}


def _pick(form, key_radio: str, key_lookup: str, model):
    raw = form.get(key_radio) or form.get(key_lookup) or ""
    if str(raw).isdecimal():
        return db().get(model, int(raw))
    return None


def convert_lead(rid: int, f: Mapping[str, str]) -> m.Lead:
    """Convert the lead; its activities and notes move to the new contact (and opportunity or account)."""
    lead = record("Lead", rid)
    if lead.is_converted:
        raise ServiceError("This lead was already converted.")
    errors: dict[str, str] = {}
    acc_mode = f.get("account_mode", "new")
    con_mode = f.get("contact_mode", "new")
    opp_mode = f.get("opp_mode", "new")
    no_opp = f.get("no_opportunity") in ("on", "1", "true")
    owner_raw = f.get("owner_id", "")
    owner = int(owner_raw) if owner_raw.isdecimal() and R.user_by_id(int(owner_raw)) else None
    if owner is None:
        errors["owner_id"] = "Complete this field."
    account = None
    if acc_mode == "existing":
        account = _pick(f, "existing_account_id", "account_lookup", m.Account)
        if account is None:
            errors["account"] = "Choose an existing account or create a new one."
    elif not (f.get("account_name") or "").strip():
        errors["account_name"] = "Complete this field."
    contact = None
    if con_mode == "existing":
        contact = _pick(f, "existing_contact_id", "contact_lookup", m.Contact)
        if contact is None:
            errors["contact"] = "Choose an existing contact or create a new one."
    elif not (f.get("last_name") or "").strip():
        errors["last_name"] = "Complete this field."
    opp = None
    if not no_opp:
        if opp_mode == "existing":
            opp = _pick(f, "existing_opp_id", "opp_lookup", m.Opportunity)
            if opp is None:
                errors["opp"] = "Choose an existing opportunity, create a new one, or don't create one."
        elif not (f.get("opp_name") or "").strip():
            errors["opp_name"] = "Complete this field."
    if errors:
        raise ServiceError("Convert: " + "; ".join(f"{k}: {v}" for k, v in errors.items()), errors)
    today = now().date()
    if account is None:
        account = R.create("Account", {
            "name": f["account_name"].strip(), "phone": lead.phone, "website": lead.website, "industry": lead.industry,
            "rating": lead.rating, "annual_revenue": lead.annual_revenue, "employees": lead.employees,
            "billing_street": lead.street, "billing_city": lead.city, "billing_state": lead.state,
            "billing_postal_code": lead.postal_code, "billing_country": lead.country, "owner_id": owner,
            "type": "Prospect", "description": lead.description,
        })
        db().flush()
    if contact is None:
        contact = R.create("Contact", {
            "account_id": account.id, "salutation": f.get("salutation", lead.salutation) or "",
            "first_name": (f.get("first_name") or "").strip(), "last_name": f["last_name"].strip(),
            "title": lead.title, "email": lead.email, "phone": lead.phone, "mobile": lead.mobile,
            "mailing_street": lead.street, "mailing_city": lead.city, "mailing_state": lead.state,
            "mailing_postal_code": lead.postal_code, "mailing_country": lead.country, "lead_source": lead.lead_source,
            "owner_id": owner,
        })
        db().flush()
    elif contact.account_id is None:
        R.update(contact, {"account_id": account.id})
    if not no_opp and opp is None:
        _, q_end = R.this_quarter()
        opp = R.create("Opportunity", {
            "name": f["opp_name"].strip(), "account_id": account.id, "stage": "Prospecting", "close_date": q_end,
            "lead_source": lead.lead_source, "owner_id": owner, "type": "New Customer", "amount": None,
        })
        db().flush()
    if opp is not None:
        has_role = db().scalar(select(m.OpportunityContactRole).where(
            m.OpportunityContactRole.opportunity_id == opp.id, m.OpportunityContactRole.contact_id == contact.id))
        if has_role is None:
            primary = db().scalar(select(m.OpportunityContactRole).where(
                m.OpportunityContactRole.opportunity_id == opp.id, m.OpportunityContactRole.is_primary.is_(True))) is None
            db().add(m.OpportunityContactRole(id=R.next_id(m.OpportunityContactRole), opportunity_id=opp.id,
                                              contact_id=contact.id, role="Decision Maker" if primary else "", is_primary=primary))
    # The lead's activities and notes move to the contact (and the opportunity or account).
    for model in (m.Task, m.Event):
        for a in db().scalars(select(model).where(model.who_type == "Lead", model.who_id == lead.id)):
            a.who_type, a.who_id = "Contact", contact.id
            if a.what_id is None:
                a.what_type, a.what_id = ("Opportunity", opp.id) if opp is not None else ("Account", account.id)
    for n in db().scalars(select(m.Note).where(m.Note.parent_type == "Lead", m.Note.parent_id == lead.id)):
        n.parent_type, n.parent_id = "Contact", contact.id
    R.update(lead, {"status": "Closed - Converted", "is_converted": True, "converted_account_id": account.id,
                    "converted_contact_id": contact.id, "converted_opportunity_id": opp.id if opp is not None else None,
                    "converted_date": today, "owner_id": owner})
    return lead
