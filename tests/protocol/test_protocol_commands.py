"""The command parser: every command, every action form, typos with suggestions."""

from __future__ import annotations

import pytest

from protocol import messages as m
from protocol.commands import (
    COMMANDS,
    CommandError,
    Situation,
    command_words,
    format_command,
    help_lines,
    parse_command,
)

T = "t1"

CASES = [
    ("hello", m.Hello(client="text")),
    ("hello 1 2", m.Hello(versions=(1, 2), client="text")),
    ("hello there", m.Hello(client="text")),
    ("name ann s3cret", m.ClaimName(name="ann", secret="s3cret")),
    ("ping", m.Ping()),
    ("pong", m.Pong()),
    ("quit", m.Quit()),
    ("exit", m.Quit()),
    ("rulesets", m.ListRulesets()),
    ("games", m.ListRulesets()),
    ("tables", m.ListTables()),
    ("tables 50", m.ListTables(start=50)),
    ("tables 0 10", m.ListTables(start=0, count=10)),
    ("create abbott 4", m.CreateTable(ruleset="abbott", seats=4)),
    (
        'create switch 3 turn_seconds=0 jokers=yes name="x\\u0020y" target=1.5',
        m.CreateTable(
            ruleset="switch",
            seats=3,
            options={"turn_seconds": 0, "jokers": True, "name": "x y", "target": 1.5},
        ),
    ),
    ("join t2", m.Join(table="t2")),
    ("join t2 3", m.Join(table="t2", seat=2)),  # seats are typed from 1
    ("sit t2 1", m.Join(table="t2", seat=0)),
    ("watch t2", m.Spectate(table="t2")),
    ("spectate t2", m.Spectate(table="t2")),
    ("watch t2 17", m.Spectate(table="t2", last_seq=17)),
    ("resume t2 tok3n 41", m.Resume(table="t2", token="tok3n", last_seq=41)),
    ("resume t2 tok3n seq=41", m.Resume(table="t2", token="tok3n", last_seq=41)),
    ("resume t2 tok3n", m.Resume(table="t2", token="tok3n", last_seq=0)),
    ("resume", m.ResumeGame(table=T)),
    ("leave", m.Leave(table=T)),
    ("say  good game, all ", m.Say(table=T, text="good game, all")),
    ("talk hi", m.Say(table=T, text="hi")),
    ("act play qh", m.Act(table=T, action="play QH")),
    ("record", m.GetRecord(table=T)),
    ("record t9", m.GetRecord(table="t9")),
    ("chips", m.GetChips()),
    ("chips bob", m.GetChips(name="bob")),
    ("finger", m.GetProfile()),
    ("finger bob", m.GetProfile(name="bob")),
    ("history", m.GetHistory()),
    ("history 20", m.GetHistory(start=20)),
    ("history bob", m.GetHistory(name="bob")),
    ("history bob 40", m.GetHistory(name="bob", start=40)),
    ("history 42 0", m.GetHistory(name="42")),
    ("top shedding", m.GetTop(family="shedding")),
    ("top switch 5", m.GetTop(family="switch", count=5)),
    ("tournaments", m.ListTournaments()),
    ("tournament", m.GetTournament()),
    ("tournament 3", m.GetTournament(tournament=3)),
    ("tournament 3 start", m.StartTournament(tournament=3)),
    ("tournament 3 end", m.EndTournament(tournament=3)),
    ("tournament 3 pause", m.PauseTournament(tournament=3)),
    ("tournament 3 resume", m.ResumeTournament(tournament=3)),
    ("sitout", m.SitOut()),
    ("sitout 3", m.SitOut(tournament=3)),
    ("standings", m.GetTournament()),
    ("standings 2", m.GetTournament(tournament=2)),
    ("host switch", m.CreateTournament(ruleset="switch")),
    (
        "host kilodney rounds=4 minutes=20 seats=5",
        m.CreateTournament(ruleset="kilodney", rounds=4, minutes=20, seats=5),
    ),
    (
        "host abbott format=arena minutes=60 wait=20",
        m.CreateTournament(ruleset="abbott", format="arena", minutes=60, wait=20),
    ),
    ("enter 2", m.EnterTournament(tournament=2)),
    ("withdraw", m.Withdraw()),
    ("withdraw 2", m.Withdraw(tournament=2)),
    ("drop bob", m.Withdraw(name="bob")),
    ("drop bob 2", m.Withdraw(tournament=2, name="bob")),
    ("host kilodney final=4", m.CreateTournament(ruleset="kilodney", final=4)),
    (
        "host switch strength=true apart=ann+bob,cy+dee",
        m.CreateTournament(ruleset="switch", by_strength=True, apart=("ann bob", "cy dee")),
    ),
    ("start", m.StartGame(table=T)),
    ("start bot", m.StartGame(table=T, absent="bot")),
    ("again", m.PlayAgain(table=T)),
    ("pause", m.PauseGame(table=T)),
    ("bot 2", m.SeatBot(table=T, seat=1)),
    ("bot 2 greedy", m.SeatBot(table=T, seat=1, strategy="greedy")),
    ("unseat 1", m.Unseat(table=T, seat=0)),
    ("set target=40 turn_seconds=30", m.SetOptions(T, {"target": 40, "turn_seconds": 30})),
    ("prize 100", m.SetPrize(table=T, chips=100)),
    ("master bob", m.HandOver(table=T, name="bob")),
    ("handover bob", m.HandOver(table=T, name="bob")),
    ("end", m.EndGame(table=T)),
    ("close", m.CloseTable(table=T)),
    ("close  game over, thanks ", m.CloseTable(table=T, reason="game over, thanks")),
    ("record t9 500", m.GetRecord(table="t9", start=500)),
    ("analyse", m.Analyse(table=T)),
    ("steps 4 2", m.GetReplay(table="4", game=2)),
    ("steps 4 2 40", m.GetReplay(table="4", game=2, start=40)),
    ("analyze t9 2", m.Analyse(table="t9", game=2)),
    ("review 12", m.Review(table=T, step=12)),
    ("follow ann", m.Follow(table=T, name="ann")),
    ("follow", m.Follow(table=T)),
    ("hint", m.Hint(table=T)),
    ("help", m.Help()),
    ("help join", m.Help(topic="join")),
    ("admin auth opsecret", m.AdminAuth(secret="opsecret")),
    ("admin connections", m.AdminConnections()),
    ("admin tables", m.AdminTables()),
    ("admin close t3 abandoned", m.AdminCloseTable(table="t3", reason="abandoned")),
    ("admin closeall empty -", m.AdminCloseTables(empty=True)),
    ("admin closeall any bob squatting", m.AdminCloseTables(creator="bob", reason="squatting")),
    ("admin closeall empty bob", m.AdminCloseTables(empty=True, creator="bob")),
    ("admin kick bob", m.AdminKick(name="bob")),
    ("admin ban bob spam, twice", m.AdminBan(name="bob", reason="spam, twice")),
    ("admin notice restart at 5", m.AdminNotice(text="restart at 5")),
    ("admin shutdown 30 upgrade", m.AdminShutdown(seconds=30, reason="upgrade")),
    ("admin stats", m.AdminStats()),
    ("#12 tables", m.ListTables(id=12)),
    ("at t7 start", m.StartGame(table="t7")),
    ("#3 at t7 play 7h 7d last", m.Act(table="t7", action="play 7H 7D last", id=3)),
    ("JOIN t2", m.Join(table="t2")),
    ("observe t2", m.Spectate(table="t2")),
    ("look", m.Look(table=T)),
    ("look t2", m.Look(table="t2")),
    ("back", m.Join(table=T)),
    ("back t2", m.Join(table="t2")),
    ("hand", m.Look(table=T)),
    ("who", m.Who()),
    ("users", m.Who()),
    ("shout  anyone for switch? ", m.Shout(text="anyone for switch?")),
    ("shouts off", m.HearShouts(on=False)),
    ("shouts ON", m.HearShouts(on=True)),
    ("'good game", m.Say(table=T, text="good game")),
    ("#4 ' well played ", m.Say(table=T, text="well played", id=4)),
    ("p 8h", m.Act(table=T, action="play 8H")),
    ("P 7h 7d last", m.Act(table=T, action="play 7H 7D last")),
    ("m c4", m.Act(table=T, action="move c4")),
    ("8h", m.Act(table=T, action="play 8H")),
    ("qs QH", m.Act(table=T, action="play QS QH")),
    ("10d last", m.Act(table=T, action="play TD last")),
    ("C4", m.Act(table=T, action="move c4")),
    ("at t7 8h", m.Act(table="t7", action="play 8H")),
]


@pytest.mark.parametrize(("line", "expected"), CASES, ids=[c[0] for c in CASES])
def test_every_command(line, expected):
    assert parse_command(line, table=T) == expected


def test_every_command_has_a_case():
    covered = {line.split()[0].lower() for line, _ in CASES}
    covered |= {w for line, _ in CASES for w in line.split()[:3]}
    for command in COMMANDS:
        if command.name == "format":  # no message: the text codec answers it itself
            continue
        assert command.name in covered, command.name


def test_format_is_the_text_codecs_own():
    """The terminal client reads ``format json`` as a command it cannot send."""
    with pytest.raises(CommandError, match="text mode"):
        parse_command("format json", table=T)


ACTIONS = [
    ("move c4", "move c4"),
    ("MOVE C4", "move c4"),
    ("ally west", "ally west"),
    ("ally 2", "ally 2"),
    ("play QH", "play QH"),
    ("play 10h", "play TH"),
    ("play q♥", "play QH"),
    ("play 7H 7D", "play 7H 7D"),
    ("play 7h 7d last", "play 7H 7D last"),
    ("play jk", "play JK"),
    ("draw", "draw"),
    ("pass", "pass"),
    ("suit hearts", "suit hearts"),
    ("suit ♠", "suit spades"),
    ("suit d", "suit diamonds"),
    ("last", "last"),
    ("concede", "concede"),
    ("vote end", "vote end"),
]


@pytest.mark.parametrize(("typed", "notation"), ACTIONS)
def test_every_action_form_bare_and_with_act(typed, notation):
    assert parse_command(typed, table=T) == m.Act(table=T, action=notation)
    assert parse_command(f"act {typed}", table=T) == m.Act(table=T, action=notation)
    assert format_command(m.Act(table=T, action=notation), table=T) == notation


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("jion t1", "unknown command 'jion'; did you mean 'join'?"),
        ("tabels", "unknown command 'tabels'; did you mean 'tables'?"),
        ("craete abbott 4", "unknown command 'craete'; did you mean 'create'?"),
        ("plya QH", "unknown command 'plya'; did you mean 'play'?"),
        ("xyzzy", "unknown command 'xyzzy'; type 'help' for the commands"),
        ("join t1 2 3", "usage: join [TABLE [SEAT]]"),
        ("join t1 north", "SEAT must be a whole number, not 'north'; usage: join [TABLE [SEAT]]"),
        ("create abbott", "usage: create RULESET SEATS [option=value ...]"),
        ("create abbott 4 fast", "expected option=value, not 'fast'"),
        ("say", "say what? usage: say TEXT"),
        ("move z9", "'move z9': expected 'move SQUARE', a square a1..f6 such as c4"),
        ("play", "expected 'play CARD [CARD ...]'"),
        ("play QX", "not a card"),
        ("admin kik bob", "did you mean 'admin kick'?"),
        ("#x tables", "a request tag is #NUMBER, not '#x'"),
        ("tables next", "START must be a whole number"),
        ("tables 1 2 3", "usage: tables [START [COUNT]]"),
        ("", "empty command"),
        ("name ann", "usage: name NAME SECRET"),
        ("name a=b secret", "'a=b' is not a word"),
    ],
)
def test_errors_say_what_was_expected(line, message):
    with pytest.raises(CommandError) as info:
        parse_command(line, table=T)
    assert message in str(info.value)


@pytest.mark.parametrize(
    "amount", ["1_000", "\u0661\u0660\u0660", "\uff11\uff10\uff10", "+7", "-7", "7.0", "0x10"]
)
def test_counts_are_ascii_digits_only(amount):
    """``int()`` takes underscores, a sign and every script's digits; the text mode does not."""
    with pytest.raises(CommandError, match="CHIPS must be a whole number"):
        parse_command(f"prize {amount}", table=T)
    with pytest.raises(CommandError, match="must be a whole number"):
        parse_command(f"join {T} {amount}")
    assert parse_command("prize 0100", table=T) == m.SetPrize(table=T, chips=100)


def test_table_commands_need_a_table():
    for line in ("play QH", "say hi", "leave", "start", "bot 1", "record"):
        with pytest.raises(CommandError, match="no current table"):
            parse_command(line)
    assert parse_command("at t3 play QH") == m.Act(table="t3", action="play QH")


def test_join_alone_takes_a_seat_at_the_current_table():
    """After ``create`` (which makes the new table current), ``join`` alone sits there."""
    assert parse_command("join", table="t9") == m.Join(table="t9")
    assert parse_command("join t1", table="t9") == m.Join(table="t1")
    with pytest.raises(CommandError, match="join which table"):
        parse_command("join")


def test_action_errors_have_the_action_code():
    with pytest.raises(CommandError) as info:
        parse_command("move z9", table=T)
    assert info.value.code == "bad_action"


def test_help_lists_every_command_and_explains_one():
    text = "\n".join(help_lines())
    for command in COMMANDS:
        assert command.usage in text
    assert "play CARD" in text
    assert help_lines("join") == [
        "join [TABLE [SEAT]]: take a seat (seats count from 1; any free one if no SEAT; no"
        " TABLE: the current one)",
        "also: sit",
    ]
    assert help_lines("play")[0].startswith("actions")
    assert help_lines("jion") == ["unknown command 'jion'; did you mean 'join'?"]


def test_completion_words_include_commands_aliases_and_verbs():
    words = command_words()
    assert {"join", "sit", "play", "move", "at", "admin"} <= set(words)


def test_hand_looks_at_the_table_instead_of_suggesting_handover():
    """``hand`` once suggested ``handover``, which hands the game-master role on."""
    assert parse_command("hand", table=T) == m.Look(table=T)
    assert "handover" not in help_lines("hand")[0]


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("tell bob hi", "here it is 'say' (all talk is public)"),
        ("list", "here it is 'tables'"),
        ("resign", "here it is 'concede'"),
        ("p", "p is short for play"),
        ("wh", "did you mean 'who'?"),
        ("8x", "type 'help' for the commands"),
        ("\x1b[4~", "holds a terminal key"),
        ("play 8h\x1b[D", "holds a terminal key"),
    ],
)
def test_a_person_from_another_server_is_pointed_to_the_command(line, says):
    with pytest.raises(CommandError) as info:
        parse_command(line, table=T)
    assert says in str(info.value)


def test_look_with_no_table_says_where_to_look():
    with pytest.raises(CommandError, match="tables lists them"):
        parse_command("look")


def test_new_commands_format_back_to_themselves():
    for message in (m.Look(table=T), m.Who(id=2), m.Shout(text="hi all"), m.HearShouts(on=False)):
        assert parse_command(format_command(message, table=T), table=T) == message


def test_help_with_a_situation_says_what_can_be_done_now():
    lobby = help_lines(now=Situation())
    assert any(line.strip().startswith("name YOURNAME") for line in lobby)
    assert any(line.strip().startswith("who") for line in lobby)
    legal = (*(f"play {r}H" for r in "23456789TJQKA"), "draw")
    turn = help_lines(now=Situation(named=True, table="3", seat=1, state="playing", legal=legal))
    assert "  your turn: play 2H, play 3H" in turn[2] and "(and 2 more)" in turn[2]
    assert not any("name YOURNAME" in line for line in turn)
    master = help_lines(now=Situation(named=True, table="3", seat=0, state="waiting", master=True))
    assert any(line.strip().startswith("start") for line in master)
    watching = help_lines(now=Situation(named=True, table="3", state="playing"))
    assert "  you are watching table 3: join 3 sits you in a free seat" in watching
    assert help_lines("all", now=Situation()) == help_lines()


def test_an_option_value_holding_a_control_character_round_trips_as_a_json_escape():
    """Before: ``set 0=<ESC>`` was written raw, and the line read back as an arrow key
    typed at nc (found by the round-trip property test)."""
    message = m.SetOptions(table="t1", options={"key": "\x1b[A"})
    line = format_command(message, table="t1")
    assert "\x1b" not in line and line == 'set key="\\u001b[A"'
    assert parse_command(line, table="t1") == message


# ------------------------------------------- short forms resolve to the listed action
LISTED = {T: ("play 3D last", "play 9C", "draw")}


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("3d", "play 3D last"),  # only its play with the call is offered
        ("p 3d", "play 3D last"),
        ("at t1 3D", "play 3D last"),
        ("9c", "play 9C"),  # listed as typed
        ("play 3d", "play 3D"),  # the long form is taken as written
        ("3d last", "play 3D last"),
        ("4h", "play 4H"),  # not listed: the server says why
    ],
)
def test_a_short_form_is_the_action_the_legal_list_shows(line, action):
    assert parse_command(line, table=T, legal=LISTED) == m.Act(table=T, action=action)


def test_a_short_form_with_several_listed_endings_stays_as_typed():
    legal = {T: ("play 3D last", "play 3D 3C last")}
    assert parse_command("3d", table=T, legal=legal).action == "play 3D last"
    legal = {T: ("play 8H hearts", "play 8H spades")}
    assert parse_command("8h", table=T, legal=legal).action == "play 8H"
    assert parse_command("3d", table="t2", legal=LISTED).action == "play 3D"  # another table


def test_the_text_codec_resolves_a_bare_card_against_the_turn_it_sent():
    from protocol.text_codec import ServerTextCodec

    codec = ServerTextCodec()
    codec.receive_data(b"join t1\n")
    assert isinstance(codec.next_message(), m.Hello)
    assert isinstance(codec.next_message(), m.Join)
    codec.encode(m.Turn(table=T, seq=3, seat=0, to_act=0, legal=("play 3D last", "draw")))
    codec.receive_data(b"3d\n")
    assert codec.next_message() == m.Act(table=T, action="play 3D last")
