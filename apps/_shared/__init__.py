"""What every clone shares: the app factory, worlds (tenancy), the /_gym/ control API, the frozen clock."""

from apps._shared.clock import now
from apps._shared.db import db
from apps._shared.factory import create_app
from apps._shared.spec import AppSpec

__all__ = ["AppSpec", "create_app", "now", "db"]
