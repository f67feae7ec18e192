"""The engine contract: one ``Game`` shape for every family.

The server, the clients and the bots never special-case a family beyond how
they draw it, so every family subclasses ``Game`` and fills in a few hooks:

- ``_setup(dealer, deck)`` deals the first hand from ``self.rng`` (or from
  ``deck``, front first, when a test fixes it);
- ``to_act``, ``over``, ``scores`` describe where the game stands;
- ``legal_actions(seat)`` lists every action that seat may take now;
- ``_apply(seat, action)`` carries out a legal action and returns its events;
- ``_view(seat, common)`` is what that seat (``None``: a spectator) may see, as the
  family's view type (``AbbottView``, ...): ``Game`` is generic in it, so
  ``Abbott(...).view(0)`` is an ``AbbottView`` and a game of any family's view is an
  ``engine.views.View``;
- ``_copy_state(new)`` gives a copy its own copies of the family's mutable state.

The first deal happens in the constructor, before anyone can ``apply``, so its
events (the cut, each seat's dealt cards) are kept in ``opening_events``; the
server sends them, presented per seat, when the game starts.

``apply`` is written once here, so every family gets the same guarantees: the
notation is parsed, an illegal action raises ``IllegalActionError`` before
anything changes, and every accepted action is logged for ``record()``.
"""

from __future__ import annotations

import random
import struct
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self

from engine.actions import Action, as_action
from engine.cards import Card, parse_cards
from engine.described import GameRecord
from engine.errors import IllegalActionError, SnapshotError
from engine.events import Event
from engine.options import OptionSchema
from engine.vocabulary import CommonView, Vocabulary

Seed = int | str

if TYPE_CHECKING:  # a default for the type variable is read by mypy only (Python 3.13 has it)
    from typing_extensions import TypeVar

    from engine.views import View

    #: The family's view type; a bare ``Game`` (a game of any family) has ``View``'s.
    ViewT = TypeVar("ViewT", bound=CommonView, covariant=True, default=View)
else:
    from typing import TypeVar

    ViewT = TypeVar("ViewT", bound=CommonView, covariant=True)


class Game(ABC, Generic[ViewT]):
    """A game of one ruleset at one table: a sequence of hands to a target.

    Generic in its family's view type: ``class Abbott(Game[AbbottView])``."""

    family: ClassVar[str]
    #: The family's declared view keys and event kinds (``engine.vocabulary``).
    vocabulary: ClassVar[Vocabulary]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    #: The seat counts it is played with, if not every one from ``min_seats`` to
    #: ``max_seats`` (abbott: 2 or 4, never 3)
    seat_counts: ClassVar[tuple[int, ...] | None] = None
    schema: ClassVar[OptionSchema]
    #: Whether some cards are hidden from some seats. Either way a record holds the
    #: seed, and the seed deals every later hand (abbott's next grid too), so a record
    #: with the seed is published only once the game is over.
    hidden_information: ClassVar[bool] = True

    def __init__(
        self,
        ruleset: str,
        seats: int,
        seed: Seed,
        options: Mapping[str, Any],
        given_options: Mapping[str, Any] | None = None,
        dealer: int | None = None,
        deck: Sequence[Card | str] | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.seats = seats
        self.seed = seed
        self.options: dict[str, Any] = dict(options)
        self._given_options = dict(given_options or {})
        #: The options whose values differ from the ruleset's defaults (set by
        #: ``engine.new_game``, which knows the ruleset's schema); the view shows them.
        self.house_rules: dict[str, Any] = {}
        self._dealer_arg = dealer
        self._deck_arg = None if deck is None else [str(c) for c in deck]
        self.rng = random.Random(seed)
        self._log: list[list[Any]] = []
        #: The record's actions a restore's snapshot holds (``engine.restore``), kept as the
        #: record gave them and read only when the whole record is asked for: the caller may
        #: pass a sequence that reads them lazily (a server's store). ``_log`` follows them.
        self._held: Sequence[Sequence[Any]] = ()
        #: Events of the first deal, made by ``_setup``; later deals come from ``apply``.
        self.opening_events: list[Event] = []
        fixed = None if deck is None else parse_cards([str(c) for c in deck])
        self._setup(dealer, fixed)

    # ----------------------------------------------------------- the hooks
    @abstractmethod
    def _setup(self, dealer: int | None, deck: list[Card] | None) -> None:
        """Deal the first hand. ``dealer``/``deck`` fix it for tests."""

    @property
    @abstractmethod
    def to_act(self) -> int | None:
        """The seat whose turn it is; ``None`` once the game is over."""

    @property
    @abstractmethod
    def over(self) -> bool:
        """True once the game (not just the hand) has ended."""

    @property
    @abstractmethod
    def scores(self) -> list[int]:
        """Each seat's game total."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (out of turn too: votes, concessions)."""

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> list[Event]:
        """Carry out an action already known to be legal; return its events."""

    @abstractmethod
    def _view(self, seat: int | None, common: CommonView) -> ViewT:
        """``view``: ``common`` (the keys every family's view has) with the family's
        ``family`` and its own keys, primitives only. The wire keeps the keys in order
        (``ruleset``, then ``family``, then the other common keys, then the family's), so
        a family writes ``{"ruleset": common["ruleset"], "family": ..., **common, ...}``."""

    def _copy_state(self, new: Self) -> None:
        """Give ``new`` (which starts sharing every attribute with ``self``) its own
        copies of whatever the family's play changes: hands, piles, scores, ...
        Each family says this itself: a generic deep copy would copy the table's
        fixed lookups too, and costs a search that copies its worlds thousands of
        times a move."""
        raise NotImplementedError(f"{type(self).__name__} does not say how it is copied")

    # ------------------------------------------------- overridable defaults
    def normalize(self, seat: int, action: Action) -> Action:
        """Map equivalent spellings onto the form ``legal_actions`` lists
        (``ally 1`` and ``ally west``). The default keeps the action as it is."""
        return action

    def is_legal(self, seat: int, action: Action) -> bool:
        """Whether a normalised action is legal; families may do this faster."""
        return action in self.legal_actions(seat)

    def explain(self, seat: int, action: Action) -> str:
        """Why an action is not legal, in words for the player."""
        if self.to_act is not None and seat != self.to_act and not self.legal_actions(seat):
            return "it is not your turn"
        return "that is not a legal action now"

    def _illegal(self, seat: int, action: Action, reason: str) -> list[Event] | None:
        """A preset that penalises an illegal action returns the penalty's events
        here (the action is then logged, so replay repeats it). ``None``: refuse it."""
        return None

    # ------------------------------------------------------- the contract
    def apply(self, seat: int, action: str | Action) -> list[Event]:
        """Parse, check and carry out ``action`` for ``seat``.

        Raises ``InvalidActionError`` if the notation does not parse and
        ``IllegalActionError`` (the game unchanged) if it is not legal now.
        """
        parsed = as_action(action)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.seats:
            raise IllegalActionError(seat, parsed, f"there is no seat {seat!r}")
        if self.over:
            raise IllegalActionError(seat, parsed, "the game is over")
        parsed = self.normalize(seat, parsed)
        if not self.is_legal(seat, parsed):
            reason = self.explain(seat, parsed)
            penalty = self._illegal(seat, parsed, reason)
            if penalty is None:
                raise IllegalActionError(seat, parsed, reason)
            self._log.append([seat, str(parsed)])
            return penalty
        events = self._apply(seat, parsed)
        self._log.append([seat, str(parsed)])
        return events

    def view(self, seat: int | None) -> ViewT:
        """Exactly what ``seat`` may see, as primitives; ``None`` is a spectator.

        ``options`` holds the table's ``house_rules`` (the options that differ
        from the ruleset's defaults): house rules are public, and a strategy
        that sees only the view needs them to know the rules it plays."""
        if seat is not None and not 0 <= seat < self.seats:
            raise ValueError(f"there is no seat {seat!r}")
        common: CommonView = {
            "ruleset": self.ruleset,
            "seats": self.seats,
            "viewer": seat,
            "to_act": self.to_act,
            "over": self.over,
            "scores": list(self.scores),
            "options": dict(self.house_rules),
        }
        return self._view(seat, common)

    def record(self) -> GameRecord:
        """Everything needed to rebuild this game: the database row and the export."""
        return {
            "ruleset": self.ruleset,
            "seats": self.seats,
            "seed": self.seed,
            "options": dict(self._given_options),
            "dealer": self._dealer_arg,
            "deck": None if self._deck_arg is None else list(self._deck_arg),
            "actions": [list(entry) for entry in (*self._held, *self._log)],
        }

    def copy(self, *, rng: random.Random | None = None) -> Self:
        """An independent game in the identical state: equal views, legal actions and
        record, and acting on either leaves the other as it was (python-chess's
        ``Board.copy``). The copy's generator continues from the same state, so it
        deals what this game would deal; a search's world passes its own ``rng``
        instead, because the real game's future shuffles are not for it to know.

        >>> import engine
        >>> game = engine.new_game("switch", seats=3, seed=4)
        >>> twin = game.copy()
        >>> _ = twin.apply(twin.to_act, twin.legal_actions(twin.to_act)[0])
        >>> twin.actions_taken, game.actions_taken
        (1, 0)
        """
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.options = dict(self.options)
        new._given_options = dict(self._given_options)
        new.house_rules = dict(self.house_rules)
        if self._deck_arg is not None:
            new._deck_arg = list(self._deck_arg)
        if rng is None:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
        new.rng = rng
        new._log = [list(entry) for entry in self._log]  # ``_held`` is only read: shared
        new.opening_events = list(self.opening_events)
        self._copy_state(new)
        return new

    @classmethod
    def from_view(cls, view: Mapping[str, Any], **known: Any) -> Self:
        """The game as ``view`` shows it to its seat, for a search to sample worlds
        from: everything the view shows is set, and the places it hides (the other
        seats' hands, the stock) are left empty for ``deal_unseen``. ``known`` is what
        the seat remembers beyond its view (the cards it saw played), as each family
        takes it. Only the family writes its game's state: a strategy never does."""
        raise NotImplementedError(f"{cls.__name__} cannot be built from a view")

    def deal_unseen(
        self, view: Mapping[str, Any], cards: Sequence[Any], rng: random.Random
    ) -> Self:
        """A world: a copy of this game (``from_view(view)``) with ``cards``, the cards
        the seat has not seen in the order a search sampled them, dealt into the places
        the view hides, and ``rng`` for its future shuffles. A family that hides
        nothing has nothing to deal: the copy is the world."""
        return self.copy(rng=rng)

    @property
    def actions_taken(self) -> int:
        """How many actions have been accepted so far."""
        return len(self._held) + len(self._log)

    @property
    def last_action(self) -> list[Any] | None:
        """The last accepted action as logged, ``[seat, notation]`` with the notation
        normalised (what the record holds and a replay repeats); ``None`` before any."""
        if self._log:
            return self._log[-1]
        return list(self._held[-1]) if self._held else None

    # ------------------------------------------------------------ snapshots
    #: The layout of ``snapshot()``; a family bumps it whenever its ``_snapshot_state``
    #: changes, so a snapshot written by an older version is refused, never misread.
    snapshot_format: ClassVar[int] = 1

    def snapshot(self) -> dict[str, Any]:
        """The game as it stands, as plain data (str, int, bool, None, bytes, lists and
        str-keyed dicts: msgpack takes it as it is), sharing nothing with the game.

        It holds what a replay would have rebuilt, the generator's state included, so
        ``engine.restore(record, snapshot)`` deals every later hand as the game would.
        It holds no action log: the record has that. Like the seed, the generator's
        state predicts the deals, so a snapshot never leaves the server."""
        return {
            "format": self.snapshot_format,
            "ruleset": self.ruleset,
            "seats": self.seats,
            "actions": self.actions_taken,
            "rng": _pack_rng(self.rng),
            "state": self._snapshot_state(),
        }

    def _snapshot_state(self) -> dict[str, Any]:
        """The family's part of ``snapshot``: every piece of state that actions change."""
        raise SnapshotError(f"{type(self).__name__} keeps no snapshots")

    def _restore_state(self, state: Mapping[str, Any]) -> None:
        """Set the family's state from ``_snapshot_state``'s data (after a msgpack round
        trip: tuples come back as lists). Called on a game fresh from ``new_game``, so
        whatever ``_setup`` derives from the options is already there."""
        raise SnapshotError(f"{type(self).__name__} keeps no snapshots")

    def _load_snapshot(self, snapshot: Mapping[str, Any], log: Sequence[Sequence[Any]]) -> None:
        """Make this fresh game the one ``snapshot`` was taken of; ``log`` is the record's
        actions before it, kept as given (see ``_held``). ``SnapshotError`` if it is not a
        snapshot of such a game."""
        try:
            if snapshot["format"] != self.snapshot_format:
                raise SnapshotError(
                    f"snapshot format {snapshot['format']!r}, this version reads"
                    f" {self.snapshot_format}"
                )
            if snapshot["ruleset"] != self.ruleset or snapshot["seats"] != self.seats:
                raise SnapshotError("the snapshot is of another game")
            if snapshot["actions"] != len(log):
                raise SnapshotError(
                    f"the snapshot follows {snapshot['actions']!r} actions, not {len(log)}"
                )
            self.rng.setstate(_unpack_rng(snapshot["rng"]))
            self._restore_state(snapshot["state"])
        except SnapshotError:
            raise
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, struct.error) as exc:
            raise SnapshotError(f"the snapshot is damaged: {exc!r}") from exc
        self._held, self._log = log, []  # its [seat, notation] entries are only read

    def __repr__(self) -> str:
        return (  # no seed: a log line may show it
            f"<{type(self).__name__} {self.ruleset} seats={self.seats}"
            f" actions={self.actions_taken} to_act={self.to_act}>"
        )


#: ``random.Random``'s Mersenne Twister: 624 words and a position, packed little-endian.
_RNG_WORDS = struct.Struct("<625I")


def _pack_rng(rng: random.Random) -> list[Any]:
    """The generator's state as plain data: ``[version, 2,500 bytes, gauss_next]``."""
    version, words, gauss = rng.getstate()
    return [version, _RNG_WORDS.pack(*words), gauss]


def _unpack_rng(data: Sequence[Any]) -> tuple[Any, ...]:
    version, words, gauss = data
    return (version, _RNG_WORDS.unpack(bytes(words)), gauss)
