"""Deterministic seed data for the clones: one module per app (build(seed, now) -> rows per table) plus vocab files."""
