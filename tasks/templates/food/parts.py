"""The Forkful template helpers other template packages use (the workspace's cross-app templates): the public face
of `_lib` and `_common`, so a helper has one definition and its users a public name."""

from tasks.templates.food._common import order_allow, toggle_notification, user_update  # noqa: F401
from tasks.templates.food._lib import (  # noqa: F401
    add_line, call, checkout_address, click, created_order, fw, goto_store, order_line, orders_page, place, t_add,
    t_checkout_address, t_find_store, to_checkout,
)

__all__ = ["add_line", "call", "checkout_address", "click", "created_order", "fw", "goto_store", "order_allow",
           "order_line", "orders_page", "place", "t_add", "t_checkout_address", "t_find_store", "to_checkout",
           "toggle_notification", "user_update"]
