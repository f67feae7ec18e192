"""Strategies: how bots and automatic moves choose an action.

A strategy sees exactly what its seat's view shows and the list of legal
actions, never the hidden state, so server-side bots and timeout moves play
fair. Each is deterministic given the ``rng`` it is handed.

>>> import random
>>> from engine.actions import Draw, Pass
>>> get_strategy("random", "shedding").choose({}, [Draw(), Pass()], random.Random(1))
Draw()
"""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from engine.actions import Action
from engine.vocabulary import CommonView

if TYPE_CHECKING:  # a default for the type variable is read by mypy only (Python 3.13 has it)
    from typing_extensions import TypeVar

    from engine.views import View

    #: The views a strategy reads; a bare ``Strategy`` reads any family's (``View``).
    ViewT = TypeVar("ViewT", bound=CommonView, contravariant=True, default=View)
else:
    from typing import TypeVar

    ViewT = TypeVar("ViewT", bound=CommonView, contravariant=True)


class Strategy(Protocol[ViewT]):
    """Anything with a name and a ``choose`` is a strategy.

    A strategy may also define ``observe(event)``: a runner that has the events
    its seat was shown (``Event.present(seat)`` dicts, in order) passes each one
    on, so a strategy can remember what was played. Runners without events (a
    timeout move) never call it, so every strategy must also play from the view
    alone.

    A strategy that takes long to choose (a search) says so with a class
    attribute ``slow = True``; the server then runs it in a worker process (so it
    must pickle) and its event loop keeps serving the other tables.

    ``choose`` is handed the seat's view (``Game.view``, or the client's view of a
    table), typed as the views it reads: a family's strategy is a
    ``Strategy[SheddingView]`` (...), so mypy checks each key it reads. The registry
    pairs a strategy with its family's games at run time, so what it hands out is a
    ``Strategy[Any]``: a caller holds the view of the game it plays.
    """

    name: str

    def choose(self, view: ViewT, legal: Sequence[Action], rng: random.Random) -> Action:
        """Pick one of ``legal`` from what ``view`` shows."""
        ...


class RandomStrategy:
    """Uniform over the legal actions: the floor every other strategy must beat."""

    name = "random"

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        return legal[rng.randrange(len(legal))]


# (strategy name, family) -> factory; family "*" serves every family.
_FACTORIES: dict[tuple[str, str], Callable[..., Strategy[Any]]] = {("random", "*"): RandomStrategy}
_DEFAULTS: dict[str, str] = {}


def register_strategy(
    name: str, family: str, factory: Callable[..., Strategy[Any]], default: bool = False
) -> None:
    """Make ``name`` available for ``family``; ``default`` makes it the family's default."""
    _FACTORIES[(name, family)] = factory
    if default:
        _DEFAULTS[family] = name


def get_strategy(name: str, family: str, **params: Any) -> Strategy[Any]:
    """A fresh strategy called ``name`` for ``family``; ``ValueError`` if none.

    ``params`` go to the factory (a search strategy's ``iterations``, say), so
    an arena can run the same strategy at a smaller budget.
    """
    factory = _FACTORIES.get((name, family)) or _FACTORIES.get((name, "*"))
    if factory is None:
        raise ValueError(
            f"no strategy {name!r} for {family}; known: {', '.join(strategies(family))}"
        )
    try:
        return factory(**params)
    except TypeError as exc:
        raise ValueError(f"strategy {name!r} does not take {sorted(params)}: {exc}") from None


def strategies(family: str) -> list[str]:
    """Names of the strategies that play ``family``."""
    return sorted({n for (n, f) in _FACTORIES if f in (family, "*")})


def default_strategy(family: str) -> Strategy[Any]:
    """The strategy a table uses for empty seats and timeouts."""
    return get_strategy(_DEFAULTS.get(family, "random"), family)


# Each family's strategies register themselves; a family not in the tree yet
# (or whose strategies are not written yet) is skipped.
for _family in ("abbott", "shedding", "kilodney"):
    if importlib.util.find_spec(f"engine.{_family}") is not None and (
        importlib.util.find_spec(f"engine.strategies.{_family}") is not None
    ):
        importlib.import_module(f"engine.strategies.{_family}")
