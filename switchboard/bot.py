"""Connect a strategy to a server and play.

The bot creates tables (--create) or joins them (--join), plays every game
there to the end, and exits. As the game master of a table it created it
starts each game (empty seats are played by server bots) and, with --games,
the next one. A dropped connection is resumed, seat and all.

Examples:
  switchboard bot --create switch --seats 4 --strategy search
  switchboard bot 127.0.0.1:7373 --join 12 --join 13:2 --strategy heuristic --name robo
  switchboard bot --create kilodney --seats 5 --tables 3 --games 10 --strategy heuristic

Strategies: random, heuristic (each family's default) and search; a search
budget goes after a colon: --strategy search:iterations=200.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys

DEFAULT_PORT = 7373


def parse_address(text: str | None) -> tuple[str, int]:
    """``HOST``, ``HOST:PORT`` or ``:PORT`` (default 127.0.0.1:7373).

    >>> parse_address("10.0.0.5"), parse_address(":9000"), parse_address(None)
    (('10.0.0.5', 7373), ('127.0.0.1', 9000), ('127.0.0.1', 7373))
    """
    if not text:
        return "127.0.0.1", DEFAULT_PORT
    host, sep, port = text.rpartition(":")
    if not sep or "]" in port:
        return text, DEFAULT_PORT
    return host.strip("[]") or "127.0.0.1", int(port)


def parse_join(text: str) -> tuple[str, int | None]:
    """``TABLE`` or ``TABLE:SEAT``.

    >>> parse_join("12"), parse_join("12:3")
    (('12', None), ('12', 3))
    """
    table, sep, seat = text.partition(":")
    return table, (int(seat) if sep else None)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("address", nargs="?", help="HOST[:PORT] (default 127.0.0.1:7373)")
    parser.add_argument("--strategy", default="heuristic", help="strategy (default heuristic)")
    parser.add_argument("--name", help="the name to play under (default: botXXXXXX, fresh)")
    parser.add_argument(
        "--secret", help="the name's secret (default: the one kept for --name, as the client does)"
    )
    parser.add_argument(
        "--join", action="append", default=[], metavar="TABLE[:SEAT]", help="repeatable"
    )
    parser.add_argument("--create", metavar="RULESET", help="open tables of RULESET and play")
    parser.add_argument("--seats", type=int, default=2, help="seats at a created table")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="table option"
    )
    parser.add_argument("--tables", type=int, default=1, help="how many tables to create")
    parser.add_argument("--games", type=int, default=1, help="games to play at each table")
    parser.add_argument(
        "--no-start", action="store_true", help="create and sit, but leave the start to others"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the strategy's choices")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--verbose", action="store_true", help="print each move")


def run(args: argparse.Namespace) -> int:
    import trio

    from client.bots.bot import BotConfig, run_bot
    from client.net.config import secret_for
    from client.net.connection import ConnectionLost, ServerError
    from switchboard.arena import parse_options

    try:
        host, port = parse_address(args.address)
        joins = [parse_join(j) for j in args.join]
        options = parse_options(args.option)
    except ValueError as exc:
        print(f"switchboard bot: {exc}", file=sys.stderr)
        return 2
    if not joins and not args.create:
        print("switchboard bot: give --create RULESET or --join TABLE", file=sys.stderr)
        return 2
    name = args.name or f"bot{secrets.token_hex(3)}"
    secret = args.secret
    if secret is None:
        secret = secret_for(name, f"{host}:{port}") if args.name else secrets.token_urlsafe(16)
    config = BotConfig(
        host=host,
        port=port,
        name=name,
        secret=secret,
        strategy=args.strategy,
        join=joins,
        create=args.create,
        seats=args.seats,
        options=options,
        tables=args.tables,
        games=args.games,
        start=not args.no_start,
        seed=args.seed,
    )

    def show(table: str, action: str) -> None:
        if args.verbose:
            print(f"{table}: {action}", flush=True)

    try:
        report = trio.run(lambda: run_bot(config, on_move=show))
    except BaseException as exc:
        leaf = _leaf(exc)
        if isinstance(leaf, KeyboardInterrupt):
            return 130
        if isinstance(leaf, OSError | ConnectionLost):
            print(f"switchboard bot: cannot reach {host}:{port}: {leaf}", file=sys.stderr)
            return 1
        if isinstance(leaf, ServerError):
            print(f"switchboard bot: the server refused: {leaf}", file=sys.stderr)
            return 1
        if isinstance(leaf, ValueError):
            print(f"switchboard bot: {leaf}", file=sys.stderr)
            return 2
        raise
    if args.json:
        print(json.dumps(report.as_dict()))
    else:
        wins = sum(g.won for g in report.games)
        print(f"played {len(report.games)} game(s), won {wins}; {len(report.move_seconds)} moves")
    return 0


def _leaf(exc: BaseException) -> BaseException:
    """The one exception inside nested exception groups (trio wraps them)."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc
