"""``switchboard``: one command whose subcommands compose the rest.

Each subcommand lives in its own module of this package with two functions,
``add_arguments(parser)`` and ``run(args) -> int``; modules import their heavy
dependencies inside ``run`` so that ``switchboard --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Sequence

# name -> (module, one line of help), in the order --help lists them.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("switchboard.serve", "host a server (embedded SQLite, no setup)"),
    "play": ("switchboard.play", "the terminal client; with no address, play bots locally"),
    "bot": ("switchboard.bot", "connect a strategy to a server"),
    "arena": ("switchboard.arena", "play strategies against each other and rate them"),
    "replay": ("switchboard.replay", "step through a finished game"),
    "audit": ("switchboard.audit", "check a data directory's chips (read-only)"),
    "ratings": ("switchboard.ratings", "check or rebuild the players' ratings from stored games"),
}


def build_parser() -> argparse.ArgumentParser:
    """The parser with every subcommand whose module is present."""
    parser = argparse.ArgumentParser(
        prog="switchboard",
        description="Host and play the three card games called Switch: abbott, shedding, kilodney.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        if importlib.util.find_spec(module_name) is None:
            continue
        module = importlib.import_module(module_name)
        p = sub.add_parser(name, help=help_text, description=(module.__doc__ or help_text).strip())
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "_run"):
        parser.print_help()
        return 2
    return int(args._run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
