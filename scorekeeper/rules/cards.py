"""Playing cards: suits, ranks and the two deck sizes the games use (RULES.md §1, §2)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["RANK_NAMES", "SUITS", "Card", "Suit", "deck_ranks"]


class Suit(StrEnum):
    """A card suit, in the order the low cards are taken out of the deck (RULES.md §1)."""

    CLUBS = "C"
    """♣"""
    DIAMONDS = "D"
    """♦"""
    HEARTS = "H"
    """♥"""
    SPADES = "S"
    """♠"""

    @property
    def symbol(self) -> str:
        """The suit's symbol.

        >>> Suit.HEARTS.symbol
        '♥'
        """
        return _SYMBOLS[self]


_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}

SUITS: tuple[Suit, ...] = tuple(Suit)
"""The four suits, clubs first."""

RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
"""Short names of the court cards and the ace (ace high, rank 14)."""


def deck_ranks(deck_cards: int) -> range:
    """The ranks of a 52-card deck (2 to ace) or of a 32-card deck (7 to ace), lowest first.

    >>> list(deck_ranks(32))
    [7, 8, 9, 10, 11, 12, 13, 14]
    """
    if deck_cards not in (32, 52):
        raise ValueError(f"A deck has 52 or 32 cards, not {deck_cards}.")
    return range(15 - deck_cards // 4, 15)


@dataclass(frozen=True, order=True)
class Card:
    """One card: a rank from 2 to 14 (the ace) and a suit.

    >>> str(Card(2, Suit.CLUBS)), str(Card(14, Suit.SPADES))
    ('2♣', 'A♠')
    """

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if not 2 <= self.rank <= 14:
            raise ValueError(f"A card's rank is from 2 to 14 (the ace), not {self.rank}.")

    def __str__(self) -> str:
        return f"{RANK_NAMES.get(self.rank, str(self.rank))}{self.suit.symbol}"
