"""The commit under test: what CI's rotating samples (perturbation families, the QA crawl's order) are drawn from."""

from __future__ import annotations

import hashlib
import os
import subprocess


def _git(*args: str) -> str | None:
    try:
        return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout.strip() or None
    except (OSError, subprocess.CalledProcessError):
        return None


def commit() -> str:
    return os.environ.get("GITHUB_SHA") or os.environ.get("CI_COMMIT_SHA") or _git("rev-parse", "HEAD") or "no-commit"


def tree_seed(path: str, salt: str = "") -> int:
    """A number drawn from the committed tree of `path` (and `salt`): the same until a commit changes something
    under `path`, then another (a commit that changes only tests or docs keeps it); the commit where there is no
    git checkout of it."""
    tree = _git("rev-parse", f"HEAD:{path}") or commit()
    return int.from_bytes(hashlib.sha256(f"{salt}:{tree}".encode()).digest()[:4], "big")
