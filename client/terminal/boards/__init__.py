"""The three boards, chosen by the view's ``family``: ``render_board(view, ctx)``.

A family the client does not know yet still gets a readable board (its view's
fields, one per line), so a new family on the server never breaks the client.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples

from client.terminal.boards import abbott, kilodney, shedding
from client.terminal.boards.common import BoardContext, lines_to_text
from engine.views import View, is_abbott, is_kilodney, is_shedding
from protocol.table_lines import START_WAITING


def render_board(view: View | None, ctx: BoardContext) -> StyleAndTextTuples:
    """Formatted text for ``view`` (read as its family's, ``engine.views.as_view``); a
    placeholder while no view has arrived."""
    if not view:
        return [("class:dim", START_WAITING)]
    if is_abbott(view):
        return abbott.render(view, ctx)
    if is_shedding(view):
        return shedding.render(view, ctx)
    if is_kilodney(view):
        return kilodney.render(view, ctx)
    return render_generic(view, ctx)


def render_generic(view: Mapping[str, Any], ctx: BoardContext) -> StyleAndTextTuples:
    """Every field of an unknown family's view, one per line."""
    return lines_to_text([[("", f"{k}: {v}")] for k, v in view.items()], ctx.width)


__all__ = ["BoardContext", "render_board"]
