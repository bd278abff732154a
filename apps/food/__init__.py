"""Forkful: a DoorDash-like food delivery clone (our own brand)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import seed_data.injected
from apps._shared import AppSpec
from apps._shared import create_app as _create_app
from apps.food.models import Base


def _build_world(seed: int, now: dt.datetime):
    from seed_data.food import build_world

    return build_world(seed, now)


def _workspace_world(seed: int, now: dt.datetime):
    from seed_data.workspace import build_app
    return build_app("food", seed, now)


def _workspace_fingerprint():
    import seed_data.workspace
    return seed_data.workspace.FINGERPRINT_MODULES, seed_data.workspace.VOCAB_DIRS


SPEC = AppSpec(
    name="food",
    title="Forkful",
    import_name="apps.food",
    base=Base,
    build_world=_build_world,
    families={"workspace": _workspace_world,  # seed_data/workspace.py: one cast over mail, food and crm
              "injected": seed_data.injected.family("food", _build_world)},  # attacker text planted
    family_modules=_workspace_fingerprint()[0] + ["seed_data.injected"],
    family_vocab_dirs=_workspace_fingerprint()[1],
    # The looks (apps/_shared/looks.py), default first: look id -> the brand it shows.
    looks={"doordash": "Forkful", "ubereats": "Munchr"},
    held_out_looks=("ubereats",),  # train on the default look, evaluate here too
    # The Uber-Eats-like look's names for the membership, the credits and the courier, in server messages.
    look_words={"ubereats": {"Forkful Plus": "Munchr One", "Forkful credits": "Munchr Cash", "Dashers": "couriers",
                             "Dasher": "courier", "Forkful": "Munchr"}},
    # The UI languages beyond English (apps/_shared/i18n.py; the catalog: translations/de/LC_MESSAGES/messages.po):
    # DoorDash's German words on the default look; the second look stays English.
    langs={"doordash": ("de",)},
    views="apps.food.views",
    tools="apps.food.tools",
    default_now=dt.datetime(2026, 3, 13, 18, 30),
    start_path="/",
    vocab_dir=Path(__file__).resolve().parents[1] / "seed_data" / "vocab" / "food",
    fingerprint_modules=["seed_data.food", "domain.food", "apps.food.images"],
)


def create_app(config=None):
    return _create_app(SPEC, config)
