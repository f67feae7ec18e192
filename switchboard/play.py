"""Play in the terminal: `switchboard play [HOST[:PORT]]`.

With an address, connect to that server and open the lobby. With none, look
for servers on the LAN (about a second; servers advertise themselves by
multicast DNS) and offer them beside playing offline; offline starts a server
in this process on a free local port and sits you at a table of bots, so you
are playing within seconds of installing (--game picks the ruleset, --seats
the table size). `--list` prints the servers found, one a line, for scripts.
Inside: type `help` (or press F1) on any screen; Tab completes commands, the
actions legal now and card names; Ctrl-D quits.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any

DEFAULT_PORT = 7373
DEFAULT_GAME = "switch"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "address", nargs="?", metavar="HOST[:PORT]", help="server to join (none: play bots here)"
    )
    parser.add_argument(
        "--game", default=DEFAULT_GAME, metavar="RULESET", help="ruleset of the local table"
    )
    parser.add_argument("--seats", type=int, help="seats at the local table (you and bots)")
    parser.add_argument(
        "--clock",
        type=int,
        default=0,
        metavar="SECONDS",
        help="a turn clock at the local table (default: none; bots never hurry you)",
    )
    parser.add_argument(
        "--name",
        help="your name (default: the one last used on that server, else none until you type"
        " `name NAME`; offline: your login name)",
    )
    parser.add_argument(
        "--list",
        action="store_true",
        help="print the servers on the LAN (ADDRESS, name, tables, versions; tab-separated), exit",
    )
    parser.add_argument(
        "--offline", action="store_true", help="play bots here at once, without looking on the LAN"
    )
    parser.add_argument("--ascii", action="store_true", help="plain ASCII cards (QH) instead of Q♥")
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help="pause before a local bot moves, so you can follow (default 0.6)",
    )


def parse_address(text: str) -> tuple[str, int]:
    """``host``, ``host:port`` or ``[v6]:port`` to (host, port).

    >>> parse_address("example.org"), parse_address("10.0.0.2:7000"), parse_address("[::1]:9")
    (('example.org', 7373), ('10.0.0.2', 7000), ('::1', 9))
    """
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        return host, int(rest[1:]) if rest.startswith(":") else DEFAULT_PORT
    if text.count(":") == 1:
        host, port = text.split(":")
        return host, int(port)
    return text, DEFAULT_PORT


def wants_ascii(flag: bool) -> bool:
    """ASCII cards when asked, when the terminal has no colour (``NO_COLOR``, a dumb or
    monochrome terminal: a suit's colour cannot be shown, so its letter is) or when it
    cannot show the suit symbols."""
    if flag or os.environ.get("NO_COLOR") or os.environ.get("TERM") in ("dumb", "linux", "vt100"):
        return True
    if os.environ.get("PROMPT_TOOLKIT_COLOR_DEPTH") == "DEPTH_1_BIT":
        return True
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower()
    return bool(encoding) and "utf" not in encoding


def default_seats(game: str) -> int:
    import engine

    rs = engine.ruleset(game)
    if rs.family == "abbott":
        return 4
    return max(rs.min_seats, min(4, rs.max_seats))


async def play_async(
    address: tuple[str, int] | None,
    *,
    game: str = DEFAULT_GAME,
    seats: int | None = None,
    name: str | None = None,
    ascii_only: bool = False,
    bot_delay: float = 0.6,
    clock: int = 0,
    input: Any = None,
    output: Any = None,
    on_ready: Callable[[Any, Any], object] | None = None,
    color_depth: Any = None,
) -> int:
    """The whole client on the running asyncio loop; returns when the person quits.

    ``on_ready(app, session)`` is called once the table (or the lobby) is on
    screen: tests and the benchmark drive the application from there."""
    import trio

    from client.net.config import default_name, last_name
    from client.net.connection import connect
    from client.net.seats import SeatBook
    from client.net.state import ClientState
    from client.terminal.app import ClientApp
    from client.terminal.guest import Bridge, run_async
    from client.terminal.session import Session

    state = ClientState()
    history = None
    if input is None:  # a person at a terminal: keep the command history between sessions
        from prompt_toolkit.history import FileHistory

        from client.net.config import config_dir

        try:
            config_dir().mkdir(parents=True, exist_ok=True)
            history = FileHistory(str(config_dir() / "history"))
        except OSError:
            history = None
    app = ClientApp(
        state,
        lambda _line: None,
        ascii_only=ascii_only,
        input=input,
        output=output,
        color_depth=color_depth,
        history=history,
    )

    async def trio_main(bridge: Bridge) -> None:
        async with trio.open_nursery() as nursery:
            server = None
            if address is None:
                from server.app import Server
                from server.core.config import ServerConfig

                # A practice server in this process: every connection is this machine's,
                # and the player could read any hand in its memory, so the address part
                # of "one hand to a person" would only refuse a friend on this machine.
                config = ServerConfig(
                    host="127.0.0.1",
                    port=0,
                    bot_delay_seconds=bot_delay,
                    scrypt_n=2**10,
                    one_hand_per_address=False,
                )
                server = Server(config)
                port = await nursery.start(server.serve)
                host = "127.0.0.1"
                secret: str | None = "local"  # a throwaway server: nothing worth a kept secret
                chosen: str | None = name or default_name()
            else:
                host, port = address
                secret = None
                # The name typed, else the one last used there; else none until one is typed.
                chosen = name or last_name(f"{host}:{port}")
            try:
                async with connect(
                    host, port, name=chosen, secret=secret, state=state, name_optional=not name
                ) as conn:
                    # Seats on a real server are kept, so a restarted client sits down again.
                    book = SeatBook() if address is not None else None
                    session = Session(conn, app, seats=book)
                    if address is None:
                        create = f"create {game} {seats or default_seats(game)}"
                        await session.run_line(f"{create} turn_seconds={max(0, clock)}")
                        await session.run_line("start")
                    if on_ready is not None:
                        on_ready(app, session)
                    await session.run(bridge.lines_recv)
            finally:
                if server is not None:
                    server.shutdown()
                nursery.cancel_scope.cancel()

    return await run_async(app, trio_main)


def list_servers(found: list[Any]) -> int:
    """``--list``: one line per server, for scripts; status 1 when none answered."""
    for server in found:
        print(server.line())
    if not found:
        print("switchboard play: no servers found on the LAN", file=sys.stderr)
    return 0 if found else 1


def look_on_the_lan(
    browse: Callable[[], list[Any]], ask: Callable[[str], str] = input
) -> tuple[str, int] | None:
    """The address of the LAN server a person picks; None to play offline (nothing found,
    or the person chose offline)."""
    from client.net.discovery import pick_server

    print("Looking for servers on the LAN...", flush=True)
    found = browse()
    if not found:
        print("No servers on the LAN: playing offline against bots.")
        return None
    chosen = pick_server(found, ask, print)
    return (chosen.host, chosen.port) if chosen is not None else None


def run(args: argparse.Namespace) -> int:
    import asyncio

    from client.net.discovery import browse

    if args.list:
        return list_servers(browse())
    address = parse_address(args.address) if args.address else None
    if address is None and not args.offline and sys.stdin.isatty():
        try:
            address = look_on_the_lan(browse)
        except (EOFError, KeyboardInterrupt):
            return 130
    if address is None:
        import engine

        try:
            engine.ruleset(args.game)
            seats = args.seats or default_seats(args.game)
            rs = engine.ruleset(args.game)
            if not rs.min_seats <= seats <= rs.max_seats:
                raise engine.OptionError(
                    "seats", f"{args.game} takes {rs.min_seats} to {rs.max_seats} seats"
                )
        except ValueError as exc:
            print(f"switchboard play: {exc}", file=sys.stderr)
            return 2
    try:
        return asyncio.run(
            play_async(
                address,
                game=args.game,
                seats=args.seats,
                name=args.name,
                ascii_only=wants_ascii(args.ascii),
                bot_delay=args.bot_delay,
                clock=args.clock,
            )
        )
    except KeyboardInterrupt:
        return 130
    except BaseException as exc:  # the trio side's failure arrives wrapped in groups
        message = explain(exc)
        if message is None:
            raise
        print(f"switchboard play: {message}", file=sys.stderr)
        return 1


def leaves(exc: BaseException) -> list[BaseException]:
    """The exceptions inside (nested) exception groups."""
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for sub in exc.exceptions for leaf in leaves(sub)]
    return [exc]


def explain(exc: BaseException) -> str | None:
    """A sentence for a failure a person can act on (``None``: a bug, show the traceback)."""
    from client.net.connection import ConnectionLost, ServerError

    for leaf in leaves(exc):
        if isinstance(leaf, ServerError):
            return f"the server refused: {leaf.text or leaf.code}"
        if isinstance(leaf, (OSError, ConnectionLost)):
            return f"cannot connect: {leaf}"
    return None
