"""The typed OpenEnv client of uigym: one WebSocket session, one episode at a time.

    from openenv_uigym import UIGymAction, UIGymEnv

    with UIGymEnv(base_url="http://127.0.0.1:8000").sync() as env:
        result = env.reset(task="crm/complete-todays-task-00")      # or tasks="crm/*", split="train", seed=3
        result = env.step(UIGymAction(type="click", x=412, y=96))
        result = env.step(UIGymAction(type="done"))
        print(result.reward, env.state().verify)

`async with UIGymEnv(base_url=...) as env:` gives the same calls to await.
"""

from __future__ import annotations

from typing import Any, Dict

from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient

try:
    from openenv_uigym.models import UIGymAction, UIGymObservation, UIGymState
except ImportError:  # pragma: no cover - run from the package folder
    from models import UIGymAction, UIGymObservation, UIGymState  # type: ignore[no-redef]


class UIGymEnv(EnvClient[UIGymAction, UIGymObservation, UIGymState]):
    def _step_payload(self, action: UIGymAction | Dict[str, Any]) -> Dict[str, Any]:
        if isinstance(action, dict):  # a plain action dict, as uigym's envs take it
            action = UIGymAction.model_validate(action)
        return action.model_dump(mode="json", exclude_none=True)

    def _parse_result(self, payload: Dict[str, Any]) -> StepResult[UIGymObservation]:
        obs = UIGymObservation.model_validate({**payload.get("observation", {}), "reward": payload.get("reward"),
                                               "done": payload.get("done", False)})
        return StepResult(observation=obs, reward=payload.get("reward"), done=bool(payload.get("done", False)),
                          metadata=payload.get("metadata"))

    def _parse_state(self, payload: Dict[str, Any]) -> UIGymState:
        return UIGymState.model_validate(payload)


__all__ = ["UIGymEnv"]
