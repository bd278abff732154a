"""Account: profile, addresses, payment methods, saved stores, Forkful Plus, gift cards & credits,
notifications."""

from __future__ import annotations

from flask import abort, jsonify, redirect, render_template, request, url_for
from sqlalchemy import select

from apps._shared import db, inputs, now
from apps._shared.looks import say
from apps._shared.actions import perform
from apps.food.models import GiftCard, PaymentMethod, SupportRequest
from apps.food.services import FormInvalid, Invalid
from apps.food.services import account as account_service  # `account` is the page's view
from apps.food.services.account import NOTIFY  # noqa: F401 (the notifications page and templates read it)
from apps.food.views.blueprint import bp
from apps.food.views.common import JSON_ERRORS, addresses, all_cards, json_error, user
from domain import food as logic

SECTIONS = {
    "profile": "Profile", "addresses": "Addresses", "payment": "Payment methods", "saved": "Saved stores",
    "plus": "Forkful Plus", "credits": "Gift cards & credits", "notifications": "Notifications",
}


@bp.get("/account")
def account_root():
    return redirect(url_for("food.account", section="profile"))


@bp.get("/account/<section>")
def account(section: str):
    if section not in SECTIONS:
        abort(404)
    u, t = user(), now()
    ctx = {"section": section, "SECTIONS": SECTIONS, "u": u, "member": logic.is_member(u, t),
           "msg": request.args.get("msg", "")}
    if section == "addresses":
        ctx["addrs"] = addresses()
    elif section in ("payment", "plus"):
        ctx["cards"] = list(db().scalars(select(PaymentMethod).order_by(PaymentMethod.id)))
    elif section == "saved":
        ctx["saved"] = [c for c in all_cards() if c.saved]
    elif section == "credits":
        ctx["gifts"] = list(db().scalars(select(GiftCard).where(GiftCard.redeemed_at.is_not(None)).order_by(GiftCard.redeemed_at.desc())))
        ctx["support"] = list(db().scalars(select(SupportRequest).where(SupportRequest.resolution == "credit").order_by(SupportRequest.id.desc())))
    elif section == "notifications":
        ctx["notify"] = NOTIFY
    return render_template("food/account.html", **ctx)


@bp.post("/account/profile")
def save_profile():
    u = user()
    f = request.form
    perform(account_service.save_profile, f.get("first_name", ""), f.get("last_name", ""), f.get("email", ""),
            f.get("phone", ""), errors={FormInvalid: lambda e: render_template(
                "food/account.html", section="profile", SECTIONS=SECTIONS, u=u, errors=e.errors, form=f,
                member=logic.is_member(u, now()), msg="")})
    return redirect(url_for("food.account", section="profile", msg="Profile saved"))


@bp.post("/api/notifications")
def save_notification():
    data = inputs.body()
    on = perform(account_service.set_notification, inputs.text(data, "key"), bool(data.get("on")),
                 errors={Invalid: json_error})
    return jsonify(ok=True, key=inputs.text(data, "key"), on=on)


@bp.post("/api/cards/<int:card_id>/delete")
def delete_card(card_id: int):
    perform(account_service.delete_card, card_id, errors=JSON_ERRORS)
    return jsonify(ok=True)


@bp.post("/api/cards/<int:card_id>/default")
def default_card(card_id: int):
    perform(account_service.set_default_card, card_id, errors=JSON_ERRORS)
    return jsonify(ok=True)


@bp.post("/account/plus/subscribe")
def plus_subscribe():
    perform(account_service.subscribe_plus, request.form.get("plan"),
            inputs.integer(request.form, "payment_method_id", 0),
            errors={Invalid: lambda e: redirect(url_for("food.account", section="plus", msg=say(str(e))))})
    return redirect(url_for("food.account", section="plus", msg=say("Welcome to Forkful Plus!")))


@bp.post("/account/plus/cancel")
def plus_cancel():
    perform(account_service.cancel_plus)  # nothing to commit when there was no membership
    return redirect(url_for("food.account", section="plus", msg="Your membership was cancelled."))


@bp.post("/account/credits/redeem")
def redeem_gift():
    gc = perform(account_service.redeem_gift_card, request.form.get("code") or "",
                 errors={Invalid: lambda e: redirect(url_for("food.account", section="credits", msg=say(str(e))))})
    return redirect(url_for("food.account", section="credits",
                            msg=say(f"{logic.money(gc.amount_cents)} was added to your credits.")))
