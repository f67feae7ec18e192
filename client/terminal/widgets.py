"""The client's own prompt_toolkit pieces: a frame whose border can turn ASCII, a framed
window floating over the screen, and a text control drawn for the width it is given.

They know nothing of games or of the state; the screens build their layout from
them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import ConditionalContainer, Float, HSplit, VSplit, Window
from prompt_toolkit.layout.controls import FormattedTextControl


def overlay(
    text: Callable[[], StyleAndTextTuples],
    title: str | Callable[[], str],
    shown: Callable[[], bool],
    ascii_only: Callable[[], bool] = lambda: False,
    *,
    full_width: bool = False,
) -> Float:
    """A framed text window floating over the screen while ``shown()`` is true (the pages
    and the new-table picker are each one). A page spans the screen's width: its text is
    wrapped to that width, and no line of the screen beneath shows beside it."""
    edge = 0 if full_width else None
    return Float(
        content=ConditionalContainer(
            framed(Window(FormattedTextControl(text), wrap_lines=True), title, ascii_only),
            filter=Condition(shown),
        ),
        left=edge,
        right=edge,
    )


#: Frame pieces: (Unicode, ASCII) for the top-left, top-right, bottom-left and
#: bottom-right corners and the horizontal and vertical lines.
_BORDER = {"tl": ("┌", "+"), "tr": ("┐", "+"), "bl": ("└", "+"), "br": ("┘", "+")}
_BORDER |= {"h": ("─", "-"), "v": ("│", "|")}


def framed(body: Window, title: str | Callable[[], str], ascii_only: Callable[[], bool]) -> HSplit:
    """``body`` in a titled border drawn in box-drawing characters, or in ASCII
    while ``ascii_only()`` (toggled at run time by the ``ascii`` command).

    Why not prompt_toolkit's ``Frame``: its border characters are fixed, and a
    terminal without the box-drawing glyphs (the reason for ASCII mode) shows
    them as junk."""

    def piece(name: str) -> Callable[[], str]:
        fancy, plain = _BORDER[name]
        return lambda: plain if ascii_only() else fancy

    def corner(name: str) -> Window:
        return Window(width=1, height=1, char=piece(name), style="class:frame.border")

    line = piece("h")
    top = VSplit(
        [
            corner("tl"),
            Window(width=1, height=1, char=line, style="class:frame.border"),
            Window(
                FormattedTextControl(
                    lambda: [("class:frame.label", f" {title() if callable(title) else title} ")]
                ),
                height=1,
                dont_extend_width=True,
            ),
            Window(height=1, char=line, style="class:frame.border"),
            corner("tr"),
        ],
        height=1,
    )
    side = piece("v")
    middle = VSplit(
        [
            Window(width=1, char=side, style="class:frame.border"),
            body,
            Window(width=1, char=side, style="class:frame.border"),
        ]
    )
    bottom = VSplit(
        [corner("bl"), Window(height=1, char=line, style="class:frame.border"), corner("br")],
        height=1,
    )
    return HSplit([top, middle, bottom])


class SizedTextControl(FormattedTextControl):
    """Formatted text drawn for the width it is given: boards fit the window they are in,
    so a resize redraws them to the new width."""

    def __init__(self, get_text: Callable[[int], StyleAndTextTuples], **kwargs: Any) -> None:
        self._get_sized = get_text
        self._width = 80
        super().__init__(lambda: self._get_sized(self._width), **kwargs)

    def preferred_height(
        self, width: int, max_available_height: int, wrap_lines: bool, get_line_prefix: Any
    ) -> int | None:
        self._width = width
        return super().preferred_height(width, max_available_height, wrap_lines, get_line_prefix)

    def line_count(self) -> int:
        """Lines of the text at the width last drawn."""
        return sum(text.count("\n") for _s, text, *_ in self._get_sized(self._width)) + 1

    def create_content(self, width: int, height: int | None) -> Any:
        if width != self._width:
            self._width = width
            self._fragment_cache.clear()
        return super().create_content(width, height)
