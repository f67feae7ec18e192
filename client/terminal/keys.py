"""The client's keys: F1 help, F2 rules, Escape closes, arrows scroll a page or move the
picker, Ctrl-D quits; on a tournament's page F5 pause, F6 back, and the host's F7 and F8
(``client.terminal.tournament.PAGE_KEYS``). Everything else goes to the command line (its own keys:
history, Tab completion, Enter)."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from client.terminal.pages import HELP_TITLE, RULES_TITLE, Pages
from client.terminal.tournament import PAGE_KEYS, key_typed

#: Keys that scroll a page, and by how many rows.
SCROLL_KEYS = (("up", -1), ("down", 1), ("pageup", -10), ("pagedown", 10))


def build_keys(
    pages: Pages, quit: Callable[[], None], submit: Callable[[str], None] | None = None
) -> KeyBindings:
    """The key bindings over the screen's ``pages`` and picker; ``quit`` leaves;
    ``submit`` sends a line as if typed (a page's keys)."""
    kb = KeyBindings()
    picking = Condition(lambda: pages.picker_open)
    reading = Condition(lambda: pages.page is not None)

    @kb.add("f1")
    def _help(event: KeyPressEvent) -> None:
        pages.toggle(HELP_TITLE, pages.open_help)

    @kb.add("escape", eager=True)
    def _close(event: KeyPressEvent) -> None:
        pages.close()

    @kb.add("f2")
    def _rules(event: KeyPressEvent) -> None:
        pages.toggle(RULES_TITLE, pages.open_rules)

    for key, step in SCROLL_KEYS:

        @kb.add(key, filter=reading)
        def _scroll(event: KeyPressEvent, step: int = step) -> None:
            pages.scroll(step)

    for key, *_ in PAGE_KEYS:

        @kb.add(key, filter=reading)
        def _page_key(event: KeyPressEvent, key: str = key) -> None:
            typed = key_typed(key, pages.title)
            if typed is not None and submit is not None:
                submit(typed)

    @kb.add("c-d")
    @kb.add("c-c")
    def _quit(event: KeyPressEvent) -> None:
        quit()

    @kb.add("up", filter=picking)
    def _up(event: KeyPressEvent) -> None:
        pages.move_picker(-1)

    @kb.add("down", filter=picking)
    def _down(event: KeyPressEvent) -> None:
        pages.move_picker(1)

    @kb.add("enter", filter=picking)
    def _enter(event: KeyPressEvent) -> None:
        pages.pick()

    return kb
