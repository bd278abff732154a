"""Experiments: recipes that measure what uigym's pieces do together, run by hand and reported in docs/.

`python -m experiments.learning` (does the reward teach? SFT then GRPO on fresh worlds, judged on held-out
ones; docs/learning/README.md), with its probe (`learning_probe`), its reevaluation (`learning_reeval`) and the
short Forkful tool list it serves on a CPU (`learning_food`). The top layer beside `bench` (pyproject.toml's
import-linter contract): nothing else in the project imports it.
"""
