"""What the parts of the screen see of the app that composes them (``client.terminal.app``).

The parts (the table's board and panel, the lobby, the log, the pages, the keys,
the screen's own commands) draw from the state and call back into the app through
this protocol only, so none imports the app and none writes another's attributes:
they read the app's state and ask it to say, show or send.
"""

from __future__ import annotations

from typing import Any, Protocol

from prompt_toolkit.application import Application
from prompt_toolkit.widgets import TextArea

from client.net.state import ClientState, TableState


class Screen(Protocol):
    """The app as its parts see it."""

    state: ClientState
    #: the table on screen; None: the lobby
    current: str | None
    ascii_only: bool
    application: Application[Any]
    input_field: TextArea

    @property
    def table(self) -> TableState | None:
        """The state of the table on screen, or None in the lobby."""
        ...

    def say(self, text: str, style: str = "") -> None:
        """Put a reply on the reply line (in the lobby, in its log)."""
        ...

    def show_table(self, table: str | None) -> None:
        """Show ``table`` (None: the lobby)."""
        ...

    def submit(self, line: str) -> None:
        """Send a typed line on to the server."""
        ...

    def exit(self) -> None:
        """Leave the application."""
        ...

    def toggle_ascii(self) -> None:
        """Card symbols and box lines, or plain ASCII."""
        ...

    def talk_apart(self) -> bool:
        """Whether talk has a pane of its own beside the events."""
        ...
