"""What the seed generators share: reading their curated vocab files, and the slug of a name."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from domain.crm import ascii_fold

VOCAB_ROOT = Path(__file__).parent / "vocab"


def vocab_dir(app: str) -> Path:
    """The folder of an app's vocab files (seed_data/vocab/<app>/)."""
    return VOCAB_ROOT / app


@lru_cache(maxsize=None)
def _vocab_text(app: str, name: str) -> str:
    return (vocab_dir(app) / f"{name}.json").read_text()


def vocab_reader(app: str) -> Callable[[str], Any]:
    """`vocab(name)` for an app: its vocab file `name`.json, parsed fresh each call (so a caller may change
    what it gets without changing what the next caller reads); the file's text is read once."""

    def vocab(name: str) -> Any:
        return json.loads(_vocab_text(app, name))

    vocab.__doc__ = f"A {app} vocab file (seed_data/vocab/{app}/<name>.json), parsed fresh."
    return vocab


def slug(s: str) -> str:
    """Lower-case ASCII letters and digits of `s`, accents folded ('José Núñez 2' -> 'josenunez2'): for the
    local parts of e-mail addresses and for web domains."""
    return re.sub(r"[^a-z0-9]", "", ascii_fold(s).lower())
