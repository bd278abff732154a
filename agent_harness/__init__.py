"""Agents, the eval runner, reports, recorder, dataset export and trainers."""
