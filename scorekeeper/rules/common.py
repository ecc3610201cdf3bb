"""What the families of games share: the suits of the cards, the compass seats and their two
partnerships, and the error a broken rule raises (RULES.md §1-3).

A broken rule is data, not a sentence: :class:`RuleError` carries the rule (a member of the
family's own :class:`Rule` enum) and the values at fault, so that a page says it in the
reader's language. Its ``str()`` is the English sentence, for those who use the engine alone.

>>> error = RuleError(Example.LEVEL, value=8)
>>> error.rule, dict(error.values), str(error)
(<Example.LEVEL: 'level'>, {'value': 8}, 'The level must be from 1 to 7, not 8.')
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

from scorekeeper.rules.cards import SUITS, Suit

__all__ = ["SUITS", "Rule", "RuleError", "Seat", "Side", "Suit"]


class Rule(StrEnum):
    """The rules of one family that an entry can break; each member's ``english`` is the
    sentence that says it, with the error's values in braces."""

    @property
    def english(self) -> str:
        raise NotImplementedError(f"{type(self).__name__} gives no English for {self}.")


class RuleError(ValueError):
    """A rule of the game broken: which (``rule``) and the values at fault (``values``)."""

    def __init__(self, rule: Rule, **values: object) -> None:
        self.rule = rule
        self.values: Mapping[str, object] = MappingProxyType(values)
        super().__init__(rule.english.format(**values))


class Example(Rule):
    """A rule for the example above."""

    LEVEL = "level"

    @property
    def english(self) -> str:
        return "The level must be from 1 to 7, not {value!r}."


class Side(StrEnum):
    """One of the two partnerships."""

    NS = "NS"
    """North-South."""
    EW = "EW"
    """East-West."""

    @property
    def opponents(self) -> Side:
        """The other partnership.

        >>> Side.NS.opponents
        <Side.EW: 'EW'>
        """
        return Side.EW if self is Side.NS else Side.NS


class Seat(StrEnum):
    """A player's seat at a table of four; the deal passes clockwise, N, E, S, W."""

    NORTH = "N"
    EAST = "E"
    SOUTH = "S"
    WEST = "W"

    @property
    def side(self) -> Side:
        """The partnership the seat belongs to.

        >>> Seat.WEST.side
        <Side.EW: 'EW'>
        """
        return Side.NS if self in (Seat.NORTH, Seat.SOUTH) else Side.EW

    def after(self, deals: int) -> Seat:
        """The seat that deals ``deals`` deals after this one (clockwise).

        >>> Seat.SOUTH.after(3)
        <Seat.EAST: 'E'>
        """
        seats = list(Seat)
        return seats[(seats.index(self) + deals) % 4]
