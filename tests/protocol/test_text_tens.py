"""Text mode writes a ten as ``10♥``, as the browser does; the notation a person types
(``play TH``) and the words people said are written as they are."""

from __future__ import annotations

from protocol.messages import Snapshot, TableEvent, Talk, Turn
from protocol.text_codec import ServerTextCodec
from protocol.words import action_words


def said(codec: ServerTextCodec, message: object) -> str:
    return codec.encode(message).decode()  # type: ignore[arg-type]


def test_a_ten_reads_10_in_sentences_and_stays_T_in_notation() -> None:
    codec = ServerTextCodec()
    players = ("ann", "bob")
    view = {"family": "shedding", "to_act": 0, "over": False, "top": "TD", "hand": ["TH", "9C"]}
    snap = Snapshot(table="1", seq=0, state="playing", view=view, seat=0, players=players)
    said(codec, snap)
    turn = Turn(table="1", seq=1, seat=0, to_act=0, legal=("play TH", "draw"), view=view)
    line = said(codec, turn)
    assert "top 10♦" in line and "10♥" in line and "T♥" not in line, line
    assert "you may: play TH, draw" in line  # what to type: the notation
    event = said(
        codec, TableEvent(table="1", seq=2, event={"kind": "play", "seat": 1, "cards": ["TS"]})
    )
    assert event == "event 1 · bob plays 10♠\n"
    talk = said(codec, Talk(table="1", name="bob", text="my T♠ beat your T♥"))
    assert "my T♠ beat your T♥" in talk  # his words, as he typed them
    codec.format = "json"
    assert '"TH"' in said(codec, turn)  # a program reads the notation


def test_the_clocks_move_in_words() -> None:
    assert action_words("play TC") == "played 10♣"
    assert action_words("pass") == "passed"
    assert action_words("ally west") == "chose west as partner"
    assert action_words("nonsense 7") == "chose nonsense 7"
