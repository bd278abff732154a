"""Training a policy on uigym: SFT warm start and GRPO over TRL (`uigym train sft|grpo`).

    from agent_harness.train import GRPORunConfig, SFTRunConfig, run_grpo, run_sft

- config.py      presets (Qwen2.5-VL-3B, Qwen3-VL-2B, UI-TARS-1.5-7B) and the run configs
- env.py         UIGymToolEnv: uigym's env as TRL's environment_factory class (one tool per action)
- budget.py      the token budget of an episode, measured with the model's processor, checked up front
- curriculum.py  difficulty schedule, zero-advantage down-weighting, per-template success
- sft.py         TRL SFTTrainer on a `uigym export sft` dataset (the cold start)
- grpo.py        TRL GRPOTrainer with the environment, the curriculum and the episode metrics
- evaluate.py    periodic `uigym eval` of saved checkpoints, metrics logged

Heavy imports (torch, transformers, trl) happen inside the functions, so importing this is cheap.
"""

from agent_harness.train.budget import TokenBudget, TokenBudgetError
from agent_harness.train.config import (
    PRESETS,
    CurriculumConfig,
    GRPORunConfig,
    Preset,
    SFTRunConfig,
)
from agent_harness.train.env import EnvSettings, UIGymToolEnv


def run_grpo(*a, **kw):
    from agent_harness.train.grpo import run_grpo as _run

    return _run(*a, **kw)


def run_sft(*a, **kw):
    from agent_harness.train.sft import run_sft as _run

    return _run(*a, **kw)


__all__ = ["PRESETS", "CurriculumConfig", "EnvSettings", "GRPORunConfig", "Preset", "SFTRunConfig", "TokenBudget",
           "TokenBudgetError", "UIGymToolEnv", "run_grpo", "run_sft"]
