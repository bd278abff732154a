"""Export trajectories as training data: `uigym export sft` (one sample per step, in an action format).

    from agent_harness.export import ExportConfig, export_sft, sft_batch
"""

from agent_harness.export.chat import chat_messages, prompt_and_target, row_tools, sft_batch
from agent_harness.export.prompts import EpisodePrompter, to_dataset_messages
from agent_harness.export.sft import (
    Episode,
    ExportConfig,
    ExportStats,
    assign_splits,
    export_sft,
    iter_episodes,
    source_of,
    target_for,
)

__all__ = [
    "Episode", "EpisodePrompter", "ExportConfig", "ExportStats", "assign_splits", "chat_messages", "export_sft",
    "iter_episodes", "prompt_and_target", "row_tools", "sft_batch", "source_of", "target_for",
    "to_dataset_messages",
]
