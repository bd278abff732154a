"""Stratus CRM: a Salesforce-Lightning-like CRM clone (brand and logo our own), built on the
open-source Lightning Design System (@salesforce-ux/design-system, @salesforce-ux/icons)."""

from __future__ import annotations

import datetime as dt
import hashlib

import faker

import seed_data.crm
from apps._shared import AppSpec
from apps._shared import create_app as _create_app
from apps.crm.models import VOLATILE, Base


def _blueprints():
    from apps.crm.views import blueprints

    return blueprints()


def _init_app(app):
    from apps.crm.views import init_app

    init_app(app)


def _vocab_digest() -> str:
    h = hashlib.sha256()
    for path in sorted(seed_data.crm.VOCAB_DIR.glob("*.json")):
        h.update(path.name.encode() + path.read_bytes())
    return h.hexdigest()[:12]


SPEC = AppSpec(
    name="crm",
    title="Stratus CRM",
    import_name="apps.crm",
    base=Base,
    build_world=seed_data.crm.build,
    blueprints=_blueprints,
    # A Thursday late in Q1: "this quarter" ends in 19 days.
    default_now=dt.datetime(2026, 3, 12, 9, 15),
    start_path="/lightning/page/home",
    # The snapshot key also covers Faker's version (another Faker draws other names) and the vocab.
    version=f"1-faker{faker.VERSION}-vocab{_vocab_digest()}",
    fingerprint_modules=["seed_data.crm", "apps.crm.models"],
    volatile=VOLATILE,
    init_app=_init_app,
)


def create_app(config=None):
    return _create_app(SPEC, config)
