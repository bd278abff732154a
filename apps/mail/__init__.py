"""Inkbox: a Gmail-like mail clone (brand and logo our own)."""

from __future__ import annotations

import datetime as dt
import hashlib

import faker

import seed_data.mail
from apps._shared import AppSpec
from apps._shared import create_app as _create_app
from apps.mail.models import Base


def _blueprints():
    from apps.mail.views import blueprints

    return blueprints()


def _init_app(app):
    from apps.mail.views import init_app

    init_app(app)


def _vocab_digest() -> str:
    h = hashlib.sha256()
    for path in sorted(seed_data.mail.VOCAB_DIR.glob("*.json")):
        h.update(path.name.encode() + path.read_bytes())
    return h.hexdigest()[:12]


SPEC = AppSpec(
    name="mail",
    title="Inkbox",
    import_name="apps.mail",
    base=Base,
    build_world=seed_data.mail.build,
    blueprints=_blueprints,
    default_now=dt.datetime(2026, 3, 12, 10, 24),
    start_path="/inbox",
    # The snapshot key also covers Faker's version (another Faker draws other names) and the vocab.
    version=f"1-faker{faker.VERSION}-vocab{_vocab_digest()}",
    fingerprint_modules=["seed_data.mail", "apps.mail.models"],
    # Opening a conversation marks it read: that is looking, not acting (ignored by unchanged_except).
    volatile={"messages": ["is_read"]},
    init_app=_init_app,
)


def create_app(config=None):
    return _create_app(SPEC, config)
