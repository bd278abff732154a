"""Forkful with a short tool list, for the CPU learning recipe (experiments/learning.py).

The whole food tool list is about 11,000 prompt tokens for the tiny model's tokenizer: on two CPU cores
each GRPO step would spend minutes on the prompt alone. This module serves the same app, the same worlds
and the same tool functions (apps/food/tools.py's Tool objects, so every rule stays in apps/food/services),
only fewer of them: the ones the recipe's tasks need (get_account, cancel_plus, set_notification,
select_address) and look-alikes beside them (subscribe_plus, set_delivery_mode), so choosing the tool still
matters. Served under the app's name: `--app-module food=experiments.learning_food`. A GPU run drops it and
gets the full list.
"""

from __future__ import annotations

from dataclasses import replace

from apps import build_app
from apps.food import SPEC as FOOD_SPEC
from apps.food.tools import TOOLS as FOOD_TOOLS

KEEP = ("get_account", "cancel_plus", "subscribe_plus", "set_notification", "select_address", "set_delivery_mode")

TOOLS = FOOD_TOOLS.only(KEEP)

SPEC = replace(FOOD_SPEC, tools=__name__)


def create_app(config=None):
    return build_app(SPEC, config)
