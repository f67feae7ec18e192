"""The players' tournament requests: list, show, host, enter, withdraw, start, pause.

Each handler answers through ``session.deliver``; the work is the tournaments
service's (``server.tournaments.service``), whose ``BookError`` carries the wire
error code; the ``tournament`` reply is the service's (``Tournaments.message``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import engine
from protocol import messages as m
from protocol.words import plural
from server.core import wire
from server.tournaments.book import Book, BookError
from server.tournaments.service import Tournaments
from server.transport.session import ClientSession

Handler = Callable[[ClientSession, Any], Awaitable[None]]


def _service(session: ClientSession, req: int | None) -> Tournaments | None:
    service = session.services.tournaments
    if service is None:
        session.deliver(wire.error(req, "not_allowed", "this server runs no tournaments"))
    return service


def _named(session: ClientSession, req: int | None) -> str | None:
    if session.name is None:
        session.deliver(wire.error(req, "need_name", "claim a name first"))
    return session.name


def _mine(service: Tournaments, session: ClientSession, number: int | None) -> Book:
    """Tournament ``number``, or (None) the one the session's player plays in, else the
    last he played in: a player who asks for the standings once the last round is over
    wants its final ones, not to be told he plays in none."""
    if number is not None:
        return service.get(number)
    name = session.name
    book = None if name is None else service.tournament_of(name)
    if book is None and name is not None:
        played = [b for b in service.books.values() if name in b.entrants]
        book = max(played, key=lambda b: b.number, default=None)
    if book is None:
        raise BookError("you play in no tournament: name one", "no_tournament")
    return book


async def list_tournaments(session: ClientSession, msg: m.ListTournaments) -> None:
    if (service := _service(session, msg.id)) is None:
        return
    books = sorted(service.books.values(), key=lambda b: b.number)
    session.deliver(m.Tournaments(tournaments=tuple(b.summary() for b in books), id=msg.id))


async def get_tournament(session: ClientSession, msg: m.GetTournament) -> None:
    if (service := _service(session, msg.id)) is None:
        return
    try:
        book = _mine(service, session, msg.tournament)
        session.deliver(service.message(book, msg.id, record=msg.record))
    except BookError as exc:
        session.deliver(wire.error(msg.id, exc.code, str(exc)))


async def create_tournament(session: ClientSession, msg: m.CreateTournament) -> None:
    if (service := _service(session, msg.id)) is None or (name := _named(session, msg.id)) is None:
        return
    pairs = [tuple(line.split()) for line in msg.apart]
    if any(len(p) != 2 for p in pairs):
        session.deliver(wire.error(msg.id, "bad_options", "apart: each pair is two names"))
        return
    try:
        book = await service.create(
            name,
            msg.ruleset,
            rounds=msg.rounds,
            minutes=msg.minutes,
            seats=msg.seats,
            sizes=None if msg.seats is None else (msg.seats,),
            format=msg.format,
            wait_seconds=float(msg.wait),
            by_strength=msg.by_strength,
            forbidden=[(a, b) for a, b in pairs],
            final=msg.final,
            max_bots=msg.bots,
            options=dict(msg.options),
        )
    except BookError as exc:
        session.deliver(wire.error(msg.id, exc.code, str(exc)))
        return
    minutes = f"{book.minutes:g} minute" + ("" if f"{book.minutes:g}" == "1" else "s")
    if book.format == "arena":
        shape = f"an arena of {minutes}"
    else:
        rounds = plural(book.rounds, "round") if book.rounds else "rounds as the players call for"
        shape = f"{rounds} of {minutes}"
    text = (
        f"tournament {book.number} is open: {book.ruleset}, {shape}; players type: enter"
        f" {book.number}; you start it: tournament {book.number} start"
    )
    session.deliver(wire.ok(msg.id, None, text))


def rating_of(session: ClientSession, name: str, ruleset: str) -> float:
    """What round 1 seats ``name`` by: his rating in the ruleset's family, taken low while
    it is unsure (mu - 3 sigma, openskill's ordinal); 0 for a player not rated yet."""
    profiles = getattr(session.services.ops, "profiles", None)
    if profiles is None or ruleset not in engine.rulesets():
        return 0.0
    rating = profiles.rating(name, engine.ruleset(ruleset).family)
    return 0.0 if rating is None else float(rating.mu - 3 * rating.sigma)


async def enter_tournament(session: ClientSession, msg: m.EnterTournament) -> None:
    if (service := _service(session, msg.id)) is None or (name := _named(session, msg.id)) is None:
        return
    try:
        ruleset = service.get(msg.tournament).ruleset
        book = await service.enter(msg.tournament, name, rating_of(session, name, ruleset))
    except BookError as exc:
        session.deliver(wire.error(msg.id, exc.code, str(exc)))
        return
    entrant = book.entrants[name]
    where = f"from round {entrant.first_round}" if book.started else "when it starts"
    text = f"you are in tournament {book.number}; you play {where}"
    session.deliver(wire.ok(msg.id, None, text))


async def withdraw(session: ClientSession, msg: m.Withdraw) -> None:
    if (service := _service(session, msg.id)) is None or (name := _named(session, msg.id)) is None:
        return
    try:
        number = _mine(service, session, msg.tournament).number
        who = msg.name or name
        book = await service.withdraw(number, who, by=name, operator=session.operator)
    except BookError as exc:
        session.deliver(wire.error(msg.id, exc.code, str(exc)))
        return
    whose = "you withdrew" if who == name else f"{who} is dropped"
    text = f"{whose} from tournament {book.number}; the points earned stay in the standings"
    session.deliver(wire.ok(msg.id, None, text))


async def start_tournament(session: ClientSession, msg: m.StartTournament) -> None:
    if (service := _service(session, msg.id)) is None or (name := _named(session, msg.id)) is None:
        return
    try:
        book = await service.start(msg.tournament, name, session.operator)
    except BookError as exc:
        session.deliver(wire.error(msg.id, exc.code, str(exc)))
        return
    text = (
        f"tournament {book.number} starts: {plural(book.rounds, 'round')}; round 1 is being seated"
    )
    session.deliver(wire.ok(msg.id, None, text))


async def end_tournament(session: ClientSession, msg: m.EndTournament) -> None:
    if (service := _service(session, msg.id)) is None or (name := _named(session, msg.id)) is None:
        return
    try:
        book = await service.end(msg.tournament, name, session.operator)
    except BookError as exc:
        session.deliver(wire.error(msg.id, exc.code, str(exc)))
        return
    text = f"tournament {book.number} ends: games still running are scored as they stand"
    session.deliver(wire.ok(msg.id, None, text))


async def hold_tournament(
    session: ClientSession, msg: m.PauseTournament | m.ResumeTournament
) -> None:
    if (service := _service(session, msg.id)) is None or (name := _named(session, msg.id)) is None:
        return
    paused = isinstance(msg, m.PauseTournament)
    try:
        book = await service.hold(msg.tournament, name, paused, session.operator)
    except BookError as exc:
        session.deliver(wire.error(msg.id, exc.code, str(exc)))
        return
    if paused:
        text = (
            f"tournament {book.number} is paused: games finish their hand, then wait; the"
            f" round's clock stops; tournament {book.number} resume goes on"
        )
    else:
        text = f"tournament {book.number} resumes: the games play on and the round's clock runs"
    session.deliver(wire.ok(msg.id, None, text))


async def sit_out(session: ClientSession, msg: m.SitOut) -> None:
    if (service := _service(session, msg.id)) is None or (name := _named(session, msg.id)) is None:
        return
    try:
        book = await service.pause(_mine(service, session, msg.tournament).number, name)
    except BookError as exc:
        session.deliver(wire.error(msg.id, exc.code, str(exc)))
        return
    text = f"you sit out tournament {book.number}'s next rounds; enter {book.number} to be back"
    session.deliver(wire.ok(msg.id, None, text))


#: The handler of each tournament request.
TOURNAMENT_HANDLERS: dict[type[m.Message], Handler] = {
    m.ListTournaments: list_tournaments,
    m.GetTournament: get_tournament,
    m.CreateTournament: create_tournament,
    m.EnterTournament: enter_tournament,
    m.Withdraw: withdraw,
    m.StartTournament: start_tournament,
    m.EndTournament: end_tournament,
    m.SitOut: sit_out,
    m.PauseTournament: hold_tournament,
    m.ResumeTournament: hold_tournament,
}
