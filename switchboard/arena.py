"""Play strategies against each other and rate them.

Each deal is played once per seat rotation, so every strategy sits in every
seat on the same cards. The table shows each strategy's win rate per seat
held with a 95% Wilson interval, an openskill (Plackett-Luce) rating, and the
median and 99th-percentile time it took to choose a move.

Examples:
  switchboard arena abbott search heuristic random --games 200
  switchboard arena switch heuristic random --seats 4 --games 2000 --jobs 2
  switchboard arena kilodney search:iterations=40 heuristic --seats 6
  switchboard arena abbott heuristic random --network --games 20
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("ruleset", help="a ruleset name: abbott, kilodney or a shedding preset")
    parser.add_argument(
        "strategies",
        nargs="+",
        metavar="STRATEGY",
        help="strategy names, optionally with parameters: search:iterations=50",
    )
    parser.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    parser.add_argument("--seats", type=int, help="table size (default: 4, or the ruleset's)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first deal (default 0)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a table option (JSON value), e.g. --option target=0; repeatable",
    )
    parser.add_argument(
        "--network",
        action="store_true",
        help="play over a real server on 127.0.0.1 with one `switchboard bot` process a seat",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="games played at once in N processes (same table for any N; default 1)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress line")


def parse_options(items: list[str]) -> dict[str, Any]:
    """``["target=0", "jokers=true"]`` to ``{"target": 0, "jokers": True}``."""
    options: dict[str, Any] = {}
    for item in items:
        name, eq, value = item.partition("=")
        if not eq:
            raise ValueError(f"expected NAME=VALUE, got {item!r}")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value
    return options


def run(args: argparse.Namespace) -> int:
    import engine
    from client.bots.arena import GameResult, run_arena

    try:
        options = parse_options(args.option)
        if args.network:
            result = run_network_arena(
                args.ruleset, args.strategies, args.games, args.seats, args.seed, options
            )
        else:

            def progress(i: int, _result: GameResult) -> None:
                if not args.quiet and sys.stderr.isatty():
                    print(f"\r{i + 1}/{args.games} games", end="", file=sys.stderr, flush=True)

            result = run_arena(
                args.ruleset,
                args.strategies,
                args.games,
                seats=args.seats,
                seed=args.seed,
                options=options,
                progress=progress,
                jobs=args.jobs,
            )
            if not args.quiet and sys.stderr.isatty():
                print(file=sys.stderr)
    except (ValueError, engine.OptionError) as exc:
        print(f"switchboard arena: {exc}", file=sys.stderr)
        return 2
    print(result.table())
    return 0


def run_network_arena(  # noqa: C901 (an evening of games, read top to bottom)
    ruleset: str,
    strategies: list[str],
    games: int,
    seats: int | None,
    seed: int,
    options: dict[str, Any],
    batch: int = 8,
) -> Any:
    """The arena over a real server: a server on 127.0.0.1 (in this process, in
    memory) and ``switchboard bot`` processes that join the tables.

    Tables are opened ``batch`` at a time with the same rotated seating as the
    in-process arena; one bot process plays each strategy's seats in a batch
    (a second process where a strategy holds two seats of one table, since a
    name holds one seat a table). The deals are the server's own (random), so
    rotation balances the seats but the deals do not repeat. Results come
    from the final snapshot a spectator sees; times a move from the bots.
    """
    import trio

    import engine
    from client.bots.arena import Book, Entrant, schedule
    from engine.places import places_for
    from protocol import fields

    parsed = [Entrant.parse(x) for x in strategies]
    labels = [e.label for e in parsed]
    if len(set(labels)) != len(labels):
        raise ValueError("two entrants share a label")
    rs = engine.ruleset(ruleset)
    n = seats if seats is not None else max(rs.min_seats, min(rs.max_seats, 4))
    for e in parsed:
        e.make(rs.family)
    rs.schema.resolve({**options, "turn_seconds": 0})
    book = Book(labels)
    plan = list(schedule(labels, n, games))

    async def main() -> float:
        from client.net.connection import connect
        from server.app import Server
        from server.core.config import ServerConfig
        from server.store.base import MemoryStore

        config = ServerConfig(host="127.0.0.1", port=0, scrypt_n=2, tables_per_name=0)
        start = trio.current_time()
        async with trio.open_nursery() as nursery:
            server = Server(config, MemoryStore())
            port = await nursery.start(server.serve)
            async with connect("127.0.0.1", port, name="arena", secret="arena-" + "x" * 10) as c:
                for first in range(0, len(plan), batch):
                    await _batch(c, port, plan[first : first + batch], first)
            server.shutdown()
        return trio.current_time() - start

    async def _batch(conn: Any, port: int, part: list[Any], first: int) -> None:
        from protocol import messages as m

        tables = []
        for _deal, lineup in part:
            reply = await conn.request(
                m.CreateTable(ruleset=ruleset, seats=n, options={**options, "turn_seconds": 0})
            )
            tables.append((reply.table, lineup))
            await conn.watch(reply.table)
        # (label, k): the k-th seat the label holds at a table, across the batch
        slots: dict[tuple[str, int], list[str]] = {}
        for table, lineup in tables:
            seen: dict[str, int] = {}
            for seat, label in enumerate(lineup):
                k = seen.get(label, 0)
                seen[label] = k + 1
                slots.setdefault((label, k), []).append(f"{table}:{seat}")
        reports: dict[tuple[str, int], Any] = {}

        async def bot(key: tuple[str, int], joins: list[str], index: int) -> None:
            label, k = key
            args = [sys.executable, "-m", "switchboard", "bot", f"127.0.0.1:{port}"]
            for j in joins:
                args += ["--join", j]
            args += ["--strategy", label, "--name", f"arena{labels.index(label)}x{k}"]
            args += ["--secret", f"arena-secret-{labels.index(label)}-{k}"]
            args += ["--seed", str(seed + first + index), "--json"]
            done = await trio.run_process(
                args, capture_stdout=True, capture_stderr=True, check=False
            )
            if done.returncode != 0:
                raise RuntimeError(f"bot {label} failed: {done.stderr.decode()[-500:]}")
            reports[key] = json.loads(done.stdout.decode().strip().splitlines()[-1])

        async with trio.open_nursery() as procs:
            for index, (key, joins) in enumerate(sorted(slots.items())):
                procs.start_soon(bot, key, joins, index)
            for table, _lineup in tables:
                while any(p is None for p in conn.state.tables[table].players) or any(
                    str(p).startswith("bot:") for p in conn.state.tables[table].players
                ):
                    await conn.events().receive()
                await conn.request(m.StartGame(table=table))
        for table, lineup in tables:
            t = conn.state.tables[table]
            while t.state != fields.TableState.OVER or t.view is None or not t.view.get("over"):
                await conn.events().receive()
            book.add(lineup, places_for(t.view["scores"], t.view.get("finished")))
        for (label, _k), rep in reports.items():
            book.standings[label].times.extend(rep["move_seconds"])

    seconds = trio.run(main)
    return book.result(ruleset, n, games, seconds)
