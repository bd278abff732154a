"""Fixtures for the CRM clone: a fresh world per test (own copy of the cached seed-0 snapshot)."""

from __future__ import annotations

from apps.crm import SPEC, create_app
from tests.apps.world_fixtures import fresh, world_fixtures  # noqa: F401 (fresh is imported from here by tests)

NOW = SPEC.default_now

snapshot_home, app, client, dbs = world_fixtures(create_app, "crm")
