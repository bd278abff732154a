"""Lead conversion: into a new or existing account and contact, and a new, existing or no opportunity."""

from __future__ import annotations

from flask import render_template, request
from sqlalchemy import select

from apps._shared import db
from apps._shared.actions import perform
from apps._shared.i18n import gettext
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.services import convert as svc
from apps.crm.services.convert import matching_accounts, matching_contacts
from apps.crm.views.base import bp, done, fail
from apps.crm.views.records import modal_response
from apps.crm.views.refusals import modal


def convert_context(lead: m.Lead, form=None, errors=None) -> dict:
    accs = matching_accounts(lead)
    return {
        "lead": lead, "accounts": accs, "contacts": matching_contacts(lead), "errors": errors or {},
        "form": form or {}, "owner": R.user_by_id(lead.owner_id), "default_opp": f"{lead.company}-",
        "account_names": {a.id: a.name for a in db().scalars(select(m.Account).where(m.Account.id.in_(
            [c.account_id for c in matching_contacts(lead) if c.account_id])))},
    }


@bp.route("/lightning/r/Lead/<int:rid>/convert", methods=["GET", "POST"])
def lead_convert(rid: int):
    lead = R.get_record("Lead", rid)
    if lead.is_converted:
        if request.method == "GET":
            return modal_response(render_template("crm/convert_done.html", lead=lead,
                                                  acc=db().get(m.Account, lead.converted_account_id) if lead.converted_account_id else None,
                                                  con=db().get(m.Contact, lead.converted_contact_id) if lead.converted_contact_id else None,
                                                  opp=db().get(m.Opportunity, lead.converted_opportunity_id) if lead.converted_opportunity_id else None),
                                  "Lead", rid)
        return fail(message=gettext("This lead was already converted."), status=400)
    if request.method == "GET":
        return modal_response(render_template("crm/convert.html", **convert_context(lead)), "Lead", rid)
    perform(svc.convert_lead, rid, request.form, errors=modal(lambda e: render_template(
        "crm/convert.html", **convert_context(lead, request.form, e.errors))))
    return done(f"/lightning/r/Lead/{lead.id}/convert")
