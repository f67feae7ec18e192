"""The three boards, chosen by the view's ``family``: ``render_board(view, ctx)``.

A family the client does not know yet still gets a readable board (its view's
fields, one per line), so a new family on the server never breaks the client.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples

from client.boards import abbott, kilodney, shedding
from client.boards.common import BoardContext, lines_to_text

Renderer = Callable[[dict[str, Any], BoardContext], StyleAndTextTuples]

RENDERERS: dict[str, Renderer] = {
    "abbott": abbott.render,
    "shedding": shedding.render,
    "kilodney": kilodney.render,
}


def render_board(view: dict[str, Any] | None, ctx: BoardContext) -> StyleAndTextTuples:
    """Formatted text for ``view``; a placeholder while no view has arrived."""
    if not view:
        return [("class:dim", "Waiting for the game to start...")]
    renderer = RENDERERS.get(str(view.get("family")), render_generic)
    return renderer(view, ctx)


def render_generic(view: dict[str, Any], ctx: BoardContext) -> StyleAndTextTuples:
    """Every field of an unknown family's view, one per line."""
    return lines_to_text([[("", f"{k}: {v}")] for k, v in view.items()], ctx.width)


__all__ = ["RENDERERS", "BoardContext", "render_board"]
