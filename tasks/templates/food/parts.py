"""The Forkful template helpers other template packages use (the workspace's cross-app templates): the public face
of `_lib` and `_common`, so a helper has one definition and its users a public name."""

from tasks.templates.food._common import order_allow, toggle_notification, user_update  # noqa: F401
from tasks.templates.food._lib import (  # noqa: F401
    add_line, call, checkout_address, click, created_order, fw, goto_store, order_line, orders_page, place, t_add,
    t_checkout_address, t_find_store, to_checkout,
)

__all__ = ["add_line", "call", "cancel_order", "checkout_address", "click", "created_order", "fw", "goto_store",
           "order_allow", "order_line", "orders_page", "place", "t_add", "t_checkout_address", "t_find_store",
           "to_checkout", "toggle_notification", "user_update"]


def cancel_order(order_id: int, reason: str | None = None) -> list[dict]:
    """From any page: Orders, the order's page, Cancel order, the reason (if any) picked, the cancel confirmed."""
    return [click("button", "Account menu"), click("menuitem", "Orders", exact=True),
            click("link", f"View order #{order_id}", exact=True), click("button", "Cancel order", exact=True),
            *([click("radio", reason, exact=True)] if reason else []),
            click("button", "Cancel order", exact=True, within={"role": "dialog"})]
