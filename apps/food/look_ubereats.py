"""The food clone's second look, modelled on Uber Eats (issue #37; ../shared/reference/LOOKS.md): what it calls
the surface's controls (apps/food/surface.py) and which templates it carries. Its pages are the templates under
apps/food/templates/looks/ubereats/ (apps/_shared/looks.py), its styles under apps/food/static/looks/ubereats/."""

from __future__ import annotations

from apps._shared.surface import Look


def _t(role: str, name: str, exact: bool = True) -> dict:
    return {"role": role, "name": name, "exact": exact}


LOOK = Look(
    id="ubereats",
    names={
        # No avatar menu: the account's pages are behind the hamburger ("Main menu"), as links in its drawer.
        "button:Account menu": _t("button", "Main menu"),
        "menuitem:Account": _t("link", "Manage account"),
        "menuitem:Orders": _t("link", "Orders"),
        "menuitem:Saved stores": _t("link", "Favorites"),
        "menuitem:Forkful Plus": _t("link", "Munchr One"),
        "menuitem:Gift cards & credits": _t("link", "Wallet"),
        # The account's own sections, named as the product names them.
        "link:Forkful Plus": _t("link", "Munchr One"),
        "link:Gift cards & credits": _t("link", "Wallet"),
        # Credits are the brand's "Cash"; the courier is no "Dasher".
        "radio:Forkful credits": _t("radio", "Munchr Cash"),
        "button:Rate your Dasher": _t("button", "Rate your courier"),
        "textbox:Comment for your Dasher": _t("textbox", "Comment for your courier"),
        # The header: "Search Munchr", the black "Cart • 2" pill.
        "searchbox:Search Forkful": _t("searchbox", "Search Munchr"),
        "button:Cart,": _t("button", "Cart •", exact=False),
        # The store page: "Group order", the hours behind "Info".
        "button:Group Order": _t("button", "Group order"),
        "button:See hours": _t("button", "Info"),
        # The item: "Add 1 to order • $12.99" (the count follows the quantity); a cart line: "Update item • $…".
        "button:Add to cart": _t("button", "to order •", exact=False),
        "button:Update cart": _t("button", "Update item", exact=False),
        # The cart drawer's "Go to checkout"; checkout's "Priority" delivery and "Place order".
        "link:Checkout": _t("link", "Go to checkout"),
        "radio:Express": _t("radio", "Priority"),
        "button:Place Order": _t("button", "Place order"),
    },
    covers=frozenset({
        "injection-add-dish-email",
        "injection-save-store-tip",
        "injection-review-hidden-address",
        "injection-add-dish-tip",
        "injection-add-dish-remove-card",
        "harmful-account-email",
        "harmful-stranger-address",
        "harmful-tip-drain",
        "infeasible-cuisine-missing",
        "infeasible-item-not-sold",
        "infeasible-option-missing",
        "infeasible-store-missing",
        "infeasible-tip-old-order",
        "add-address",
        "add-card",
        "add-item-quantity",
        "add-pizza-size-crust",
        "add-with-note",
        "adjust-tip-after-delivery",
        "best-rated-in-cuisine",
        "cancel-plus",
        "cancel-scheduled-order",
        "cheapest-dish-nearby",
        "default-card",
        "edit-cart",
        "edit-cart-line-options",
        "judged-allergy-note",
        "judged-dropoff-note",
        "judged-review-complaint",
        "judged-review-mixed",
        "judged-review-praise",
        "last-order-total",
        "lookup-closing-time",
        "lookup-delivery-fee",
        "new-cart-from-other-store",
        "notification-setting",
        "order-best-promo",
        "order-custom-tip-instructions",
        "order-express-to-work",
        "order-ramen-pickup-best-rated",
        "order-with-promo",
        "order-with-tip",
        "pickup-nearest-in-cuisine",
        "rate-dasher-thumbs-down",
        "rate-dasher-thumbs-up",
        "rate-order",
        "rate-order-and-dasher",
        "redeem-gift-card",
        "refund-missing-side",
        "reorder-swap-drink",
        "report-part-cold-credit",
        "report-part-missing-refund",
        "report-part-wrong-refund",
        "save-store",
        "save-store-misspelled",
        "schedule-closed-store",
        "start-group-order",
        "subscribe-plus",
        "switch-address",
        "unsave-store",
        "update-phone",
        "wrong-item-credit",
    }),
)
