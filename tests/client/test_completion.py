"""Completion and one-line help for the game master's commands (no screen needed)."""

from __future__ import annotations

from client.app import command_help
from client.completion import candidates
from client.state import ClientState


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
    assert command_help("unseat").startswith("unseat: unseat SEAT")
    assert "paused" in command_help("resume")
