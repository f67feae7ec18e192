"""Host a Switchboard server: embedded SQLite, no setup.

Friends connect with `switchboard play HOST`, a browser at http://HOST:7373/
or `nc HOST 7373` for text mode; empty seats are played by server bots. On a
terminal the console is for the host: short lines, and a QR code of the
browser's address for phones; elsewhere (journald, a container) one logfmt
record a line (--log-format chooses). Settings come from the
defaults, then the TOML file given with --config (its [server] table), then
the flags. SIGINT or SIGTERM shuts down gracefully: clients are told, the
last group commit finishes, and the exit status is 0.
"""

from __future__ import annotations

import argparse
import gc
import logging
import signal
import tomllib
from pathlib import Path
from typing import Any, TextIO

DEFAULT_PORT = 7373


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host", help="address to listen on (default: every interface; 127.0.0.1: this machine)"
    )
    parser.add_argument("--port", type=int, help=f"TCP port (default {DEFAULT_PORT}; 0: any)")
    parser.add_argument(
        "--data",
        metavar="DIR",
        help="directory for the SQLite file (default: the per-user data directory)",
    )
    parser.add_argument("--config", metavar="FILE", help="TOML file of settings ([server] table)")
    parser.add_argument(
        "--open-table",
        action="append",
        metavar="RULESET",
        help="keep one waiting house table of RULESET (repeatable)",
    )
    parser.add_argument(
        "--name",
        metavar="NAME",
        help="the name players on the LAN see (default: Switchboard on HOST)",
    )
    parser.add_argument(
        "--no-discovery",
        action="store_true",
        help="do not advertise the server on the LAN (multicast DNS)",
    )
    parser.add_argument(
        "--log-level", choices=["debug", "info", "warning"], help="default: the config's, info"
    )
    parser.add_argument(
        "--log-format",
        choices=["human", "logfmt", "json"],
        help="human: short lines and a QR code of the join URL, for a person at the console;"
        " logfmt (key=value) or json: one record a line, for journald and log shippers"
        " (default: human on a terminal, else logfmt)",
    )


def load_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The settings mapping: the config file's, overridden by the flags given."""
    settings: dict[str, Any] = {}
    if args.config:
        with open(args.config, "rb") as f:
            data = tomllib.load(f)
        settings.update(data.get("server", data))
    if args.host is not None:
        settings["host"] = args.host
    if args.port is not None:
        settings["port"] = args.port
    if args.data is not None:
        settings["data_dir"] = args.data
    if args.name is not None:
        settings["server_name"] = args.name
    if args.no_discovery:
        settings["discovery"] = False
    if args.open_table:
        settings["open_tables"] = args.open_table
    if settings.get("data_dir") is None:
        import platformdirs

        settings["data_dir"] = platformdirs.user_data_dir("switchboard", appauthor=False)
    return settings


def show_host_card(host: str | None, port: int, stream: TextIO) -> None:
    """Print the QR code of the URL a browser opens to join (``switchboard.console``)
    under the ``friends connect with`` lines, in colours that read on any terminal."""
    from server.discovery.addresses import addresses_for
    from switchboard.console import host_card

    isatty = getattr(stream, "isatty", None)
    lines = host_card(addresses_for(host), port, ansi=bool(isatty and isatty()))
    if lines:
        stream.write("\n".join(lines) + "\n")
        stream.flush()


def run(args: argparse.Namespace) -> int:
    import sys

    import trio

    from server.app import Server
    from server.core.config import ServerConfig
    from server.core.logfmt import configure, default_format

    stream = sys.stderr
    fmt = args.log_format or default_format(stream)
    configure(args.log_level or "info", stream, fmt=fmt)
    try:
        config = ServerConfig.from_mapping(load_settings(args))
    except (OSError, ValueError, TypeError, tomllib.TOMLDecodeError) as exc:
        logging.getLogger("switchboard.serve").error("bad configuration: %s", exc)
        return 2
    assert config.data_dir is not None
    Path(config.data_dir).mkdir(parents=True, exist_ok=True)
    if args.log_level is None:
        configure(config.log_level, stream, fmt=fmt)  # the config file's log_level

    log = logging.getLogger("switchboard.serve")

    async def main() -> None:
        server = Server(config)
        # The receiver stays open until the server has stopped, so a second signal
        # (a terminal sends SIGINT to the whole process group) never interrupts shutdown.
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async with trio.open_nursery() as nursery:

                async def serve_then_stop(task_status: trio.TaskStatus[int]) -> None:
                    await server.serve(task_status=task_status)
                    nursery.cancel_scope.cancel()

                port = await nursery.start(serve_then_stop)
                if fmt == "human":  # a person at the console: the way in for a phone
                    show_host_card(config.host, port, stream)
                gc.freeze()  # what start-up built (modules, restored tables) is never garbage
                async for signum in signals:
                    log.info("signal %s: shutting down", signal.Signals(signum).name)
                    server.shutdown()

    # A server holds many long-lived objects (tables, their event rings, connections);
    # the default thresholds run a full collection every few seconds under load, a pause
    # of hundreds of milliseconds for every table at once. Collect young objects as
    # usual, the old generation far more rarely (bench/load.py shows the tail it saves).
    # That is safe only if nothing long-lived waits for the collector: a closed connection
    # is freed by reference counting alone (tests/server/test_connection_memory.py), and
    # bench/connmem.py measures RSS flat over 50,000 connect/close cycles at these settings.
    gc.set_threshold(10_000, 50, 100)
    from server.store.datalock import DataDirLocked
    from server.store.sqlite import StoreDamaged

    refused: list[BaseException] = []
    try:
        trio.run(main)
    except* DataDirLocked as group:  # another server holds the data directory
        refused.extend(group.exceptions)
    except* StoreDamaged as group:  # one line that says what to do, not a traceback
        refused.extend(group.exceptions)
    if refused:
        log.error("%s", refused[0])
        return 1
    return 0
