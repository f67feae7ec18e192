"""Every legal move is on the screen: grouped, wrapped, never cut; what a pending pick-up or
a wild card asks for is said with the commands that answer it; a play the table penalises is
confirmed before it is sent."""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace

import trio
from harness import Driver, run_client
from prompt_toolkit.formatted_text import fragment_list_to_text
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

import engine
from client.net.state import ClientState
from client.terminal.app import ClientApp, render_text
from client.terminal.boards import BoardContext, render_board
from client.terminal.boards.legal import must_text
from client.terminal.moves import blunder_penalty, draw_alias, spelled_out
from client.terminal.session import Session
from protocol import messages as m


def board(view: dict, legal: list[str], width: int = 80, ascii_only: bool = True) -> str:
    ctx = BoardContext(names=["ann", "bob", "cy", "di"], ascii_only=ascii_only, width=width)
    ctx = BoardContext(names=ctx.names, ascii_only=ascii_only, width=width, legal=legal)
    return fragment_list_to_text(render_board(view, ctx))


def turn_where(ruleset: str, seats: int, want, seed_range=range(300), steps: int = 200):
    """A game (and the seat to act) at the first turn where ``want(game, seat)`` holds."""
    for seed in seed_range:
        game = engine.new_game(ruleset, seats=seats, seed=seed)
        rng = random.Random(seed)
        for _ in range(steps):
            if game.over:
                break
            seat = game.to_act
            if want(game, seat):
                return game, seat
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    raise AssertionError("no such turn")


def shown_actions(drawn: str) -> set[str]:
    """The actions the legal lines offer, rebuilt as typed (``play`` + each play's cards)."""
    text = drawn[drawn.index("You may") :].replace("\n", " ")
    out: set[str] = set()
    for part in text.split(" or: "):
        head, _, items = part.partition(":")
        verb = "play " if "play" in head else ""
        out |= {verb + " ".join(i.split()) for i in items.split("|") if i.strip()}
    return out


def test_every_legal_play_is_on_the_board_at_any_width() -> None:
    """A j28 turn with more plays than one line holds: before, "You may:" ran off the edge
    (cut with an ellipsis) and the longer sets and runs were not on the screen."""
    game, seat = turn_where("j28", 3, lambda g, s: len(g.legal_actions(s)) >= 12)
    legal = [str(a) for a in game.legal_actions(seat)]
    for width in (52, 80, 140):
        drawn = board(game.view(seat), legal, width)
        assert "~" not in drawn and "…" not in drawn, drawn
        assert all(len(line) <= width for line in drawn.splitlines())
        assert shown_actions(drawn) == set(legal), drawn


def test_abbott_and_kilodney_say_what_is_legal_and_abbott_marks_its_squares() -> None:
    game, seat = turn_where("abbott", 4, lambda g, s: True)
    legal = [str(a) for a in game.legal_actions(seat)]
    drawn = board(game.view(seat), legal)
    squares = [a.split()[1] for a in legal if a.startswith("move ")]
    assert squares and "Move to: " + " | ".join(squares) in drawn.replace("\n", " ")
    # Each target square has a + in its piece cell: `move c4` is found on the grid itself.
    rows = drawn.splitlines()[1:7]
    for square in squares:
        row = rows[6 - int(square[1])]
        cell = 3 + 5 * "abcdef".index(square[0])  # ASCII squares are five cells
        assert row[cell] == "+", (square, row)
    assert sum(row.count("+") for row in rows) == len(squares)
    game, seat = turn_where("kilodney", 4, lambda g, s: True)
    legal = [str(a) for a in game.legal_actions(seat)]
    assert shown_actions(board(game.view(seat), legal)) == set(legal)


def test_a_pending_pick_up_names_exactly_the_commands_that_answer_it() -> None:
    """Before, the board said "stack, cancel, or draw 4" whatever was legal."""

    def pickup(only_draw: bool):
        def want(g, s):
            pending = g.view(s).get("pending") or {}
            legal = [str(a) for a in g.legal_actions(s)]
            return pending.get("kind") == "pickup" and (legal == ["draw"]) == only_draw

        return want

    game, seat = turn_where("switch", 4, pickup(only_draw=True))
    count = game.view(seat)["pending"]["count"]
    drawn = board(game.view(seat), ["draw"])
    assert f"You must take the pick-up of {count}: draw (you take {count})" in drawn
    assert "stack" not in drawn and "cancel" not in drawn
    game, seat = turn_where("switch", 4, pickup(only_draw=False))
    legal = [str(a) for a in game.legal_actions(seat)]
    drawn = board(game.view(seat), legal).replace("\n  ", " ")
    assert "play one of these, or draw" in drawn
    assert {a for a in shown_actions(drawn) if a.startswith("play")} == {
        a for a in legal if a.startswith("play")
    }


def test_naming_a_suit_says_the_command() -> None:
    game, seat = turn_where(
        "switch", 4, lambda g, s: g.view(s).get("awaiting") == "nominate a suit"
    )
    legal = [str(a) for a in game.legal_actions(seat)]
    drawn = board(game.view(seat), legal)
    assert "You must name the suit to follow, e.g. suit hearts" in drawn
    assert "suit clubs | suit diamonds | suit hearts | suit spades" in drawn


def test_help_lists_every_legal_move() -> None:
    """Before, help's "legal now" was cut at 70 characters with no sign of the rest."""
    game, seat = turn_where("j28", 3, lambda g, s: len(g.legal_actions(s)) >= 12)
    legal = tuple(str(a) for a in game.legal_actions(seat))
    state = ClientState()
    state.name = "ann"
    state.handle(
        m.Snapshot(
            table="1",
            seq=1,
            state="playing",
            view=game.view(seat),
            seat=seat,
            legal=legal,
            players=("ann", "bob", "cy"),
        )
    )
    state.tables["1"].to_act = seat

    async def draw() -> tuple[list[str], str]:
        with create_pipe_input() as pipe:
            app = ClientApp(state, lambda _line: None, input=pipe, output=DummyOutput())
        app.show_table("1")
        app.show_help = True
        return app.help_lines(), render_text(app, 80, 24)

    lines, screen = asyncio.run(draw())
    at = lines.index("Legal now:")
    end = next(i for i, line in enumerate(lines) if line.startswith("At the table"))
    listed = [line.strip() for line in lines[at + 1 : end]]
    assert shown_actions("\n".join(listed)) == set(legal)
    for line in listed:  # and the screen shows them, whole
        assert line in screen, (line, screen)


def test_draw_n_is_the_pending_pick_up() -> None:
    """The board says "draw (you take 4)"; before, `draw 4` was refused as a bad action."""
    pickup = {"family": "shedding", "pending": {"kind": "pickup", "count": 4}}
    assert draw_alias("draw 4", pickup) == "draw"
    assert draw_alias("DRAW 4", pickup) == "draw"
    assert draw_alias("draw 2", pickup) == "draw 2"  # not what is pending: the server says so
    assert draw_alias("draw 4", {"pending": None}) == "draw 4"


def _at_turn(penalty: int | None, legal: tuple[str, ...], hand: list[str]) -> ClientState:
    state = ClientState()
    state.rulesets = [
        {"name": "switch", "options": [{"name": "illegal_penalty", "default": 0}]},
    ]
    options = {} if penalty is None else {"illegal_penalty": penalty}
    state.lobby = [{"table": "1", "ruleset": "switch", "options": options}]
    view = {"family": "shedding", "preset": "switch", "viewer": 0, "to_act": 0, "hand": hand}
    state.handle(
        m.Snapshot(table="1", seq=1, state="playing", view=view, seat=0, legal=legal, players=())
    )
    return state


def test_blunder_penalty_reads_the_tables_option() -> None:
    legal = ("play 7H", "play 7H 7D last", "draw")
    state = _at_turn(2, legal, ["7H", "7D", "KS"])
    t = state.tables["1"]
    assert blunder_penalty(state, t, "play ks") == 2  # held, parses, not legal
    assert blunder_penalty(state, t, "play 7h") == 0  # legal
    assert blunder_penalty(state, t, "play 7h 7d") == 0  # legal, announcing or not
    assert blunder_penalty(state, t, "play 2c") == 0  # not held: refused, no penalty
    assert blunder_penalty(state, t, "draw") == 0
    state = _at_turn(None, legal, ["7H", "7D", "KS"])  # the ruleset's default: 0
    assert blunder_penalty(state, state.tables["1"], "play ks") == 0


def test_a_penalised_play_is_confirmed_first() -> None:
    """The local game's master sets illegal_penalty, deals again, and types an illegal play:
    nothing is sent until it is typed again; then the table takes the blunder. Before, it went
    at once."""

    async def script(d: Driver) -> None:
        await d.until(lambda: d.table is not None and d.table.view, what="the board")
        d.line("end")
        await d.until(lambda: d.table.state == "over", what="the game to end")
        d.line("set illegal_penalty=2")
        await d.until_screen("options set")
        d.line("start")

        def blunder_ready() -> bool:
            t = d.table
            if not (t and t.my_turn and t.state == "playing" and t.view.get("hand")):
                return False
            return not t.view.get("pending") and not t.view.get("awaiting")

        def wrong_card() -> str | None:
            t = d.table
            plays = {c for a in t.legal if a.startswith("play") for c in a.split()[1:]}
            return next((c for c in t.view["hand"] if c not in plays), None)

        for _ in range(20):  # a plain turn with a card that does not play (the deal is random)
            await d.until(lambda: d.table.my_turn, what="my turn")
            if blunder_ready() and wrong_card():
                break
            seq = d.table.seq
            d.line("draw" if "draw" in d.table.legal else d.table.legal[0])
            await d.until(lambda s=seq: d.table.seq > s, what="the move")
        t = d.table
        wrong = wrong_card()
        assert wrong is not None and blunder_ready()
        size = len(t.view["hand"])
        d.line(f"play {wrong}")
        await d.until_screen("type it again")
        assert len(d.table.view["hand"]) == size and d.table.my_turn
        d.line(f"play {wrong}")
        await d.until(lambda: len(d.table.view["hand"]) == size + 2, what="the penalty")
        assert any(e.data.get("kind") == "blunder" for e in d.table.log)
        d.line("quit")

    assert asyncio.run(run_client(script, game="switch", seats=2)) == 0


def test_a_drawn_card_owed_is_read_from_the_views_word() -> None:
    """What is owed comes from ``awaiting_kind``, whatever the English of ``awaiting``."""
    view = {"awaiting": "(any words)", "awaiting_kind": "drawn", "drawn": ["5H"], "pending": None}
    assert must_text(view, ["play 5H", "pass"]) == "You must play the card you drew, or pass"
    plain = {"awaiting": None, "awaiting_kind": None, "drawn": [], "pending": None}
    assert must_text(plain, ["play 5H", "draw"]) is None


def test_a_miss_of_one_turn_is_one_turn() -> None:
    """Before: "You must pass the miss of 1 turns on with one of these plays"."""
    one = must_text({"pending": {"kind": "miss", "count": 1}}, ["play 8H", "pass"])
    assert one == "You must pass the miss of 1 turn on with one of these plays, or pass"
    two = must_text({"pending": {"kind": "miss", "count": 2}}, ["play 8H", "pass"])
    assert two is not None and "miss of 2 turns" in two


def test_a_short_or_bare_play_is_confirmed_like_a_play() -> None:
    """`p ks` and a bare `ks` play KS (the server reads them so): at a table that penalises
    an illegal play they are confirmed first, as `play ks` is. Before, they went at once."""
    assert spelled_out("ks") == "play KS" and spelled_out("p 7h 7d last") == "play 7H 7D last"
    assert spelled_out("c4") == "move c4" and spelled_out("who") == "who"
    assert spelled_out("p") == "p" and spelled_out("say ks") == "say ks"
    state = _at_turn(2, ("play 7H", "draw"), ["7H", "7D", "KS"])
    sent: list[str] = []
    with create_pipe_input() as pipe:
        app = ClientApp(state, lambda _line: None, input=pipe, output=DummyOutput())
    app.show_table("1")

    async def request(msg, check=True):
        sent.append(msg)
        return m.Ok(table="1")

    conn = SimpleNamespace(state=state, on_each_message=lambda _hook: None, request=request)
    session = Session(conn, app)  # type: ignore[arg-type]
    for line in ("ks", "p ks"):
        trio.run(session.run_line, line)
        assert not sent and "type it again" in fragment_list_to_text(app.reply), app.reply
        session.confirming = None
    trio.run(session.run_line, "ks")
    trio.run(session.run_line, "KS")  # typed again (as the server reads it): it goes
    assert [getattr(msg, "action", None) for msg in sent] == ["play KS"]


def test_a_bare_card_offered_only_with_its_call_is_sent_with_it() -> None:
    """Two cards in hand, `play 3D last` listed and `play 3D` not: a bare `3d` (or `p 3d`)
    sends the play with its call. Before, it sent `play 3D` and `last` was offered alone."""
    sent: list[m.Message] = []
    for line in ("3d", "p 3d", "play 3d"):
        state = _at_turn(None, ("play 3D last", "play 9C last", "draw"), ["3D", "9C"])
        with create_pipe_input() as pipe:
            app = ClientApp(state, lambda _line: None, input=pipe, output=DummyOutput())
        app.show_table("1")

        async def request(msg, check=True):
            sent.append(msg)
            return m.Ok(table="1")

        conn = SimpleNamespace(state=state, on_each_message=lambda _hook: None, request=request)
        trio.run(Session(conn, app).run_line, line)  # type: ignore[arg-type]
    actions = [getattr(msg, "action", None) for msg in sent]
    assert actions == ["play 3D last", "play 3D last", "play 3D"]  # the long form as typed
