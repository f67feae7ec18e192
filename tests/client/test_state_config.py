"""The client's state folding and its kept secrets."""

from __future__ import annotations

import stat

from client.net.config import secret_for
from client.net.state import Change, ClientState
from protocol import messages as m


def test_events_apply_once_in_order_and_a_gap_is_refused() -> None:
    st = ClientState()
    st.handle(m.Snapshot(table="t", seq=5, state="playing", view={"to_act": 1}, seat=0))
    t = st.tables["t"]
    assert (
        st.handle(m.TableEvent(table="t", seq=6, event={"kind": "draw", "seat": 1})) is Change.EVENT
    )
    assert st.handle(m.TableEvent(table="t", seq=6, event={"kind": "draw", "seat": 1})) is None
    assert st.handle(m.TableEvent(table="t", seq=4, event={"kind": "draw", "seat": 1})) is None
    assert (
        st.handle(m.TableEvent(table="t", seq=9, event={"kind": "draw", "seat": 1})) is Change.GAP
    )
    assert t.seq == 6 and [e.seq for e in t.log] == [6]
    assert t.stale == 1  # the board lags one event until the next view
    st.handle(m.Snapshot(table="t", seq=9, state="playing", view={"to_act": 0}, seat=0))
    assert (t.seq, t.stale, t.to_act) == (9, 0, 0)


def test_turn_and_clock() -> None:
    st = ClientState()
    st.handle(m.Seated(table="t", seat=2, token="tok"))
    st.handle(m.Turn(table="t", seq=0, seat=2, to_act=2, legal=("draw",), clock=30))
    t = st.tables["t"]
    assert t.my_turn and t.token == "tok"
    left = t.clock_left()
    assert left is not None and 29 < left <= 30


def test_a_secret_is_made_once_per_name_and_server_and_kept_private(tmp_path) -> None:
    a = secret_for("ann", "host:1", tmp_path)
    assert secret_for("ann", "host:1", tmp_path) == a
    assert secret_for("ann", "host:2", tmp_path) != a  # no server learns another's secret
    assert secret_for("bob", "host:1", tmp_path) != a
    mode = stat.S_IMODE((tmp_path / "secrets.json").stat().st_mode)
    assert mode == 0o600
    assert len(a) >= 24 and " " not in a


def test_a_finished_games_board_still_names_the_bots_that_left_it() -> None:
    st = ClientState()
    view = {"to_act": 0, "scores": [3, 9]}
    st.handle(m.Snapshot("t1", 5, "playing", view, seat=0, players=("ann", "bot:search")))
    st.handle(m.Snapshot("t1", 9, "over", view, seat=0, players=("ann", None)))
    t = st.tables["t1"]
    assert t.players == ("ann", None)  # the seat is free to join...
    assert t.names == ["ann", "bot 2"]  # ...but the finished game was played by the bot
    st.handle(m.Snapshot("t1", 10, "waiting", {}, seat=0, players=("ann", None)))
    assert t.names == ["ann", None]
