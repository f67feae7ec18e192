"""After-game analysis: how much each decision of a finished game cost its player.

For every decision of every seat (an action taken on its own turn when more
than one was open to it) the family's search values the legal alternatives
*from that seat's own information*: the view the seat had at that moment and
the events it had been shown, exactly what a strategy is given (never the
record's hidden cards). The value of an action is the seat's expected score,
on the search's own scale from 0 to 1:

- abbott: the hand's points to the seat over 10 (4 seats), or in the
  2-player game its share of the hand (a win 1, a tie 1/2, a loss 0); in a
  2-player endgame the exact solver gives the true result instead
  (``engine.strategies.abbott.hint``);
- shedding: the search's reward, the seat's place in the finishing order
  (first out 1, last 0), an estimate by cards left where a playout stops;
- kilodney: the search's reward, 1 for a won game and otherwise the seat's
  gain in the hand against the others', squashed into 0..1.

Each alternative is played out in the same sampled worlds (the unseen cards
dealt consistently with the view, as the search does), ``worlds`` of them,
and valued by the family's rollout policy; the differences are paired world
by world. A decision is **marked** when the played action's expected score is
below the best alternative's by more than ``MARGIN``: an *inaccuracy* from
0.05, a *mistake* from 0.10, a *blunder* from 0.20. A sampled loss is graded
by what it is sure to be, its estimate less two standard errors of the paired
difference, so that noise is not marked and a mark near a floor is not
promoted by luck; where that margin straddles the mistake's or the blunder's
floor, fresh worlds are added (up to ``MORE_WORLDS`` times ``worlds``) until
it does not. In 2-player abbott, where nothing is hidden and the playouts' error
is their policy's bias rather than noise, an endgame decision the proofs did
not settle is settled by the solver whether the playouts saw a loss or not,
and a sampled mark elsewhere is checked by it (``_check``); a sampled mark
the solver cannot confirm is at most an inaccuracy.
A sampled ``?`` or ``??`` stands only where the sample can be trusted
(``_trusted``): not in the first round of a hand (every seat's first decision,
where the rest of the hand is all rollout and the policy's bias outweighs the
choice), and only where a second rollout policy (``SecondOpinion``: the first's
moves mixed with random ones) also finds the played action at least a mistake's
floor below the better one. Elsewhere such a mark is capped at an inaccuracy, and
``capped`` says why.
A player's **accuracy** is the share of his judged decisions that were not
marked.

Everything here is pure and deterministic for a seed: each decision draws
from its own generator (the seed and the decision's index), so the result
does not depend on how decisions are shared among worker processes.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from engine.actions import Action, Ally, Move, Play, Vote
from engine.registry import record_start
from engine.strategies import get_strategy
from engine.strategies.search import play_out
from engine.views import View, is_abbott, is_kilodney, is_shedding
from engine.vocabulary import seat_of

#: The smallest loss of expected score that is marked, and the grades by size.
MARGIN = 0.05
GRADES = (("blunder", 0.20), ("mistake", 0.10), ("inaccuracy", MARGIN))
#: A sampled loss is graded this many standard errors below its estimate.
CONFIDENCE = 2.0
#: Where that could change a mark, fresh worlds are added, up to this many times ``worlds``.
MORE_WORLDS = 8
#: The most alternatives valued at one decision (the played one always among them).
MAX_CANDIDATES = 8
#: Cards left on a 2-player abbott grid from which the exact solver is tried.
SOLVE_AT = 12
#: A hand's first this many rounds are early: a sampled mark there is capped at ``?!``.
EARLY_ROUNDS = 1
#: How often the second rollout policy plays a random move instead of the first's.
SECOND_WANDER = 0.5
#: Why a sampled mark was capped (``Decision.capped``).
EARLY, DISAGREE = "early in the hand", "a second rollout policy disagrees"


@dataclass(frozen=True, slots=True)
class Settings:
    """The analysis budget: sampled worlds a decision, playout length, solver limits."""

    seed: int = 1
    worlds: int = 24
    depth: int = 40
    solve_at: int = SOLVE_AT
    node_limit: int = 200_000


@dataclass(slots=True)
class Decision:
    """One judged decision: ``index`` is the action's place in the record
    (the replay's step ``index + 1``), ``values`` each alternative's expected
    score for the seat, ``loss`` the played action's shortfall against
    ``best``, ``exact`` whether the solver (not sampling) valued every alternative.
    ``proved`` names the alternatives whose value the solver proved (all of them when
    ``exact``; some when it stopped at its limit), and ``exact_mark`` says the mark
    stands on proofs alone: the played action is proved worse than another by at
    least the mark's loss, whatever the sampled values say."""

    index: int
    seat: int
    played: str
    best: str
    values: dict[str, float]
    loss: float
    exact: bool
    mark: str | None = None
    error: float = 0.0  # the standard error of the sampled loss (0 when exact)
    proved: list[str] = field(default_factory=list)
    exact_mark: bool = False
    capped: str | None = None  #: why a sampled ``?``/``??`` was capped at ``?!`` (``_trusted``)


@dataclass(slots=True)
class PlayerSummary:
    seat: int
    name: str
    decisions: int
    marked: dict[str, int]
    accuracy: float
    mean_loss: float
    costliest: list[int] = field(default_factory=list)  # decision indexes, costliest first


def grade(loss: float, error: float, exact: bool) -> str | None:
    """The mark for a loss of expected score (see the module doc): an exact loss is
    graded as it is, a sampled one by what it is sure to be, ``CONFIDENCE`` standard
    errors below the estimate (a sampled 0.27 ± 0.05 is a mistake: the reference
    with ten times the worlds put such losses under 0.20 as often as not)."""
    sure = loss if exact else loss - CONFIDENCE * error
    for name, floor in GRADES:
        if sure >= floor - 1e-9:
            return name
    return None


def _in_doubt(loss: float, error: float) -> bool:
    """Whether more worlds could change a sampled loss's mark between none, ``?`` and
    ``??``: a floor from 0.10 up lies within ``CONFIDENCE`` errors of the loss."""
    return any(abs(loss - floor) < CONFIDENCE * error for _name, floor in GRADES[:2])


# ----------------------------------------------------------- the decisions
def candidates(family: str, view: View, legal: Sequence[Action]) -> list[Action]:
    """The alternatives the analysis values, as the family's search would consider them."""
    if family == "abbott" and is_abbott(view):
        kept: list[Action] = [a for a in legal if isinstance(a, Move | Ally)]
        votes = view["votes"]
        if view["viewer"] not in votes and len(votes) == view["seats"] - 1:
            kept += [a for a in legal if isinstance(a, Vote)]  # a vote that ends the hand
        return kept
    if family == "shedding" and is_shedding(view):
        from engine.actions import Last

        # As the search: a suit is named and a last card announced by rule of thumb.
        if view["awaiting"] == "nominate a suit" or any(isinstance(a, Last) for a in legal):
            return []
    return list(legal)


def alternatives(
    family: str, view: View, legal: Sequence[Action], played: Action | str
) -> list[Action]:
    """The alternatives a decision is judged among: the search's ``candidates``, and the
    played action too when it is one the search never considers but a player chose (a
    concession or a vote in abbott: throwing away a won hand is the costliest decision of
    all, and must be judged like any other)."""
    kept = candidates(family, view, legal)
    if not kept:
        return kept  # chosen by rule of thumb: not a decision the search judges
    if str(played) not in {str(a) for a in kept}:
        kept += [a for a in legal if str(a) == str(played)]
    return kept


def decision_points(record: dict[str, Any]) -> list[int]:
    """The indexes of the record's actions that were decisions: taken by the
    seat to act, among two or more alternatives that include the played one."""
    if "actions" not in record or "seed" not in record:
        raise ValueError("analysis needs a full record (seed and actions), not an event log")
    game = record_start(record)
    out = []
    for i, (seat, notation) in enumerate(record["actions"]):
        if seat == game.to_act:
            legal = game.legal_actions(seat)
            played = game.normalize(seat, Action.parse(notation))
            kept = alternatives(game.family, game.view(seat), legal, played)
            if len(kept) > 1 and played in kept:
                out.append(i)
        game.apply(seat, notation)
    return out


def analyse(record: dict[str, Any], indexes: Iterable[int], settings: Settings) -> list[Decision]:
    """Judge the record's decisions at ``indexes`` (from ``decision_points``).

    The game is replayed from the record; at each decision only the seat's
    view and the events that seat was shown reach the judge."""
    wanted = sorted(set(indexes))
    game = record_start(record)
    family = game.family
    seen: list[Any] = [_memory(family) for _ in range(game.seats)]
    for ev in game.opening_events:
        for s in range(game.seats):
            _observe(seen[s], ev.present(s))
    tables: dict[int, Any] = {}
    out: list[Decision] = []
    todo = iter(wanted)
    nxt = next(todo, None)
    hand, began = None, 0  # the hand under way, and the index of its first action
    for i, (seat, notation) in enumerate(record["actions"]):
        if nxt is None:
            break
        if getattr(game, "hand_number", 0) != hand:
            hand, began = getattr(game, "hand_number", 0), i
        if i == nxt:
            view = game.view(seat)
            legal = game.legal_actions(seat)
            played = str(game.normalize(seat, Action.parse(notation)))
            rng = random.Random(f"{settings.seed}:{i}")
            table = tables.setdefault(view.get("hand_number", 0), _solver_table(family))
            early = is_early(view, i - began)
            out.append(judge(i, view, seen[seat], legal, played, rng, settings, table, early=early))
            nxt = next(todo, None)
        for ev in game.apply(seat, notation):
            for s in range(game.seats):
                _observe(seen[s], ev.present(s))
    return out


def is_early(view: View, into_hand: int) -> bool:
    """Whether a decision comes in its hand's first ``EARLY_ROUNDS`` rounds: abbott by
    its own round count, the others by the actions taken in the hand (``into_hand``)
    against the seats (every seat's first turn is the first round)."""
    if is_abbott(view):
        return view["round"] <= EARLY_ROUNDS
    return into_hand < EARLY_ROUNDS * view["seats"]


def _memory(family: str) -> Any:
    """What a seat remembers of the events it was shown: the search strategy's memory."""
    strategy = get_strategy("search", family)
    return getattr(strategy, "memory", None)


def _observe(memory: Any, event: dict[str, Any]) -> None:
    if memory is not None:
        memory.observe(event)


def _solver_table(family: str) -> Any:
    if family != "abbott":
        return None
    from engine.strategies.abbott_solver import SolverTable

    return SolverTable(max_entries=500_000)


# ------------------------------------------------------------- a hint
#: A hint's budget: fewer worlds than the analysis, so that a person waits about a second.
HINT = Settings(worlds=12)


def advise(
    view: View,
    shown: Iterable[dict[str, Any]],
    legal: Sequence[Action],
    settings: Settings = HINT,
) -> Decision:
    """The analysis's judgement of the decision open now, for a player's ``hint``: each
    alternative valued from what the seat may know, its ``view`` and the events it was
    ``shown`` (their presentation to it, in order; a seat that arrived mid-game knows
    less, and the advice is weaker for it, never better informed than the player).
    ``best`` is the advice; ``played`` is the family heuristic's first candidate. A
    choice the search makes by rule of thumb (a suit to name, a last card to announce) is
    the heuristic strategy's, with no values."""
    family = view["family"]
    kept = candidates(family, view, legal)
    if not kept:
        rule = get_strategy("heuristic", family).choose(view, list(legal), random.Random(0))
        return Decision(-1, seat_of(view), str(rule), str(rule), {}, 0.0, False)
    memory = _memory(family)
    for event in shown:
        _observe(memory, event)
    first = str(kept[0])
    rng = random.Random(f"{settings.seed}:hint:{view.get('hand_number', 0)}")
    return judge(-1, view, memory, legal, first, rng, settings, _solver_table(family))


def advise_at(record: dict[str, Any], seat: int, settings: Settings = HINT) -> Decision:
    """``advise`` for ``seat`` in the game ``record`` stands at (a running game's, kept
    by its server): the game replayed, with the events ``seat`` was shown, in order."""
    from engine.registry import replay

    shown: list[dict[str, Any]] = []
    game = replay(record, lambda events: shown.extend(ev.present(seat) for ev in events))
    return advise(game.view(seat), shown, game.legal_actions(seat), settings)


#: Alternatives a hint's sentence names beside its advice.
HINT_ALTERNATIVES = 3


def hint_text(decision: Decision, legal: int) -> str:
    """The advice as a sentence: the best action, its expected score, the runners-up
    (``legal``: how many actions were open)."""
    if legal == 1:
        return f"hint: {decision.best} (the only legal move)"
    if not decision.values:
        return f"hint: {decision.best} (by rule of thumb)"
    if decision.exact:
        words = {1.0: "wins", 0.5: "ties", 0.0: "loses"}
        best = words.get(decision.values[decision.best], "")
        return f"hint: {decision.best} {best} with best play (solved exactly)".replace("  ", " ")
    ranked = sorted(decision.values.items(), key=lambda kv: -kv[1])
    others = "; ".join(f"{a} {v:.2f}" for a, v in ranked[1 : 1 + HINT_ALTERNATIVES])
    best = f"hint: {decision.best} (expected score {decision.values[decision.best]:.2f}"
    return f"{best}; {others})" if others else f"{best})"


# ------------------------------------------------------------- the judge
def judge(
    index: int,
    view: View,
    memory: Any,
    legal: Sequence[Action],
    played: str,
    rng: random.Random,
    settings: Settings,
    table: Any = None,
    *,
    early: bool = False,
) -> Decision:
    """Value the alternatives of one decision from the seat's ``view`` and ``memory``;
    ``early``: the decision is in its hand's first round (``is_early``), where a sampled
    mark is capped."""
    family = view["family"]
    me = seat_of(view)
    kept = alternatives(family, view, legal, played)
    every = {str(a): a for a in kept}
    bounds = _proofs(view, kept, settings, table) if family == "abbott" else None
    proved = [a for a, (lo, hi) in (bounds or {}).items() if lo == hi]
    if bounds is not None and len(proved) == len(kept):
        values, error = {a: lo for a, (lo, _hi) in bounds.items()}, 0.0
    else:
        kept = _shortlist(family, view, memory, kept, played)
        samples = _sample(family, view, memory, kept, rng, settings)
        values = {str(a): sum(v) / len(v) for a, v in zip(kept, samples, strict=True)}
        top = max(values, key=lambda a: (values[a], a == played))
        names = [str(a) for a in kept]
        error = _paired_error(samples[names.index(top)], samples[names.index(played)])
        if values[top] - values[played] >= MARGIN:
            # The best of several noisy means is biased upwards: measure the
            # loss again against the played action on fresh worlds.
            pair = [a for a in kept if str(a) in (top, played)]
            again = _sample(family, view, memory, pair, rng, settings)
            by_name = {str(a): v for a, v in zip(pair, again, strict=True)}
            error = _paired_error(by_name[top], by_name[played])
            rounds, most = 1, MORE_WORLDS if index >= 0 else 1  # a hint shows no mark
            while rounds < most and _in_doubt(_mean(by_name, top, played), error):
                # Close to a floor: more fresh worlds, pooled, until the mark is clear.
                more = _sample(family, view, memory, pair, rng, settings)
                for a, v in zip(pair, more, strict=True):
                    by_name[str(a)] += v
                error = _paired_error(by_name[top], by_name[played])
                rounds += 1
            for name, v in by_name.items():
                values[name] = sum(v) / len(v)
        if bounds is not None:
            # A sampled value never contradicts a proof: a proved option is worth what
            # was proved, an unproved one stays within the bounds the solver left it.
            values = {a: min(max(v, bounds[a][0]), bounds[a][1]) for a, v in values.items()}
            proved = [a for a in proved if a in values]
    gap = _proved_gap(bounds, values, played) if bounds is not None else None
    if gap is not None:
        # The played action is proved worse than another by ``gap`` at least: the mark
        # stands on the proof, with no sampling error (a proved loss where a win was
        # proved open is a blunder, exactly).
        best, loss, error = gap
    else:
        best = max(values, key=lambda a: (values[a], a == played))
        loss = max(0.0, values[best] - values[played])
        if played in proved and best in proved:
            error = 0.0
    exact = bounds is not None and len(proved) == len(values)
    dec = Decision(index, me, played, best, values, round(loss, 4), exact)
    dec.error = round(error, 4)
    dec.proved = sorted(proved)
    # Two proved values make an exact mark; no mark between them is exact only when no
    # unproved alternative could do better (``_check`` looks at those).
    both = played in proved and best in proved and loss >= MARGIN - 1e-9
    dec.exact_mark = exact or gap is not None or both
    dec.mark = grade(loss, error, dec.exact_mark)
    checked = index >= 0 and family == "abbott" and view["seats"] == 2  # a hint shows no mark
    if checked and not dec.exact_mark and (bounds is not None or dec.mark):
        dec = _check(dec, view, every, bounds, settings, table)
    if dec.mark and not dec.exact_mark and _moves_after(view, every.get(played)):
        dec.mark = "inaccuracy"  # the rollout's move after it is in its value
    sampled = dec.mark in ("mistake", "blunder") and not dec.exact_mark
    if index >= 0 and sampled and played != "concede":  # a conceded hand is lost: no policy
        pair = [every[a] for a in (dec.best, played) if a in every]
        dec = _trusted(dec, early, lambda: _second_loss(view, memory, pair, rng, settings))
    return dec


def _trusted(dec: Decision, early: bool, second: Callable[[], float]) -> Decision:
    """A sampled ``?`` or ``??`` capped at ``?!`` where its sample cannot be trusted:
    ``early`` in the hand, or where the ``second`` rollout policy's loss for the played
    action is under a mistake's floor (the first policy's bias alone made the mark).
    The second opinion is asked only when the first two tests leave the mark standing."""
    if early:
        return replace(dec, mark="inaccuracy", capped=EARLY)
    if second() < GRADES[1][1] - 1e-9:
        return replace(dec, mark="inaccuracy", capped=DISAGREE)
    return dec


class SecondOpinion:
    """An adapter whose rollout policy is another's moves mixed with random ones
    (``SECOND_WANDER`` of the time): a second policy with other biases, to tell a loss
    the game holds from one the first policy's habits make."""

    def __init__(self, adapter: Any) -> None:
        self.adapter = adapter

    def __getattr__(self, name: str) -> Any:
        return getattr(self.adapter, name)

    def rollout(self, game: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        if rng.random() < SECOND_WANDER:
            return legal[rng.randrange(len(legal))]
        action: Action = self.adapter.rollout(game, seat, legal, rng)
        return action


def _second_loss(
    view: View,
    memory: Any,
    pair: Sequence[Action],
    rng: random.Random,
    settings: Settings,
) -> float:
    """The played action's loss against the better one (``pair``: better, played) by
    the second rollout policy, on ``settings.worlds`` fresh worlds."""
    if len(pair) < 2:
        return 1.0  # nothing to compare with: the mark stands
    samples = _sample(view["family"], view, memory, pair, rng, settings, second=True)
    return (sum(samples[0]) - sum(samples[1])) / len(samples[0])


def _moves_after(view: View, action: Action | None) -> bool:
    """Whether the seat still moves after ``action`` this turn: an alliance, or a vote
    that does not end the hand (abbott). Sampled, such an action is worth what the
    rollout policy's move after it is worth, not the player's own next move (which is
    judged on its own), so its sampled loss says more of the policy than of the
    action: a mark there is a hint at most."""
    if isinstance(action, Ally):
        return True
    votes = view["votes"] if is_abbott(view) else []
    return isinstance(action, Vote) and len(votes) < view["seats"] - 1


def _check(
    dec: Decision,
    view: View,
    by_name: dict[str, Action],
    bounds: dict[str, tuple[float, float]] | None,
    settings: Settings,
    table: Any,
) -> Decision:
    """A 2-player abbott decision the proofs did not settle, settled by the solver.

    Why: there every world is the same (nothing is hidden), so the playouts'
    error is not noise that more worlds average away but the bias of the rollout
    policy, which punishes moves a best reply would answer. Measured against the
    truth (``bench/marks.py``), most sampled blunders there were optimal moves, and
    most missed blunders were moves the playouts saw no loss in. So in an endgame
    (``bounds``: what the decision's own solve proved) the position after the
    played move is solved within the node limit, and when that does not settle
    it, the decision is solved again with ``ESCALATE`` times the limit (the table
    keeps the first solve's work): an alternative proved better than the played
    move makes an exact mark; every alternative proved no better, an exact absence
    of one. Further from the end (no ``bounds``), only a sampled mark is checked,
    by solving the positions after the played and the better move. Unsettled, the
    sampled loss stands on the playouts alone, which were wrong more often than
    right there: a mark is an inaccuracy (a hint), never a mistake or a blunder."""
    played = dec.played
    if bounds is None:
        mine = _solved_value(view, by_name.get(played), settings, table)
        found = {dec.best: _solved_value(view, by_name.get(dec.best), settings, table)}
        settled = mine is not None and found[dec.best] is not None
    else:
        mine, found, settled = _settle(view, by_name, bounds, played, settings, table)
    if mine is None or not settled:
        if dec.mark and isinstance(by_name.get(played), Move):
            dec.mark = "inaccuracy"  # a hint, not a verdict
        return dec  # (a concession's cost needs no playout policy: a conceded hand is lost)
    best = max(found, key=lambda a: found[a] or 0.0, default=played)
    top = max(mine, found.get(best) or 0.0)
    best = best if top > mine else played
    loss = round(top - mine, 4)
    return replace(
        dec,
        best=best,
        values={**dec.values, played: mine, best: top},
        loss=loss,
        error=0.0,
        proved=sorted({*dec.proved, played, best}),
        exact_mark=True,
        mark=grade(loss, 0.0, True),
    )


#: How many times the node limit a second solve of an unsettled endgame decision may use.
ESCALATE = 5


def _settle(
    view: View,
    by_name: dict[str, Action],
    bounds: dict[str, tuple[float, float]],
    played: str,
    settings: Settings,
    table: Any,
) -> tuple[float | None, dict[str, float | None], bool]:
    """The played move's exact value, the alternatives proved better than it (with their
    values), and whether that settles the decision: an alternative is proved better by
    the margin, or none can be better."""

    def verdict(
        mine: float | None, bounds: dict[str, tuple[float, float]]
    ) -> tuple[float | None, dict[str, float | None], bool]:
        if mine is None:
            return None, {}, False
        rivals = {a: b for a, b in bounds.items() if a != played}
        better = {a: lo for a, (lo, hi) in rivals.items() if lo == hi and lo > mine}
        gap = max(better.values(), default=mine) - mine >= MARGIN - 1e-9
        none = all(hi - mine < MARGIN - 1e-9 for _lo, hi in rivals.values())
        return mine, dict(better), gap or none

    lo, hi = bounds[played]
    mine = lo if lo == hi else _solved_value(view, by_name.get(played), settings, table)
    first = verdict(mine, bounds)
    if first[2]:
        return first
    harder = replace(settings, node_limit=settings.node_limit * ESCALATE)
    again = _proofs(view, list(by_name.values()), harder, table)
    if again is None:
        return first
    lo, hi = again[played]
    return verdict(mine if mine is not None else lo if lo == hi else None, again)


def _solved_value(
    view: View, action: Action | None, settings: Settings, table: Any
) -> float | None:
    """The exact value to the seat to act of ``action`` in a 2-player abbott position
    (a win 1, a tie 1/2, a loss 0), by solving the position it leads to within the
    node limit; ``None`` when not solved (or when the move ends the hand: the solve of
    the decision itself valued such a move already)."""
    from engine.abbott.game import Abbott
    from engine.strategies.abbott_solver import solve

    if action is None or not isinstance(action, Move):
        return None
    game = Abbott.from_view(view)
    me = seat_of(view)
    game.apply(me, action)
    if game.over or game.hand_number != view["hand_number"] or game.to_act is None:
        return None
    result = solve(game.view(game.to_act), settings.node_limit, table)
    if not result.solved:
        return None
    return 0.5 if result.winner is None else 1.0 if result.winner == me else 0.0


def _proved_gap(
    bounds: dict[str, tuple[float, float]], values: dict[str, float], played: str
) -> tuple[str, float, float] | None:
    """``(best, loss, 0.0)`` when the solver proved the played action worse than another
    by at least the margin (the other's proved floor over the played one's proved
    ceiling), else ``None``."""
    ceiling = bounds[played][1]
    floor, best = max((lo, a) for a, (lo, _hi) in bounds.items() if a in values)
    if floor - ceiling < MARGIN - 1e-9:
        return None
    return best, max(floor - ceiling, values[best] - values[played]), 0.0


def _proofs(
    view: View, kept: Sequence[Action], settings: Settings, table: Any
) -> dict[str, tuple[float, float]] | None:
    """What the solver proved of each alternative in a small 2-player abbott position:
    the floor and ceiling of its value (equal when proved; 0 and 1 when the solver
    says nothing of it), or ``None`` where the solver is not tried. Every proof counts,
    even when the solver stopped at its limit before proving the others."""
    from engine.strategies.abbott_solver import cards_left, solve

    if view["seats"] != 2 or view.get("over") or view.get("turn_of") is None:
        return None
    if cards_left(view) > settings.solve_at:
        return None
    result = solve(view, settings.node_limit, table)
    worth = {1: 1.0, 0: 0.5, -1: 0.0}
    out: dict[str, tuple[float, float]] = {}
    for a in kept:
        name = str(a)
        if name == "concede":
            out[name] = (0.0, 0.0)  # a side is one player: a concession gives the hand away
        elif name in result.bounds:
            lo, hi = result.bounds[name]
            out[name] = (worth[lo], worth[hi])
        else:
            out[name] = (0.0, 1.0)
    return out


def _shortlist(
    family: str, view: View, memory: Any, kept: list[Action], played: str
) -> list[Action]:
    """At most ``MAX_CANDIDATES`` alternatives: the played one and the family
    heuristic's best rated (a draw or pass is always kept, and in abbott a vote, an
    alliance or a concession)."""
    if len(kept) <= MAX_CANDIDATES:
        return kept
    if is_shedding(view):
        from engine.strategies.shedding import _codes, rate_play, view_table

        pt, hand = view_table(view), _codes(view["hand"])
        rated = [(rate_play(view, a, hand, pt) if isinstance(a, Play) else 99.0, a) for a in kept]
    elif is_kilodney(view):
        from engine.strategies.kilodney import rate_plays

        played_cards = memory.played_for(view) if memory is not None else None
        plays = [a for a in kept if isinstance(a, Play)]
        rated = list(rate_plays(view, plays, played_cards))
        rated += [(99.0, a) for a in kept if not isinstance(a, Play)]
    elif is_abbott(view):
        from engine.strategies.abbott import Position, rank_moves

        # By the heuristic's worth after the next player's greedy reply (in the order
        # the moves were listed, a take that wins the hand could be left out).
        moves = [a for a in kept if isinstance(a, Move)]
        rated = list(rank_moves(Position.from_view(view), moves, seat_of(view)))
        rated += [(99.0, a) for a in kept if not isinstance(a, Move)]
    else:
        rated = [(0.0, a) for a in kept]
    rated.sort(key=lambda wa: -wa[0])
    top = [a for _, a in rated if str(a) != played][: MAX_CANDIDATES - 1]
    return [a for a in kept if str(a) == played or a in top]


def _mean(samples: dict[str, list[float]], top: str, played: str) -> float:
    """The mean paired loss of ``played`` against ``top``."""
    return (sum(samples[top]) - sum(samples[played])) / len(samples[top])


def _paired_error(best: Sequence[float], mine: Sequence[float]) -> float:
    n = len(best)
    diffs = [b - m for b, m in zip(best, mine, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    return math.sqrt(var / n)


def _sample(
    family: str,
    view: View,
    memory: Any,
    kept: Sequence[Action],
    rng: random.Random,
    settings: Settings,
    second: bool = False,
) -> list[list[float]]:
    """Each alternative played out in the same ``settings.worlds`` worlds (by the
    ``SecondOpinion`` policy when ``second``)."""
    adapter, proto = _adapter(family, view, memory)
    if second:
        adapter = SecondOpinion(adapter)
    me = seat_of(view)
    out: list[list[float]] = [[] for _ in kept]
    for _ in range(settings.worlds):
        world = adapter.world(view, proto, rng)
        seed = rng.getrandbits(64)
        for k, action in enumerate(kept):
            playable = functools.partial(_playable, family)
            game, finished = play_out(adapter, view, world, action, seed, settings.depth, playable)
            out[k].append(_worth(view, adapter.value(game, view, finished), me))
    return out


def _playable(family: str, legal: list[Action]) -> list[Action]:
    """A playout's choices: no votes or concessions (abbott), as the search has it."""
    if family == "abbott":
        moves: list[Action] = [a for a in legal if isinstance(a, Move)]
        return moves or legal
    return legal


def _worth(view: View, values: list[float], me: int) -> float:
    """The seat's share on the analysis scale (a 2-player abbott hand: win 1, tie 1/2)."""
    if view["family"] == "abbott" and view["seats"] == 2:
        return 0.5 + (values[me] - values[1 - me]) / 2
    return values[me]


def _adapter(family: str, view: View, memory: Any) -> tuple[Any, Any]:
    """The family search's adapter and what its ``world`` needs, built from the view."""
    if is_abbott(view):
        from engine.abbott.game import Abbott
        from engine.strategies.abbott import AbbottAdapter

        return AbbottAdapter(), Abbott.from_view(view)
    if is_shedding(view):
        from engine.strategies import shedding as shed

        return shed.SheddingAdapter(smart=True), shed.worlds_from(view, memory.pile_for(view))
    if is_kilodney(view):
        from engine.kilodney.game import Kilodney
        from engine.strategies import kilodney as kil

        played = memory.played_for(view)
        seen = Kilodney.from_view(view, played)
        return kil.KilodneyAdapter(), (seen, kil.unseen_cards(view, played))
    raise ValueError(f"no analysis for the {family} family")


# ------------------------------------------------------------- the report
def summarise(
    record: dict[str, Any], decisions: Sequence[Decision], costliest: int = 3
) -> list[PlayerSummary]:
    """Per seat: decisions judged, marks by grade, accuracy, mean loss, the costliest."""
    names = list(record.get("names") or [])
    out = []
    for seat in range(record["seats"]):
        mine = [d for d in decisions if d.seat == seat]
        marked = {name: sum(d.mark == name for d in mine) for name, _ in GRADES}
        clean = sum(d.mark is None for d in mine)
        worst = sorted((d for d in mine if d.mark), key=lambda d: -d.loss)[:costliest]
        out.append(
            PlayerSummary(
                seat,
                names[seat] if seat < len(names) and names[seat] else f"seat {seat + 1}",  # from 1
                len(mine),
                marked,
                round(clean / len(mine), 3) if mine else 1.0,
                round(sum(d.loss for d in mine) / len(mine), 4) if mine else 0.0,
                [d.index for d in worst],
            )
        )
    return out


def as_json(
    record: dict[str, Any], decisions: Sequence[Decision], settings: Settings
) -> dict[str, Any]:
    """The analysis as primitives, for scripts."""
    return {
        "ruleset": record["ruleset"],
        "seats": record["seats"],
        "settings": asdict(settings),
        "margin": MARGIN,
        "grades": dict(GRADES),
        "players": [asdict(p) for p in summarise(record, decisions)],
        "decisions": [asdict(d) for d in decisions],
    }


SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def as_text(
    record: dict[str, Any], decisions: Sequence[Decision], marked_only: bool = False
) -> str:
    """The per-player summary, then the game's decisions with the better move beside."""
    lines = [f"Analysis: {record['ruleset']}, {record['seats']} seats"]
    players = summarise(record, decisions)
    names = {p.seat: p.name for p in players}
    by_index = {d.index: d for d in decisions}
    lines.append("")
    lines.append(f"{'player':<14} {'judged':>6} {'accuracy':>8} {'?!':>3} {'?':>3} {'??':>3}")
    for p in players:
        m = p.marked
        lines.append(
            f"{p.name:<14} {p.decisions:>6} {p.accuracy:>8.0%} {m['inaccuracy']:>3}"
            f" {m['mistake']:>3} {m['blunder']:>3}"
        )
    for p in players:
        if p.costliest:
            costs = ", ".join(
                f"step {i + 1} {by_index[i].played} (-{by_index[i].loss:.2f})" for i in p.costliest
            )
            lines.append(f"  {p.name} costliest: {costs}")
    lines.append("")
    lines.append(
        f"step  player         played                better                loss  mark"
        f"   (expected score 0..1; marks from -{MARGIN:.2f})"
    )
    for d in decisions:
        if marked_only and d.mark is None:
            continue
        better = "" if d.best == d.played else f"{d.best} ({d.values[d.best]:.2f})"
        how = "exact" if d.exact else "proved" if d.exact_mark else f"±{d.error:.2f}"
        how += f" (capped: {d.capped})" if d.capped else ""
        lines.append(
            f"{d.index + 1:>4}  {names[d.seat]:<14} {d.played + f' ({d.values[d.played]:.2f})':<21}"
            f" {better:<21} {d.loss:>4.2f}  {SIGNS.get(d.mark or '', ''):<2} {how}"
        )
    return "\n".join(lines)


__all__ = [
    "HINT",
    "MARGIN",
    "Decision",
    "PlayerSummary",
    "SecondOpinion",
    "Settings",
    "advise",
    "advise_at",
    "alternatives",
    "analyse",
    "as_json",
    "as_text",
    "decision_points",
    "grade",
    "hint_text",
    "is_early",
    "judge",
    "summarise",
]
