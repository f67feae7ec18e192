"""The sentences a person at ``nc`` reads (protocol.readable), for states a game passes
through: a pick-up waiting, a game the master ended, a spectator's view."""

from __future__ import annotations

from protocol import messages as m
from protocol.readable import Readable

PLAYERS = ("ann", "bot:heuristic")


def _started(r: Readable, seat: int | None = 0) -> None:
    r.lines(m.Snapshot(table="3", seq=1, state="playing", view={}, seat=seat, players=PLAYERS))


def test_a_pending_pick_up_is_words_not_a_map() -> None:
    r = Readable()
    _started(r)
    view = {"family": "shedding", "to_act": 0, "over": False, "top": "AC", "hand": ["2C"],
            "pending": {"kind": "pickup", "count": 4, "cards": ["AC"]}}  # fmt: skip
    (line,) = r.lines(m.Turn(table="3", seq=5, seat=0, to_act=0, legal=("draw",), view=view))
    assert "pending: pick up 4" in line and "{" not in line, line


def test_a_game_the_master_ended_reads_over_not_your_turn() -> None:
    r = Readable()
    view = {
        "family": "shedding",
        "to_act": 0,
        "over": False,
        "top": "AC",
        "hand": ["2C"],
        "scores": [0, 3],
    }
    snap = m.Snapshot(table="3", seq=9, state="over", view=view, seat=0, players=PLAYERS)
    (line,) = r.lines(snap)
    assert "the game is over" in line and "your turn" not in line, line
    assert "scores: ann 0, bot 2 3" in line


def test_a_spectator_reads_whose_turn_and_no_hand() -> None:
    r = Readable()
    _started(r, seat=None)
    view = {"family": "shedding", "to_act": 1, "over": False, "top": "AC", "hand_sizes": [3, 4]}
    (line,) = r.lines(m.Turn(table="3", seq=5, seat=None, to_act=1, view=view))
    assert line == "turn 3 · bot 2 to play · top A♣ · cards: ann 3, bot 2 4"


def test_a_player_waiting_reads_a_short_line() -> None:
    r = Readable()
    _started(r)
    view = {
        "family": "shedding",
        "to_act": 1,
        "over": False,
        "top": "AC",
        "hand": ["2C"],
        "hand_sizes": [1, 4],
    }
    assert r.lines(m.Turn(table="3", seq=5, seat=0, to_act=1, view=view)) == [
        "turn 3 · bot 2 to play"
    ]


def test_an_abbott_turn_shows_the_board_a_person_moves_on() -> None:
    """Without the grid a person at nc could not see which cards lie where."""
    r = Readable()
    _started(r)
    view = {"family": "abbott", "to_act": 0, "over": False, "grid": [["2C", None], ["AS", "KH"]],
            "pieces": ["a1", "b2"]}  # fmt: skip
    (line,) = r.lines(m.Turn(table="3", seq=5, seat=0, to_act=0, legal=("move a2",), view=view))
    assert "board (files a-b): 2: A♠ K♥ / 1: 2♣ --" in line
    assert "pieces: ann a1, bot 2 b2" in line and "you may: move a2" in line


def test_an_abbott_turn_says_what_each_seat_has_taken_and_the_scores() -> None:
    """Before: text mode showed the grid and the pieces only, so a person at nc could not
    see the cards anyone had taken (what a hand is scored on) nor the game's scores."""
    r = Readable()
    _started(r)
    view = {"family": "abbott", "to_act": 0, "over": False, "grid": [["2C", None], ["AS", None]],
            "pieces": ["a1", "b2"], "collections": [["KH", "KD", "3S"], []],
            "best": [{"category": "pair", "cards": ["KD", "KH", "3S"]},
                     {"category": "high card", "cards": []}],
            "scores": [10, 0]}  # fmt: skip
    (line,) = r.lines(m.Turn(table="3", seq=5, seat=0, to_act=0, legal=("move a2",), view=view))
    assert "taken: ann K♦ K♥ 3♠ (pair), bot 2 no cards" in line, line
    assert "scores: ann 10, bot 2 0" in line, line
    waiting = dict(view, to_act=1)
    (brief,) = r.lines(m.Turn(table="3", seq=6, seat=0, to_act=1, view=waiting))
    assert "taken" not in brief, brief


def test_finger_history_and_top_read_as_sentences() -> None:
    """Before, a person at nc got finger, history and top as JSON."""
    r = Readable()
    rating = {"family": "shedding", "rating": 1532, "mu": 1, "sigma": 1, "games": 5}
    profile = m.Profile(
        name="ann", games=5, chips=900, ratings=(rating,),
        tallies=({"ruleset": "switch", "played": 5, "won": 2},),
    )  # fmt: skip
    assert r.lines(profile) == [
        "profile ann · 5 games finished · 900 chips · shedding 1532 (5 rated games)"
        " · switch: 2 won of 5"
    ]
    sent = m.Profile(name="ann", lines=("2 games finished", "not rated yet"))
    assert r.lines(sent) == ["profile ann · 2 games finished · not rated yet"]  # as sent
    game = {"table": "4", "game": 1, "ruleset": "switch", "rated": True, "time": 1, "seat": 0,
            "players": ["ann", "bot:heuristic"], "scores": [0, 5], "places": [1, 0]}  # fmt: skip
    assert r.lines(m.History(name="ann", games=(game,), next=1, total=3)) == [
        "history ann · switch at table 4, game 1: 2nd · players ann, bot 2 (heuristic)"
        " · scores 0, 5",
        "history ann · 3 games in all; more: history ann 1",
    ]
    (nobody,) = r.lines(m.Top(family="abbott"))
    assert nobody.startswith("top abbott · nobody is rated yet: a game is rated when two or more")
    leader = {"place": 1, "name": "ann", "rating": 27.3, "mu": 1, "sigma": 1, "games": 5}
    assert r.lines(m.Top(family="shedding", players=(leader,))) == [
        "top shedding · 1. ann 27.3 (5 games)"
    ]


def test_a_bot_has_one_name_in_the_lobby_the_seats_and_the_log() -> None:
    """A bot was ``the bot`` in the log and plain ``bot`` in the lobby's list: now it is
    ``bot 2`` everywhere (seats count from 1 in words), its strategy beside it where the
    seats are listed."""
    r = Readable()
    table = {"table": "3", "ruleset": "switch", "state": "playing", "seats": 2, "taken": 1,
             "players": list(PLAYERS), "master": None, "spectators": 0}  # fmt: skip
    (listed,) = r.lines(m.Tables(tables=(table,)))
    assert "2 seats: ann, bot 2 (heuristic)" in listed
    (seats,) = r.lines(m.Snapshot(table="3", seq=1, state="playing", view={}, seat=0,
                                  players=PLAYERS))  # fmt: skip
    assert "seats: ann (you), bot 2 (heuristic)" in seats
    event = {"kind": "play", "seat": 1, "cards": ["KC"]}
    assert r.lines(m.TableEvent(table="3", seq=2, event=event)) == ["event 3 · bot 2 plays K♣"]


def test_a_player_leaving_an_ended_game_leaves_no_bot_behind() -> None:
    """``left the table (a bot takes the seat)`` was said after the game was over too."""
    r = Readable()
    _started(r)
    (line,) = r.lines(m.Presence(table="3", seat=0, name="ann", what="left"))
    assert line == "presence 3 · ann left the table (a bot takes the seat)"
    over = {"to_act": None, "over": True, "scores": [0, 3]}
    r.lines(m.Turn(table="3", seq=9, seat=1, to_act=None, view=over))
    (line,) = r.lines(m.Presence(table="3", seat=0, name="ann", what="left"))
    assert line == "presence 3 · ann left the table"
    r.lines(m.Snapshot(table="4", seq=0, state="waiting", view={}, seat=0, players=PLAYERS))
    (line,) = r.lines(m.Presence(table="4", seat=0, name="ann", what="dropped"))
    assert line == "presence 4 · ann dropped out"


def test_the_room_reads_as_sentences() -> None:
    r = Readable()
    people = (
        {
            "name": "ann",
            "state": "playing",
            "tables": [{"table": "3", "seat": 1, "state": "playing"}],
            "idle": 0,
        },
        {
            "name": "bob",
            "state": "watching",
            "tables": [{"table": "3", "seat": None, "state": "playing"}],
            "idle": 0,
        },
        {"name": "cy", "state": "idle", "tables": [], "idle": 7500},
    )
    assert r.lines(m.People(people=people, total=4, guests=1, id=2)) == [
        "people #2 · 4 people online (3 of them listed), and 1 connection with no name yet",
        "people #2 ann · playing at table 3 (seat 2)",
        "people #2 bob · watching table 3",
        "people #2 cy · in the lobby · idle 2 h 5 min",
    ]
    sent = m.People(people=(), total=0, text="the server's words", id=3)
    assert r.lines(sent) == ["people #3 · the server's words"]
    assert r.lines(m.Watcher(table="3", what="came", name="bob", watching=1)) == [
        "watcher 3 · bob came to watch (1 watcher)"
    ]
    assert r.lines(m.Watcher(table="3", what="went", watching=0)) == [
        "watcher 3 · someone with no name stopped watching (0 watchers)"
    ]
    assert r.lines(m.Shouted(name="ann", text="switch, anyone?")) == [
        "shouted · ann shouts: switch, anyone?"
    ]


def test_an_ended_game_names_the_bot_that_played_a_seat_now_empty() -> None:
    """The scores read ``seat 2 0`` once the bot's seat was empty again after the end."""
    r = Readable()
    _started(r)
    over = {"to_act": None, "over": True, "scores": [0, 3]}
    ended = m.Snapshot(table="3", seq=9, state="over", view=over, seat=0, players=("ann", None))
    (line,) = r.lines(ended)
    assert "scores: ann 0, bot 2 3" in line, line


def test_who_in_text_says_how_many_tables_the_list_left_out() -> None:
    """The server lists 8 of a name's tables and counts the rest in ``more``."""
    spots = [{"table": str(n), "seat": 0, "state": "waiting"} for n in range(1, 9)]
    person = {"name": "eve", "state": "seated", "tables": spots, "idle": 0, "more": 2}
    (_, line) = Readable().lines(m.People(people=(person,), total=1))
    assert line.startswith("people eve · sitting at table 1 (seat 1), no game running; ")
    assert line.endswith("; and 2 tables more"), line


def test_the_ratings_a_game_changed_read_as_the_servers_sentence() -> None:
    changes = ({"seat": 0, "name": "ann", "before": 1500, "after": 1512},)
    text = "ratings after game 1: ann 1500 → 1512 (+12)"
    lines = Readable().lines(m.Rated(table="4", game=1, changes=changes, text=text))
    assert lines == [f"rated 4 · {text}"]


def test_a_right_to_left_name_is_isolated_where_it_enters_a_sentence() -> None:
    """Before, a Hebrew or Arabic name reordered the words around it in the lobby and the
    log (the bidi algorithm ran it together with the digits and words beside it)."""
    from protocol.describe import FSI, PDI, describe_text, seat_name

    dana = "\u05d3\u05e0\u05d4"  # Hebrew letters
    assert seat_name(dana, 0) == f"{FSI}{dana}{PDI}"
    assert seat_name("ann", 0) == "ann" and seat_name("Zoë", 1) == "Zoë"  # nothing to isolate
    names = [seat_name(dana, 0), seat_name("ann", 1)]
    said = describe_text({"kind": "draw", "seat": 0, "count": 2}, names)
    assert said.startswith(f"{FSI}{dana}{PDI} draws 2"), said
    r = Readable()
    (talk,) = r.lines(m.Talk(table="3", name=dana, text="12 34"))
    assert f"{FSI}{dana}{PDI}: 12 34" in talk
    listing = m.Tables(tables=({"table": "3", "ruleset": "switch", "state": "waiting",
                                "seats": 2, "taken": 1, "players": [dana, None],
                                "master": dana, "spectators": 0},))  # fmt: skip
    (line,) = r.lines(listing)
    assert line.count(FSI) == 2 and line.count(PDI) == 2, line


def test_a_tournament_table_is_listed_as_its_and_offers_a_seat_only_to_its_players() -> None:
    """A round's table held every seat for its players: the lobby offered ``join`` to
    anyone while one of them had not come, and named its master ``tournament:1``."""
    r = Readable()
    table = {"table": "5", "ruleset": "switch", "state": "waiting", "seats": 3, "taken": 2,
             "players": ["ann", "bob", None], "master": "tournament:1",
             "spectators": 0}  # fmt: skip
    (listed,) = r.lines(m.Tables(tables=(table,)))
    assert "a table of tournament 1" in listed and "tournament:1" not in listed, listed
    assert listed.endswith("watch 5 to watch"), listed
    r.me = "ann"
    (mine,) = r.lines(m.Tables(tables=(table,)))
    assert mine.endswith("join 5 to sit"), mine
