"""What every clone shares: the app factory, worlds (tenancy), the /_gym/ control API, the frozen clock."""

from apps._shared.factory import AppSpec, create_app
from apps._shared.clock import now
from apps._shared.db import db

__all__ = ["AppSpec", "create_app", "now", "db"]
