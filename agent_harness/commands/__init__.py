"""CLI command groups, one module per feature, each exposing `register(app: typer.Typer)`.

Modules import their heavy dependencies (torch, transformers, ray...) inside the command
functions, so `uigym --help` stays fast and works without the optional extras.
"""

COMMAND_MODULES: list[str] = [
    "agent_harness.commands.qa",
    "agent_harness.commands.serve",
    "agent_harness.commands.vllm",
    "agent_harness.commands.report",
    "agent_harness.commands.compare",
    "agent_harness.commands.rescore",
    "agent_harness.commands.record",
    "agent_harness.commands.export",
    "agent_harness.commands.train",
    "agent_harness.commands.mcp",
]
