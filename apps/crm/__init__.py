"""Stratus CRM: a Salesforce-Lightning-like CRM clone (brand and logo our own), built on the
open-source Lightning Design System (@salesforce-ux/design-system, @salesforce-ux/icons)."""

from __future__ import annotations

import datetime as dt

import seed_data.crm
import seed_data.injected
import seed_data.workspace
from apps.crm import feed_seed
from apps._shared import AppSpec
from apps._shared import create_app as _create_app
from apps.crm.models import VOLATILE, Base

SPEC = AppSpec(
    name="crm",
    title="Stratus CRM",
    import_name="apps.crm",
    base=Base,
    build_world=feed_seed.build,  # seed_data.crm.build plus the seeded Chatter
    families={"workspace": feed_seed.build_workspace,  # seed_data/workspace.py: one cast over mail, food and crm
              "injected": seed_data.injected.family("crm", feed_seed.build)},  # attacker text planted
    family_modules=seed_data.workspace.FINGERPRINT_MODULES + ["apps.crm.feed_seed", "seed_data.injected"],
    family_vocab_dirs=seed_data.workspace.VOCAB_DIRS,
    # The looks (apps/_shared/looks.py), default first: look id -> the brand it shows.
    looks={"salesforce": "Stratus CRM", "hubspot": "Beacon CRM"},
    held_out_looks=("hubspot",),  # train on the default look, evaluate here too
    # Lightning's display density (Comfy, the default, or Compact), and the same menu in the HubSpot look
    densities={"salesforce": ("compact", "default"), "hubspot": ("compact", "default")},
    # Proven up to 125% zoom (gym_core/variant.py), Lightning at its own text size or smaller, HubSpot up to 1.25x: at
    # 150%, or 1.5x text in their rem-sized pages, the Lightning tab bar runs out of the window (the real one moves
    # tabs into More, which the clone has not yet) and HubSpot's list actions are cut off; at 1.25x text Lightning's
    # event composer's time list lies over the next field (schedule-event-00 fails).
    variant_limits={"salesforce": {"zoom": 1.25, "font": 1.0}, "hubspot": {"zoom": 1.25, "font": 1.25}},
    # The UI languages beyond English (apps/_shared/i18n.py; the catalog: translations/de/LC_MESSAGES/messages.po)
    langs={"salesforce": ("de",)},
    views="apps.crm.views",
    tools="apps.crm.tools",
    # A Thursday late in Q1: "this quarter" ends in 19 days.
    default_now=dt.datetime(2026, 3, 12, 9, 15),
    start_path="/lightning/page/home",
    vocab_dir=seed_data.crm.VOCAB_DIR,
    fingerprint_modules=["seed_data.crm", "apps.crm.feed_seed", "domain.crm", "apps.crm.models"],
    volatile=VOLATILE,
)


def create_app(config=None):
    return _create_app(SPEC, config)
