"""Fixtures for the server's end-to-end tests: a real server on 127.0.0.1, port 0."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
import trio
from e2e_client import TEST_CONFIG

from server.app import Server
from server.store.base import MemoryStore


@dataclass
class Running:
    server: Server
    port: int
    store: MemoryStore
    nursery: trio.Nursery


@pytest.fixture
async def running(nursery: trio.Nursery) -> AsyncIterator[Running]:
    store = MemoryStore()
    server = Server(TEST_CONFIG, store)
    port = await nursery.start(server.serve)
    yield Running(server, port, store, nursery)
    server.shutdown()
