"""pybot.py TABLE [PORT]: a complete Switchboard bot in twenty lines (docs/bots.md)."""

import random
import sys

import trio

from client import connect
from engine.actions import Action
from engine.strategies import get_strategy


async def main(table: str, port: int) -> None:
    async with connect("127.0.0.1", port, name="pybot") as conn:
        await conn.join(table)
        rng, strategy, acted = random.Random(1), None, None
        async for _message in conn.events():
            t = conn.state.tables[table]
            if t.state == "over":
                break
            if t.my_turn and t.stale == 0 and t.seq != acted:  # our move, on a fresh view
                strategy = strategy or get_strategy("heuristic", t.family)
                legal = [Action.parse(a) for a in t.legal]
                acted = t.seq
                await conn.act(table, str(strategy.choose(t.view, legal, rng)))


trio.run(main, sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 7373)
