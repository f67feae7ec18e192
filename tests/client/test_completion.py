"""Completion and one-line help for the game master's commands (no screen needed)."""

from __future__ import annotations

from client.net.state import ClientState
from client.terminal.commands import command_help
from client.terminal.completion import candidates


def _table(master: str) -> ClientState:
    st = ClientState()
    st.name = "ann"
    t = st.table("t1")
    t.master = master
    st.lobby = [{"table": "t1", "ruleset": "kilodney", "family": "kilodney"}]
    return st


def test_the_master_is_offered_the_master_commands_and_others_are_not() -> None:
    words = [c for c, _ in candidates("", _table("ann"), "t1")]
    assert {"bot", "unseat", "set", "pause", "end"} <= set(words)
    others = [c for c, _ in candidates("", _table("bob"), "t1")]
    assert "unseat" not in others and "start" in others


def test_bot_completes_the_strategies_of_the_tables_family_before_the_deal() -> None:
    st = _table("ann")
    assert st.tables["t1"].view is None or not st.tables["t1"].view  # not dealt yet
    assert [c for c, _ in candidates("bot 1 ", st, "t1")] == ["heuristic", "random", "search"]
    assert [c for c, _ in candidates("bot 1 s", st, "t1")] == ["search"]


def test_help_names_each_master_command() -> None:
    assert command_help("unseat").startswith("unseat SEAT: empty a seat")
    assert "paused" in command_help("resume")


def test_every_command_the_client_takes_has_its_help_from_the_one_command_table() -> None:
    """Before: the client wrote each command's help again (client/terminal/commands.py), and the two
    drifted; now it reads the usage and summary of each from ``protocol.commands``."""
    from client.terminal import commands as screen
    from protocol.commands import command_named

    offered = {c for c, _ in candidates("", _table("ann"), "t1")}
    offered |= {c for c, _ in candidates("help ", _table("ann"), "t1")}
    accepted = offered | set(screen.LOCAL)
    assert {"join", "ascii", "filter", "lobby", "hint", "analyze", "unseat"} <= accepted
    for word in sorted(accepted):
        command = command_named(word, screen=True)
        assert command is not None, f"{word!r} has no help in protocol.commands"
        assert command_help(word).startswith(f"{command.usage}: {command.summary}"), word
    # ... and its own module holds no help text of its own: only which commands go where
    texts = [v for k, v in vars(screen).items() if isinstance(v, dict) and k[:1] != "_"]
    assert not any(isinstance(x, str) and " " in x for d in texts for x in d.values())


def test_help_for_an_action_says_how_each_game_takes_it() -> None:
    from protocol.commands import help_lines

    assert any("play QH, play 7H 7D" in line for line in help_lines("play"))
    assert "move SQUARE" in command_help("move")
