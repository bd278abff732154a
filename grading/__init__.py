"""uigym's end-state verifier engine: grade an episode from plain JSON.

After an episode the gym has the world's state right after reset (`start`), its state at the end
(`end`) and the agent's `done` answer. A task's `verify` spec (see README.md here) says what must
be true of them; `verify` checks it and explains every failure. Pure Python over JSON: no app,
no browser.
"""

from .checks import CODE_CHECKS, CheckContext, CodeResult, code_check
from .diff import diff_states
from .engine import CheckpointResult, CheckResult, VerifyResult, verify
from .joint import joint_state, split_table
from .matchers import OPERATORS, MatcherError, describe, explain, explain_where, match, match_where
from .spec import Allowance, AnswerCheck, Checkpoint, CodeCheck, JudgeCheck, RowCheck, VerifySpec
from .state import StateView
from .values import MISSING, extract_number, get_path, values_equal

__all__ = [
    "CODE_CHECKS",
    "CheckContext",
    "CodeCheck",
    "CodeResult",
    "JudgeCheck",
    "MISSING",
    "OPERATORS",
    "Allowance",
    "AnswerCheck",
    "CheckResult",
    "Checkpoint",
    "CheckpointResult",
    "MatcherError",
    "RowCheck",
    "StateView",
    "VerifyResult",
    "VerifySpec",
    "code_check",
    "describe",
    "diff_states",
    "explain",
    "explain_where",
    "extract_number",
    "get_path",
    "joint_state",
    "match",
    "match_where",
    "split_table",
    "values_equal",
    "verify",
]
