"""Account: profile, addresses, payment methods, saved stores, Forkful Plus, gift cards & credits,
notifications."""

from __future__ import annotations

import datetime as dt
import re

from flask import abort, jsonify, redirect, render_template, request, url_for
from sqlalchemy import func, select

from apps._shared import db, inputs, now
from apps.food import logic
from apps.food.models import GiftCard, PaymentMethod, SupportRequest, Order
from apps.food.views import bp
from apps.food.views.common import addresses, all_cards, user

SECTIONS = {
    "profile": "Profile", "addresses": "Addresses", "payment": "Payment methods", "saved": "Saved stores",
    "plus": "Forkful Plus", "credits": "Gift cards & credits", "notifications": "Notifications",
}
NOTIFY = [
    ("notify_push_orders", "Order updates", "Push notifications"),
    ("notify_sms_orders", "Order updates", "Text messages"),
    ("notify_email_receipts", "Order updates", "Email receipts"),
    ("notify_push_promos", "Promotions and offers", "Push notifications"),
    ("notify_email_promos", "Promotions and offers", "Emails"),
    ("notify_sms_promos", "Promotions and offers", "Text messages"),
]


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
    errors = {}
    first, last = f.get("first_name", "").strip(), f.get("last_name", "").strip()
    email, phone = f.get("email", "").strip(), f.get("phone", "").strip()
    if not first:
        errors["first_name"] = "Enter your first name."
    if not last:
        errors["last_name"] = "Enter your last name."
    if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]{2,}", email, re.I):
        errors["email"] = "Enter a valid email address."
    digits = re.sub(r"\D", "", phone)
    if len(digits) != 10:
        errors["phone"] = "Enter a 10-digit phone number."
    if errors:
        return render_template("food/account.html", section="profile", SECTIONS=SECTIONS, u=u, errors=errors,
                               form=f, member=logic.is_member(u, now()), msg="")
    u.first_name, u.last_name, u.email = first, last, email
    u.phone = f"({digits[:3]}) {digits[3:6]}-{digits[6:]}"
    db().commit()
    return redirect(url_for("food.account", section="profile", msg="Profile saved"))


@bp.post("/api/notifications")
def save_notification():
    data = inputs.body()
    key = inputs.text(data, "key")
    if key not in {k for k, _, _ in NOTIFY}:
        return jsonify(ok=False, error="Unknown setting")
    setattr(user(), key, bool(data.get("on")))
    db().commit()
    return jsonify(ok=True, key=key, on=getattr(user(), key))


@bp.post("/api/cards/<int:card_id>/delete")
def delete_card(card_id: int):
    pm = db().get(PaymentMethod, card_id)
    if pm is None:
        abort(404)
    u = user()
    if u.membership_status == "active" and u.membership_payment_id == pm.id:
        return jsonify(ok=False, error="This card pays for Forkful Plus. Choose another card for your membership first.")
    db().delete(pm)
    if u.default_payment_id == card_id:
        rest = db().scalars(select(PaymentMethod).where(PaymentMethod.id != card_id).order_by(PaymentMethod.id)).first()
        u.default_payment_id = rest.id if rest else None
    from apps.food.views.common import cart

    c = cart()
    if c is not None and c.payment_method_id == card_id:
        c.payment_method_id = u.default_payment_id
    db().commit()
    return jsonify(ok=True)


@bp.post("/api/cards/<int:card_id>/default")
def default_card(card_id: int):
    pm = db().get(PaymentMethod, card_id)
    if pm is None:
        abort(404)
    if logic.card_expired(pm, now()):
        return jsonify(ok=False, error="This card has expired.")
    user().default_payment_id = pm.id
    db().commit()
    return jsonify(ok=True)


@bp.post("/account/plus/subscribe")
def plus_subscribe():
    u, t = user(), now()
    plan = request.form.get("plan")
    pm = db().get(PaymentMethod, inputs.integer(request.form, "payment_method_id", 0))
    err = None
    if plan not in logic.PLUS_PRICES:
        err = "Choose a plan."
    elif pm is None:
        err = "Choose a payment method."
    elif logic.card_expired(pm, t):
        err = f"Your {logic.card_label(pm)} has expired."
    elif u.membership_status == "active":
        err = "You're already a member."
    if err:
        return redirect(url_for("food.account", section="plus", msg=err))
    u.membership_status = "active"
    u.membership_plan = plan
    u.membership_payment_id = pm.id
    days = 365 if plan == "annual" else 30
    u.membership_ends_on = (t + dt.timedelta(days=days)).date()
    db().commit()
    return redirect(url_for("food.account", section="plus", msg="Welcome to Forkful Plus!"))


@bp.post("/account/plus/cancel")
def plus_cancel():
    u = user()
    if u.membership_status == "active":
        u.membership_status = "cancelled"
        db().commit()
    return redirect(url_for("food.account", section="plus", msg="Your membership was cancelled."))


@bp.post("/account/credits/redeem")
def redeem_gift():
    code = re.sub(r"[\s-]", "", (request.form.get("code") or "")).upper()
    gc = None
    for row in db().scalars(select(GiftCard).order_by(GiftCard.id)):
        if row.code.replace("-", "").upper() == code:
            gc = row
    if not code:
        msg = "Enter a gift card code."
    elif gc is None:
        msg = "That gift card code isn't valid."
    elif gc.redeemed_at is not None:
        msg = "This gift card has already been redeemed."
    else:
        gc.redeemed_at = now()
        user().credits_cents += gc.amount_cents
        db().commit()
        msg = f"{logic.money(gc.amount_cents)} was added to your credits."
    return redirect(url_for("food.account", section="credits", msg=msg))


__all__ = ["func", "Order"]
