"""Table options: a schema per ruleset, validated into a complete dict.

A preset is a name for a set of option values, and a table may override any of
them; the schema refuses an unknown name or a value out of range with an
``OptionError`` that names the option and says what is allowed.

>>> schema = OptionSchema([Option("target", 20, "points to win", minimum=1, maximum=500)])
>>> schema.resolve({"target": 40})["target"]
40
>>> schema.resolve({"targte": 40})
Traceback (most recent call last):
...
engine.errors.OptionError: option 'targte': unknown option; known: target, turn_seconds
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.errors import OptionError


@dataclass(frozen=True, slots=True)
class Option:
    """One option: its default, a line of help, and what values it allows.

    ``kind`` is ``bool``, ``int`` or ``str`` (then ``choices`` lists the
    allowed strings); ``check`` validates anything more structured and returns
    the normalised value or raises ``ValueError`` with the reason.
    """

    name: str
    default: Any
    doc: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[Any, ...] | None = None
    check: Callable[[Any], Any] | None = None
    #: A card power's option: the power's title, and what it does in words (a family's
    #: declared powers, e.g. ``engine.shedding.powers``), sent with the option.
    power: str | None = None
    rule: str | None = None

    def validate(self, value: Any) -> Any:
        """The value, normalised; ``OptionError`` if it is not allowed."""
        if self.check is not None:
            try:
                return self.check(value)
            except (TypeError, ValueError) as exc:
                raise OptionError(self.name, str(exc)) from None
        if self.choices is not None:
            if value not in self.choices:
                allowed = ", ".join(map(str, self.choices))
                raise OptionError(self.name, f"{value!r} is not one of {allowed}")
            return value
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise OptionError(self.name, f"{value!r} is not true or false")
            return value
        if isinstance(self.default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(self.name, f"{value!r} is not a whole number")
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise OptionError(self.name, f"{value} is outside {self.minimum}..{self.maximum}")
            return value
        if not isinstance(value, type(self.default)):
            raise OptionError(self.name, f"{value!r} is not a {type(self.default).__name__}")
        return value

    def describe(self) -> dict[str, Any]:
        """The option as primitives, for the wire and for help screens."""
        out: dict[str, Any] = {"name": self.name, "default": self.default, "doc": self.doc}
        if self.minimum is not None:
            out["min"] = self.minimum
        if self.maximum is not None:
            out["max"] = self.maximum
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.power is not None:
            out["power"] = self.power
            out["rule"] = self.rule or ""
        return out


#: A check of a whole set of resolved options; raises ``OptionError``.
Relation = Callable[[Mapping[str, Any]], None]

TURN_SECONDS = Option(
    "turn_seconds",
    60,
    "seconds a seat has to act before it gets an automatic move (0: no clock)",
    minimum=0,
    maximum=3600,
)


class OptionSchema:
    """The options one ruleset accepts, with defaults a preset may change."""

    def __init__(
        self,
        options: Iterable[Option],
        include_common: bool = True,
        relations: Iterable[Relation] = (),
    ) -> None:
        opts = list(options)
        if include_common and all(o.name != TURN_SECONDS.name for o in opts):
            opts.append(TURN_SECONDS)
        self.options: dict[str, Option] = {o.name: o for o in opts}
        #: Checks of options taken together (an option that does nothing without
        #: another): each raises ``OptionError`` naming the option it refuses.
        self.relations: tuple[Relation, ...] = tuple(relations)

    def with_defaults(self, defaults: Mapping[str, Any]) -> OptionSchema:
        """A copy whose defaults are ``defaults`` (validated): how presets are made."""
        new = OptionSchema([], include_common=False, relations=self.relations)
        new.options = dict(self.options)
        for name, value in defaults.items():
            opt = self._get(name)
            new.options[name] = replace(opt, default=opt.validate(value))
        return new

    def _get(self, name: str) -> Option:
        try:
            return self.options[name]
        except KeyError:
            known = ", ".join(sorted(self.options))
            raise OptionError(name, f"unknown option; known: {known}") from None

    def resolve(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """Every option's value: the given ones validated, the rest defaulted."""
        if given is not None and not isinstance(given, Mapping):
            raise OptionError("options", "options must be a map of name to value")
        given = dict(given or {})
        out = {name: opt.default for name, opt in self.options.items()}
        for name, value in given.items():
            out[name] = self._get(str(name)).validate(value)
        for relation in self.relations:
            relation(out)
        return out

    def describe(self) -> list[dict[str, Any]]:
        return [o.describe() for o in self.options.values()]
