"""The crawler's job queue: data queries take turns with the crawl and the probes.

A plain FIFO ran every declared query first (they are all known at the start), so under a time limit
an app with many queries (food: 95) spent it all there and exercised almost no controls."""

from __future__ import annotations

import asyncio
from collections import deque


class _Lanes:
    """Two FIFO lanes, taken in turn when both hold jobs."""

    def __init__(self) -> None:
        self.queries: deque = deque()
        self.others: deque = deque()
        self.turn_queries = False

    def __len__(self) -> int:
        return len(self.queries) + len(self.others)

    def append(self, job) -> None:
        (self.queries if job[0] == "query" else self.others).append(job)

    def popleft(self):
        take_query = self.queries and (self.turn_queries or not self.others)
        self.turn_queries = not self.turn_queries
        return (self.queries if take_query else self.others).popleft()


class JobQueue(asyncio.Queue):
    """asyncio.Queue (join, task_done) over `_Lanes`, through the hooks PriorityQueue uses too."""

    def _init(self, maxsize) -> None:
        self._queue = _Lanes()

    def _put(self, item) -> None:
        self._queue.append(item)

    def _get(self):
        return self._queue.popleft()
