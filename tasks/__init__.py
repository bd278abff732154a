"""Tasks: a pydantic schema, a loader for tasks/<app>/*.json, and the templates that generate variants."""

from tasks.schema import SolutionStep, Target, Task
from tasks.loader import TaskLoadError, load_task, load_tasks, select_tasks, task_files

__all__ = ["Task", "SolutionStep", "Target", "TaskLoadError", "load_task", "load_tasks", "select_tasks", "task_files"]
