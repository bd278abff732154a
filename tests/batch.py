"""How many browser episodes one of the suite's batches (an app's validity probes) plays at once."""

from __future__ import annotations

import os

# Both cores of a 2-core machine stay busy with 4 episodes side by side (the browser waits on the app, the app on
# the browser); more thrash.
EPISODES_AT_ONCE = 4


def validate_workers() -> int:
    """UIGYM_VALIDATE_WORKERS, else 4 in one pytest process and 4 / N in each of pytest-xdist's N workers (`-n 2`:
    two batches side by side, 2 each), so the machine plays the same 4 at once either way."""
    forced = os.environ.get("UIGYM_VALIDATE_WORKERS")
    if forced:
        return int(forced)
    return max(1, EPISODES_AT_ONCE // int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))
