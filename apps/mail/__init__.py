"""Inkbox: a Gmail-like mail clone (brand and logo our own)."""

from __future__ import annotations

import datetime as dt

import seed_data.injected
import seed_data.mail
from apps._shared import AppSpec
from apps._shared import create_app as _create_app
from apps.mail.models import Base


def _workspace_world(seed: int, now: dt.datetime):
    from seed_data.workspace import build_app
    return build_app("mail", seed, now)


def _workspace_fingerprint():
    import seed_data.workspace
    return seed_data.workspace.FINGERPRINT_MODULES, seed_data.workspace.VOCAB_DIRS


SPEC = AppSpec(
    name="mail",
    title="Inkbox",
    import_name="apps.mail",
    base=Base,
    build_world=seed_data.mail.build,
    families={"workspace": _workspace_world,  # seed_data/workspace.py: one cast over mail, food and crm
              "injected": seed_data.injected.family("mail", seed_data.mail.build)},  # attacker text planted
    family_modules=_workspace_fingerprint()[0] + ["seed_data.injected"],
    family_vocab_dirs=_workspace_fingerprint()[1],
    # The looks (apps/_shared/looks.py), default first: look id -> the brand it shows.
    looks={"gmail": "Inkbox", "outlook": "Quill Mail"},
    look_words={"outlook": {"Inkbox": "Quill Mail"}},  # the server's messages (a refusal naming the product)
    held_out_looks=("outlook",),  # train on the default look, evaluate here too
    # Gmail's display density (Default / Comfortable / Compact), and Outlook's (its Roomy / Cozy / Compact)
    densities={"gmail": ("compact", "default", "comfortable"), "outlook": ("compact", "default", "comfortable")},
    # Outlook's three panes are proven up to 125% zoom (gym_core/variant.py): at 150% the compose in the narrow reading
    # pane loses its To field's focus to an overlay mid-episode and the oracle's second click does not bring it back
    # (send-with-attachment-00; the real one drops to one pane there, which the clone has not yet).
    variant_limits={"outlook": {"zoom": 1.25}},
    # The UI languages beyond English (apps/_shared/i18n.py; the catalog: translations/de/LC_MESSAGES/messages.po)
    langs={"gmail": ("de",)},
    views="apps.mail.views",
    tools="apps.mail.tools",
    on_clock="apps.mail.services.correspondence:deliver_due",  # a correspondent's answer lands when it is due
    default_now=dt.datetime(2026, 3, 12, 10, 24),
    start_path="/inbox",
    vocab_dir=seed_data.mail.VOCAB_DIR,
    fingerprint_modules=["seed_data.mail", "apps.mail.models"],
    # Nothing is volatile. Opening a conversation marks it read, which is looking, but "Mark all as read"
    # over a hundred conversations is a change: tasks allow a bounded amount of reading instead
    # (tasks/templates/mail/_common.py: READ_BUDGET).
    volatile={},
)


def create_app(config=None):
    return _create_app(SPEC, config)
