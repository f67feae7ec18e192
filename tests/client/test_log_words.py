"""The terminal's log says the server's words: an event's sentence as composed when it
happened, even when it arrives in a catch-up after the seat changed hands; an older
server's event (no text) is described by the client with the same protocol function."""

from __future__ import annotations

from client.net.state import ClientState
from client.terminal.log_pane import describe
from protocol import messages as m
from protocol.describe import describe_text


def _text(line) -> str:
    return "".join(text for _style, text in line)


def test_a_caught_up_event_keeps_the_name_of_who_played_it() -> None:
    st = ClientState()
    st.handle(m.Snapshot(table="1", seq=9, state="over", view={"to_act": None}, seat=0,
                         players=("ann", "gus")))  # fmt: skip
    t = st.tables["1"]
    t.backfill_to = 9  # the log asked for the game's last events after the snapshot
    st.handle(m.TableEvent(table="1", seq=8, event={"kind": "game_end", "winner": 1},
                           text="Game over: bot 2 wins"))  # fmt: skip
    (line,) = [x for x in t.log if x.kind == "event"]
    assert _text(describe(line, t.names, False)) == "Game over: bot 2 wins"
    # composed by the client with the names of now, it would relabel the past:
    assert describe_text(line.data, t.names) == "Game over: gus wins"


def test_cards_in_the_servers_words_follow_the_ascii_switch() -> None:
    st = ClientState()
    st.handle(m.Snapshot(table="1", seq=3, state="playing", view={"to_act": 0}, seat=0,
                         players=("ann", "bot:random")))  # fmt: skip
    st.handle(m.TableEvent(table="1", seq=4, event={"kind": "play", "seat": 1, "cards": ["QH"]},
                           text="bot 2 plays Q♥ · scores ann 0"))  # fmt: skip
    t = st.tables["1"]
    line = t.log[-1]
    drawn = describe(line, t.names, True)
    assert _text(drawn) == "bot 2 plays QH - scores ann 0"
    assert ("class:card.red", "QH") in drawn and ("class:log.seat", "bot 2") in drawn
    assert _text(describe(line, t.names, False)) == "bot 2 plays Q♥ · scores ann 0"


def test_an_older_servers_event_is_described_alike() -> None:
    st = ClientState()
    st.handle(m.Snapshot(table="1", seq=3, state="playing", view={"to_act": 0}, seat=0,
                         players=("ann", "bot:random")))  # fmt: skip
    event = {"kind": "draw", "seat": 0, "count": 2, "cards": ["2C", "3C"]}
    st.handle(m.TableEvent(table="1", seq=4, event=event))
    t = st.tables["1"]
    assert _text(describe(t.log[-1], t.names, False)) == describe_text(event, t.names)
