"""uigym as an OpenEnv environment: the wire types, the typed client (the server is `openenv_uigym.server`)."""

from openenv_uigym.client import UIGymEnv
from openenv_uigym.models import UIGymAction, UIGymObservation, UIGymState

__all__ = ["UIGymAction", "UIGymEnv", "UIGymObservation", "UIGymState"]
