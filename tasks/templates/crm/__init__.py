"""Stratus CRM task templates (see tasks/templates/base.py)."""
