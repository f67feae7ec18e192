"""Information-set Monte Carlo tree search, shared by every family's ``search``.

Why one search for three games: abbott is a game of perfect information and
shedding and kilodney hide cards, but single-observer IS-MCTS (Cowling,
Powley and Whitehouse, 2012) covers both. Each iteration samples a *world*:
a full game state consistent with what the seat has seen (for abbott, the one
state the view describes). The tree is keyed by actions (their notation), not
by states, so every world descends the same tree; at each node only the
actions legal in this world are candidates, and UCB counts how often each was
*available* rather than how often its parent was visited, so an action legal
in few worlds is not over-explored. Each node keeps a reward per seat and
picks by the reward of the seat acting there (max^n), which handles four
self-interested players and alliances without a zero-sum assumption.

What a family supplies (an ``Adapter``): how to build a world from the view
(only from the view and what the seat was shown: the search never touches
the real game), a fast rollout policy, and what a position is worth to each
seat in [0, 1] when a rollout stops (the hand's points at the end of a hand,
an estimate at the depth limit).

The budget is a number of iterations, so a search is deterministic given the
``rng`` it is handed; ``seconds`` (optional) caps the wall time as well, for
players who prefer a fixed pace to reproducibility.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Generic, Protocol, TypeVar

from engine.actions import Action
from engine.game import Game
from engine.vocabulary import CommonView, seat_of

#: The family's game type: an adapter speaks of its own family's games, so it reads their
#: public state with its real type (an ``Adapter[Abbott, ...]`` gets an ``Abbott``).
G = TypeVar("G", bound=Game)
#: The family's view type: the search starts from the seat's view, which the adapter
#: reads as its family's (an ``Adapter[Abbott, AbbottView]`` gets an ``AbbottView``).
V = TypeVar("V", bound=CommonView)
V_contra = TypeVar("V_contra", bound=CommonView, contravariant=True)


class Adapter(Protocol[G, V_contra]):
    """What a family tells the search."""

    def world(self, view: V_contra, memory: Any, rng: random.Random) -> G:
        """A full game state consistent with ``view`` (hidden cards sampled)."""
        ...

    def rollout(self, game: G, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        """A quick, decent move for the rollouts."""
        ...

    def value(self, game: G, root: V_contra, finished: bool) -> list[float]:
        """Each seat's worth of the position in [0, 1]; ``finished``: the hand ended."""
        ...

    def ended(self, game: G, root: V_contra) -> bool:
        """Whether the hand the search started in is over."""
        ...


class Node:
    """One node of the action tree: rewards summed per seat, visits, availability."""

    __slots__ = ("available", "children", "reward", "visits")

    def __init__(self, seats: int) -> None:
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = [0.0] * seats


def fresh_copy(game: G, rng: random.Random) -> G:
    """A copy of ``game`` (``Game.copy``) with a generator of its own drawn from ``rng``:
    the real game's future shuffles are unknown, so a world must not share them."""
    return game.copy(rng=random.Random(rng.getrandbits(64)))


def play_out(
    adapter: Adapter[G, V],
    view: V,
    world: G,
    action: Action,
    seed: int,
    depth: int,
    choices: Callable[[list[Action]], list[Action]] | None = None,
) -> tuple[G, bool]:
    """``action`` played by the viewer in a copy of ``world``, then the adapter's rollout
    policy for up to ``depth`` steps: the game reached, and whether it reached an end the
    adapter scores (the game's, or the hand's). The copy and the rollout draw from
    ``seed``, so every candidate played from one world with one seed meets the same luck
    (paired playouts). ``choices`` narrows each actor's legal actions (default: all)."""
    game = fresh_copy(world, random.Random(seed))
    roll = random.Random(seed)
    game.apply(seat_of(view), action)
    steps = 1
    finished = game.over or adapter.ended(game, view)
    while not finished and steps < depth:
        actor = game.to_act
        assert actor is not None
        legal = game.legal_actions(actor)
        game.apply(
            actor, adapter.rollout(game, actor, legal if choices is None else choices(legal), roll)
        )
        steps += 1
        finished = game.over or adapter.ended(game, view)
    return game, finished


class ISMCTS(Generic[G, V]):
    """Single-observer IS-MCTS over an ``Adapter``.

    ``iterations`` worlds are searched (default tuned per family to stay under
    a second a move on this machine); ``depth`` bounds each rollout in actions,
    after which the adapter's estimate stands in for the rest of the hand.
    """

    def __init__(
        self,
        adapter: Adapter[G, V],
        iterations: int = 200,
        depth: int = 60,
        exploration: float = 0.7,
        seconds: float | None = None,
    ) -> None:
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        self.adapter = adapter
        self.iterations = iterations
        self.depth = depth
        self.c = exploration
        self.seconds = seconds

    def search(
        self, view: V, legal: Sequence[Action], memory: Any, rng: random.Random
    ) -> tuple[Action, dict[str, tuple[int, float]]]:
        """The most visited root action, and each root action's (visits, mean reward)."""
        me, seats = seat_of(view), view["seats"]
        by_name = {str(a): a for a in legal}
        root = Node(seats)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        for _ in range(self.iterations):
            world = self.adapter.world(view, memory, rng)
            self._iterate(root, world, view, me, by_name, rng)
            if deadline is not None and time.perf_counter() > deadline:
                break
        stats = {
            name: (child.visits, child.reward[me] / child.visits if child.visits else 0.0)
            for name, child in root.children.items()
            if name in by_name
        }
        if not stats:
            return legal[0], {}
        best = max(stats, key=lambda n: (stats[n][0], stats[n][1]))
        return by_name[best], stats

    def _iterate(
        self,
        root: Node,
        game: G,
        view: V,
        me: int,
        root_legal: dict[str, Action],
        rng: random.Random,
    ) -> None:
        adapter = self.adapter
        path = [root]
        node = root
        steps = 0
        finished = False
        # Selection and expansion.
        while True:
            if game.over or adapter.ended(game, view):
                finished = True
                break
            actor = game.to_act
            assert actor is not None
            if node is root:
                actions = [root_legal[k] for k in root_legal]  # the real legal actions
            else:
                actions = self._candidates(game, actor)
            names = [str(a) for a in actions]
            untried = [i for i, n in enumerate(names) if n not in node.children]
            for n in names:
                child = node.children.get(n)
                if child is not None:
                    child.available += 1
            if untried:
                i = untried[rng.randrange(len(untried))]
                child = Node(len(root.reward))
                child.available = 1
                node.children[names[i]] = child
                game.apply(actor, actions[i])
                path.append(child)
                steps += 1
                break
            log_ok = self.c
            best_i, best_score = 0, -1.0
            for i, n in enumerate(names):
                child = node.children[n]
                score = child.reward[actor] / child.visits + log_ok * math.sqrt(
                    math.log(child.available) / child.visits
                )
                if score > best_score:
                    best_i, best_score = i, score
            node = node.children[names[best_i]]
            game.apply(actor, actions[best_i])
            path.append(node)
            steps += 1
        # Rollout.
        if not finished:
            while steps < self.depth:
                if game.over or adapter.ended(game, view):
                    finished = True
                    break
                actor = game.to_act
                assert actor is not None
                legal = self._candidates(game, actor)
                game.apply(actor, adapter.rollout(game, actor, legal, rng))
                steps += 1
            else:
                finished = game.over or adapter.ended(game, view)
        reward = adapter.value(game, view, finished)
        for node in path:
            node.visits += 1
            r = node.reward
            for s, v in enumerate(reward):
                r[s] += v

    def _candidates(self, game: G, actor: int) -> list[Action]:
        """The actions the tree considers: the legal ones the adapter keeps."""
        legal = game.legal_actions(actor)
        keep = getattr(self.adapter, "keep", None)
        return keep(legal) if keep is not None else legal


class DeterminizedMC(Generic[G, V]):
    """Flat determinized Monte Carlo with common random numbers, anchored on a prior.

    Each sampled world is played out once after *each* candidate action, with
    the same world and the same rollout generator for all of them, so the
    comparison between actions is paired and not drowned by the luck of the
    deal. ``legal[0]`` is the prior's choice (the family's heuristic ranks the
    candidates): another candidate replaces it only when its paired advantage
    over the worlds is ``confidence`` standard errors above zero. So a small
    budget plays the heuristic's move, and a larger one overrides it where the
    evidence says so. ``iterations`` counts rollouts in all; the candidates
    share them equally.
    """

    def __init__(
        self,
        adapter: Adapter[G, V],
        iterations: int = 200,
        depth: int = 60,
        seconds: float | None = None,
        confidence: float = 2.0,
    ) -> None:
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        self.adapter = adapter
        self.iterations = iterations
        self.depth = depth
        self.seconds = seconds
        self.confidence = confidence

    def search(
        self, view: V, legal: Sequence[Action], memory: Any, rng: random.Random
    ) -> tuple[Action, dict[str, tuple[int, float]]]:
        """The chosen candidate, and each candidate's (worlds, mean reward)."""
        me = seat_of(view)
        adapter = self.adapter
        worlds = max(2, self.iterations // len(legal))
        values: list[list[float]] = [[] for _ in legal]
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        for _ in range(worlds):
            world = adapter.world(view, memory, rng)
            seed = rng.getrandbits(64)
            for i, action in enumerate(legal):
                game, finished = play_out(adapter, view, world, action, seed, self.depth)
                values[i].append(adapter.value(game, view, finished)[me])
            if deadline is not None and time.perf_counter() > deadline:
                break
        n = len(values[0])
        stats = {str(a): (n, sum(v) / n) for a, v in zip(legal, values, strict=True)}
        best, best_mean = 0, 0.0
        for i in range(1, len(legal)):
            diffs = [a - b for a, b in zip(values[i], values[0], strict=True)]
            mean = sum(diffs) / n
            if mean <= best_mean or n < 2:
                continue
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            if mean > self.confidence * math.sqrt(var / n) or (var == 0 and mean > 0):
                best, best_mean = i, mean
        return legal[best], stats
