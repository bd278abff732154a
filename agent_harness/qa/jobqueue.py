"""The crawler's job queue: data queries take turns with the crawl and the probes.

A plain FIFO ran every declared query first (they are all known at the start), so under a time limit
an app with many queries (food: 95) spent it all there and exercised almost no controls.

With an order seed (QAConfig.order_seed) each lane gives its jobs in an order drawn from the seed, not first
in first out: a crawl capped in jobs or time then covers another part of the app under each seed (CI draws it
from the committed tree of apps/, so over the changes to the clones a capped crawl covers what one cap leaves out). A probe is still queued
only by its state's crawl, so a state is always crawled before its controls are exercised."""

from __future__ import annotations

import asyncio
import random
from collections import deque


class _Lanes:
    """Two FIFO lanes, taken in turn when both hold jobs."""

    def __init__(self, order_seed: int | None = None) -> None:
        self.queries: deque = deque()
        self.others: deque = deque()
        self.turn_queries = False
        self.rng = random.Random(order_seed) if order_seed is not None else None

    def __len__(self) -> int:
        return len(self.queries) + len(self.others)

    def append(self, job) -> None:
        (self.queries if job[0] == "query" else self.others).append(job)

    def popleft(self):
        take_query = self.queries and (self.turn_queries or not self.others)
        self.turn_queries = not self.turn_queries
        lane = self.queries if take_query else self.others
        if self.rng is not None and len(lane) > 1:
            lane.rotate(-self.rng.randrange(len(lane)))  # the drawn job to the front
        return lane.popleft()


class JobQueue(asyncio.Queue):
    """asyncio.Queue (join, task_done) over `_Lanes`, through the hooks PriorityQueue uses too."""

    def __init__(self, order_seed: int | None = None) -> None:
        self._order_seed = order_seed
        super().__init__()

    def _init(self, maxsize) -> None:
        self._queue = _Lanes(self._order_seed)

    def _put(self, item) -> None:
        self._queue.append(item)

    def _get(self):
        return self._queue.popleft()
