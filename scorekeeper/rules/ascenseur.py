"""The Ascenseur family of trick-bidding games: Oh Hell, Rikiki, Escalier (RULES.md §1).

Everything the table needs to know is derived here from three things: the players in their
seats, the chosen rules (a :class:`Variant`) and what was entered each round (a
:class:`RoundEntry`). Nothing in this module does I/O, so a corrected round simply means
calling :func:`score_game` again.

Seats are numbered 0..n-1 clockwise ("to the left"); rounds are numbered from 1.

>>> sheet = score_game(PRESETS["ascenseur"], ("Anne", "Bruno", "Chloé"), 0,
...                    [RoundEntry(bids=(0, 1, 1), tricks=(0, 1, 0))])
>>> sheet.totals
(0, 1, -1)
>>> sheet.current.cards, sheet.players[sheet.current.dealer]
(2, 'Bruno')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any, get_type_hints

from scorekeeper.rules.cards import SUITS, Card, Suit, deck_ranks

__all__ = [
    "PRESETS",
    "BidRangeError",
    "Bidding",
    "EntryCountError",
    "FirstLead",
    "ForbiddenBidError",
    "GameSheet",
    "Hands",
    "MissingTricksError",
    "Play",
    "PlayerRound",
    "RoundCountError",
    "RoundEntry",
    "RoundError",
    "RoundPlan",
    "ScoredRound",
    "Scoring",
    "Shape",
    "Top",
    "TopRounds",
    "TricksRangeError",
    "TricksTotalError",
    "TrumpCard",
    "TrumpError",
    "Variant",
    "bid_errors",
    "bidding_order",
    "dealer_seat",
    "find_preset",
    "forbidden_bid",
    "has_trump",
    "house_rules",
    "places",
    "plan_game",
    "plan_round",
    "removed_cards",
    "round_points",
    "schedule",
    "score_game",
    "top_cards",
    "trick_errors",
    "validate_round",
    "with_house_rules",
]


# --- The rules a table chooses ----------------------------------------------------------------


class Top(StrEnum):
    """How the most cards dealt in a round (the top of the schedule) is found."""

    BY_PLAYERS = "by-players"
    """From a table by number of players (seed 000: 15, 15, 12, 10; seed 004: 10, 7, 6, 5)."""
    DECK_SHARE = "deck-share"
    """The whole deck shared out: deck // players, after removing the lowest cards (seed 003)."""
    CHOSEN = "chosen"
    """The table's own top, or as many cards as the deck allows if that is fewer."""


class TopRounds(StrEnum):
    """How many rounds are played with the top number of cards."""

    ONCE = "once"
    """The top round is played once."""
    EACH_PLAYER = "each-player"
    """The top round is played once per player, so each deals it once (seed 003 option)."""


class Shape(StrEnum):
    """The shape of the schedule of cards per round."""

    UP_AND_DOWN = "up-and-down"
    """1, 2, ..., top, ..., 2, 1: the lift goes up and comes back down."""
    UP = "up"
    """1, 2, ..., top."""
    DOWN = "down"
    """top, ..., 2, 1."""
    DOWN_AND_UP = "down-and-up"
    """top, ..., 2, 1, 2, ..., top."""


class Hands(StrEnum):
    """Which numbers of cards are dealt on the way up and down."""

    ALL = "all"
    """Every number: the schedule moves by one card a round."""
    ODD = "odd"
    """Odd numbers only: 1, 3, 5, ..."""
    EVEN = "even"
    """Even numbers only: 2, 4, 6, ..."""


class TrumpCard(StrEnum):
    """When a card is turned up after the deal to name the trump suit."""

    EVERY_ROUND = "every-round"
    """Every round; the deal always leaves one card for it (seeds 000 and 004)."""
    WHEN_CARDS_REMAIN = "when-cards-remain"
    """Whenever cards remain after the deal; a round dealing every card has no trump (seed 003)."""
    NEVER = "never"
    """Never: every round is played without trump."""


class Bidding(StrEnum):
    """How the bids are made."""

    IN_TURN = "in-turn"
    """Clockwise from the player left of the dealer, dealer last, with the hook."""
    SIMULTANEOUS = "simultaneous"
    """Everyone reveals at once; nothing is forbidden to the dealer (seed 003 option)."""


class FirstLead(StrEnum):
    """Who plays the first card of the round."""

    LEFT_OF_DEALER = "left-of-dealer"
    """The player left of the dealer (seeds 000 and 004)."""
    DEALER = "dealer"
    """The dealer (seed 003)."""


class Play(StrEnum):
    """The play reminder shown to the table; the companion does not check the play."""

    FREE = "free"
    """Follow suit if you can; otherwise discard or trump, freely."""
    MUST_TRUMP = "must-trump"
    """Follow suit if you can; otherwise trump; overtrump when you can."""


@dataclass(frozen=True, kw_only=True)
class Scoring:
    """A scoring rule as numbers (RULES.md §1).

    A made contract (tricks == bid) scores ``made_base + made_per_trick * bid``, or
    ``made_zero`` for a made bid of 0 when it is set. A missed contract scores
    ``-(missed_flat + missed_per_trick * |tricks - bid|)``.

    >>> oh_hell = Scoring(made_base=10, made_per_trick=1, missed_per_trick=1)
    >>> oh_hell.points(2, 2), oh_hell.points(2, 4)
    (12, -2)
    """

    made_base: int = 0
    made_per_trick: int = 1
    made_zero: int | None = None
    missed_flat: int = 0
    missed_per_trick: int = 1

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if value is None and field.name == "made_zero":
                continue
            if type(value) is not int or value < 0:
                raise ValueError(
                    f"Scoring: {field.name} must be a whole number of 0 or more, not {value!r}."
                )

    def made_points(self, bid: int) -> int:
        """What a made bid scores."""
        if bid == 0 and self.made_zero is not None:
            return self.made_zero
        return self.made_base + self.made_per_trick * bid

    def missed_points(self, difference: int) -> int:
        """What a bid missed by ``difference`` tricks scores (zero or less)."""
        return -(self.missed_flat + self.missed_per_trick * difference)

    def points(self, bid: int, tricks: int) -> int:
        """The points for one player's round: made only when tricks equal the bid exactly."""
        if bid == tricks:
            return self.made_points(bid)
        return self.missed_points(abs(tricks - bid))

    @property
    def penalties_only(self) -> bool:
        """Whether a made bid never scores, so the sheet keeps one column of points lost
        (Escalier, seed 004).

        >>> PRESETS["escalier"].scoring.penalties_only, PRESETS["ascenseur"].scoring.penalties_only
        (True, False)
        """
        return self.made_base == 0 and self.made_per_trick == 0 and not self.made_zero


@dataclass(frozen=True, kw_only=True)
class Variant:
    """Every rule that differs between the presets and every house rule RULES.md §1 names.

    A house rule is a changed field: ``dataclasses.replace(PRESETS["escalier"],
    first_lead=FirstLead.DEALER)``. An impossible combination raises ``ValueError``.

    The hook (the dealer may not make the bids add up to the cards dealt) applies with
    in-turn bidding in rounds of at least ``hook_from`` cards; ``hook_from=None`` turns it off.
    """

    min_players: int = 2
    max_players: int = 26
    deck_cards: int = 52
    decks: int = 1
    top: Top = Top.DECK_SHARE
    top_by_players: tuple[tuple[int, int], ...] = ()
    chosen_top: int | None = None
    top_rounds: TopRounds = TopRounds.ONCE
    shape: Shape = Shape.UP_AND_DOWN
    hands: Hands = Hands.ALL
    trump: TrumpCard = TrumpCard.WHEN_CARDS_REMAIN
    bidding: Bidding = Bidding.IN_TURN
    hook_from: int | None = 1
    first_lead: FirstLead = FirstLead.LEFT_OF_DEALER
    play: Play = Play.FREE
    blind_one_card_rounds: bool = False
    scoring: Scoring = Scoring()

    def __post_init__(self) -> None:
        if not 2 <= self.min_players <= self.max_players:
            raise ValueError(
                f"The players range {self.min_players}..{self.max_players} must start at 2 or "
                "more and not be empty."
            )
        deck_ranks(self.deck_cards)  # raises for a deck size other than 52 or 32
        if self.decks not in (1, 2):
            raise ValueError(f"A game uses one deck or two, not {self.decks}.")
        if self.top is Top.CHOSEN and (self.chosen_top is None or self.chosen_top < 1):
            raise ValueError(f"A chosen top must be 1 card or more, not {self.chosen_top!r}.")
        if self.hook_from is not None and self.hook_from < 1:
            raise ValueError(f"The hook starts from 1 card or more, not {self.hook_from}.")
        tops = dict(self.top_by_players)
        if self.top is Top.BY_PLAYERS and any(
            tops.get(players, 0) < 1 for players in self.player_counts
        ):
            raise ValueError(
                f"The table of tops must give 1 card or more for each of {self.min_players} "
                f"to {self.max_players} players."
            )

    @property
    def player_counts(self) -> range:
        """The numbers of players the variant is played by."""
        return range(self.min_players, self.max_players + 1)

    @property
    def deck_size(self) -> int:
        """The number of cards in the deck or decks, before any is removed."""
        return self.deck_cards * self.decks

    def hook_applies(self, cards: int) -> bool:
        """Whether the dealer's bid is restricted in a round of ``cards`` cards.

        >>> PRESETS["ascenseur"].hook_applies(1)
        True
        >>> dataclasses.replace(PRESETS["ascenseur"], hook_from=3).hook_applies(2)
        False
        """
        return (
            self.bidding is Bidding.IN_TURN
            and self.hook_from is not None
            and cards >= self.hook_from
        )


def house_rules(variant: Variant, preset: Variant) -> dict[str, object]:
    """The rules of ``variant`` that differ from ``preset``, as JSON values, to store or export.

    >>> house_rules(replace(PRESETS["escalier"], play=Play.FREE), PRESETS["escalier"])
    {'play': 'free'}
    """
    return {
        field.name: _to_json(getattr(variant, field.name))
        for field in dataclasses.fields(Variant)
        if getattr(variant, field.name) != getattr(preset, field.name)
    }


def with_house_rules(preset: Variant, rules: Mapping[str, object]) -> Variant:
    """``preset`` with the house rules :func:`house_rules` gave, checked value by value.

    Raises ``ValueError`` naming an unknown rule or a bad value, so a stored or imported game
    never yields a variant the engine cannot play.

    >>> with_house_rules(PRESETS["escalier"], {"play": "free"}).play
    <Play.FREE: 'free'>
    """
    changes: dict[str, Any] = {}
    for name, raw in rules.items():
        if name not in _RULE_TYPES:
            raise ValueError(f"Unknown house rule {name!r}.")
        changes[name] = _from_json(preset, name, _RULE_TYPES[name], raw)
    return replace(preset, **changes)


def _to_json(value: object) -> object:
    if isinstance(value, Scoring):
        return dataclasses.asdict(value)
    if isinstance(value, tuple):
        return [list(pair) for pair in value]
    return value.value if isinstance(value, StrEnum) else value


def _whole(name: str, raw: object) -> int:
    if type(raw) is not int:
        raise ValueError(f"House rule {name!r} must be a whole number, not {raw!r}.")
    return raw


def _from_json(preset: Variant, name: str, kind: object, raw: object) -> object:
    if isinstance(kind, type) and issubclass(kind, StrEnum):
        try:
            if not isinstance(raw, str):
                raise ValueError
            return kind(raw)
        except ValueError:
            choices = ", ".join(member.value for member in kind)
            raise ValueError(f"House rule {name!r} is one of {choices}, not {raw!r}.") from None
    if kind is bool:
        if not isinstance(raw, bool):
            raise ValueError(f"House rule {name!r} is true or false, not {raw!r}.")
        return raw
    if kind is int:
        return _whole(name, raw)
    if kind == int | None:
        return None if raw is None else _whole(name, raw)
    if kind is Scoring:
        if not isinstance(raw, dict) or not set(raw) <= {
            f.name for f in dataclasses.fields(Scoring)
        }:
            raise ValueError(f"House rule {name!r} must give the scoring's numbers, not {raw!r}.")
        values: dict[str, Any] = {
            key: None if value is None else _whole(key, value) for key, value in raw.items()
        }
        return replace(preset.scoring, **values)
    if not isinstance(raw, list) or not all(
        isinstance(pair, list) and len(pair) == 2 for pair in raw
    ):
        raise ValueError(f"House rule {name!r} must be pairs of numbers, not {raw!r}.")
    return tuple((_whole(name, players), _whole(name, top)) for players, top in raw)


_RULE_TYPES = get_type_hints(Variant)


# --- The deck and the schedule ----------------------------------------------------------------


def _check_players(variant: Variant, players: int) -> None:
    if players not in variant.player_counts:
        raise ValueError(
            f"This game is for {variant.min_players} to {variant.max_players} players, "
            f"not {players}."
        )


def _usable_deck(variant: Variant, players: int) -> int:
    """The cards left once the lowest are removed, so that the top round deals every card
    (the deck-share top, unless a trump card is turned every round)."""
    if variant.top is Top.DECK_SHARE and variant.trump is not TrumpCard.EVERY_ROUND:
        return variant.deck_size - variant.deck_size % players
    return variant.deck_size


def top_cards(variant: Variant, players: int) -> int:
    """The most cards each player is dealt in one round (RULES.md §1).

    The preset's top (a table by players, the deck shared out, or a chosen number) never
    exceeds what the deck can deal while keeping one card back for a trump that is turned every
    round; with odd or even hands only, it is the largest such hand.

    >>> top_cards(PRESETS["ascenseur"], 4), top_cards(PRESETS["ascenseur-a-charge"], 4)
    (12, 13)
    >>> top_cards(Variant(top=Top.CHOSEN, chosen_top=10, trump=TrumpCard.EVERY_ROUND), 6)
    8
    """
    _check_players(variant, players)
    if variant.top is Top.BY_PLAYERS:
        wanted = dict(variant.top_by_players)[players]
    elif variant.top is Top.CHOSEN:
        wanted = variant.chosen_top or 0
    else:
        wanted = variant.deck_size // players
    kept_for_trump = 1 if variant.trump is TrumpCard.EVERY_ROUND else 0
    top = min(wanted, (_usable_deck(variant, players) - kept_for_trump) // players)
    if variant.hands is not Hands.ALL and top % 2 != (1 if variant.hands is Hands.ODD else 0):
        top -= 1
    if top < 1:
        raise ValueError(
            f"A deck of {variant.deck_size} cards cannot deal these hands to {players} players."
        )
    return top


def schedule(variant: Variant, players: int) -> tuple[int, ...]:
    """The cards dealt to each player, round by round (RULES.md §1).

    Raises ``ValueError`` for a number of players outside the variant's range.

    >>> schedule(PRESETS["escalier"], 4)
    (1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2, 1)
    >>> schedule(Variant(top_rounds=TopRounds.EACH_PLAYER), 13)
    (1, 2, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 3, 2, 1)
    >>> schedule(Variant(top=Top.CHOSEN, chosen_top=7, hands=Hands.ODD, shape=Shape.DOWN), 4)
    (7, 5, 3, 1)
    """
    top = top_cards(variant, players)
    step = 1 if variant.hands is Hands.ALL else 2
    low = 2 if variant.hands is Hands.EVEN else 1
    rising = tuple(range(low, top, step))
    falling = rising[::-1]
    tops = (top,) * (players if variant.top_rounds is TopRounds.EACH_PLAYER else 1)
    if variant.shape is Shape.UP:
        return rising + tops
    if variant.shape is Shape.DOWN:
        return tops + falling
    if variant.shape is Shape.DOWN_AND_UP:
        if not rising:
            return tops
        return tops + falling + rising[1:] + tops
    return rising + tops + falling


def has_trump(variant: Variant, players: int, cards: int) -> bool:
    """Whether a card is turned up to name the trump suit in a round of ``cards`` cards each.

    Seed 003: a round that deals every card is played without trump.

    >>> has_trump(PRESETS["ascenseur-reguliere"], 4, 13), has_trump(PRESETS["ascenseur"], 4, 12)
    (False, True)
    """
    top = top_cards(variant, players)
    if not 1 <= cards <= top:
        raise ValueError(
            f"With {players} players a round deals 1 to {top} cards each, not {cards}."
        )
    if variant.trump is TrumpCard.NEVER:
        return False
    if variant.trump is TrumpCard.EVERY_ROUND:
        return True
    return cards * players < _usable_deck(variant, players)


def removed_cards(variant: Variant, players: int) -> tuple[Card, ...]:
    """The low cards taken out before the game so the deck shares out evenly (seed 003).

    The lowest ranks go first (2s of a 52-card deck, 7s of a 32-card one), clubs, diamonds,
    hearts, spades; with two decks, each rank from one deck and then the other. Only the
    deck-share top removes cards.

    >>> [str(card) for card in removed_cards(PRESETS["ascenseur-reguliere"], 5)]
    ['2♣', '2♦']
    >>> removed_cards(PRESETS["ascenseur"], 5)
    ()
    """
    _check_players(variant, players)
    count = variant.deck_size - _usable_deck(variant, players)
    lowest_first = (
        Card(rank, suit)
        for rank in deck_ranks(variant.deck_cards)
        for _deck in range(variant.decks)
        for suit in SUITS
    )
    return tuple(card for card, _ in zip(lowest_first, range(count), strict=False))


# --- The presets --------------------------------------------------------------------------------


def _by_players(*tops: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    return tuple(tops)


PRESETS: Mapping[str, Variant] = MappingProxyType(
    {
        # Seed 000, "bridge-ascenseur".
        "ascenseur": Variant(
            min_players=2,
            max_players=5,
            top=Top.BY_PLAYERS,
            top_by_players=_by_players((2, 15), (3, 15), (4, 12), (5, 10)),
            trump=TrumpCard.EVERY_ROUND,
            first_lead=FirstLead.LEFT_OF_DEALER,
            play=Play.FREE,
            scoring=Scoring(made_base=0, made_per_trick=1, missed_per_trick=1),
        ),
        # Seed 003, the four scorings of the Wikipedia article.
        "ascenseur-reguliere": Variant(
            first_lead=FirstLead.DEALER,
            scoring=Scoring(made_per_trick=2, made_zero=1, missed_per_trick=2),
        ),
        "ascenseur-a-charge": Variant(
            first_lead=FirstLead.DEALER,
            scoring=Scoring(made_base=10, made_per_trick=2, missed_per_trick=2),
        ),
        "ascenseur-a-charge-fixe": Variant(
            first_lead=FirstLead.DEALER,
            scoring=Scoring(made_base=10, made_per_trick=10, missed_flat=10, missed_per_trick=0),
        ),
        "ascenseur-gros-contrats": Variant(
            first_lead=FirstLead.DEALER,
            scoring=Scoring(made_per_trick=10, missed_per_trick=10),
        ),
        # Seed 004.
        "escalier": Variant(
            min_players=3,
            max_players=6,
            top=Top.BY_PLAYERS,
            top_by_players=_by_players((3, 10), (4, 7), (5, 6), (6, 5)),
            trump=TrumpCard.EVERY_ROUND,
            first_lead=FirstLead.LEFT_OF_DEALER,
            play=Play.MUST_TRUMP,
            blind_one_card_rounds=True,
            scoring=Scoring(made_per_trick=0, missed_per_trick=1),
        ),
    }
)
"""The six presets of RULES.md §1, by key."""


def find_preset(key: str) -> Variant:
    """The preset of that key, or ``ValueError`` naming the keys there are.

    >>> find_preset("escalier").max_players
    6
    """
    try:
        return PRESETS[key]
    except KeyError:
        raise ValueError(f"Unknown game {key!r}; the games are: {', '.join(PRESETS)}.") from None


# --- Seats --------------------------------------------------------------------------------------


def _check_seats(round_number: int, players: int, first_dealer: int) -> None:
    if players < 2:
        raise ValueError(f"A game needs 2 players or more, not {players}.")
    if not 0 <= first_dealer < players:
        raise ValueError(f"The first dealer is a seat from 0 to {players - 1}, not {first_dealer}.")
    if round_number < 1:
        raise ValueError(f"Rounds are numbered from 1, not {round_number}.")


def dealer_seat(round_number: int, players: int, first_dealer: int) -> int:
    """The dealer's seat: one seat to the left each round (RULES.md §1).

    >>> [dealer_seat(r, 4, 2) for r in (1, 2, 3, 4, 5)]
    [2, 3, 0, 1, 2]
    """
    _check_seats(round_number, players, first_dealer)
    return (first_dealer + round_number - 1) % players


def bidding_order(round_number: int, players: int, first_dealer: int) -> tuple[int, ...]:
    """The seats in bidding order: clockwise from the player left of the dealer, dealer last.

    >>> bidding_order(1, 4, 2)
    (3, 0, 1, 2)
    """
    dealer = dealer_seat(round_number, players, first_dealer)
    return tuple((dealer + offset) % players for offset in range(1, players + 1))


def forbidden_bid(cards: int, earlier_bids: Iterable[int]) -> int | None:
    """The bid the dealer may not make, so the bids never add up to the cards dealt.

    That is ``cards - sum(earlier_bids)`` when it is a possible bid, else nothing is
    forbidden (RULES.md §1, the hook).

    >>> forbidden_bid(7, [2, 2, 1])
    2
    >>> forbidden_bid(3, [2, 2]) is None
    True
    """
    missing = cards - sum(earlier_bids)
    return missing if 0 <= missing <= cards else None


def round_points(variant: Variant, bid: int, tricks: int) -> int:
    """One player's points for a round by the variant's scoring (RULES.md §1).

    >>> round_points(PRESETS["ascenseur"], 3, 3), round_points(PRESETS["ascenseur"], 5, 3)
    (3, -2)
    """
    if bid < 0 or tricks < 0:
        raise ValueError(f"Bids and tricks are 0 or more, not {bid} and {tricks}.")
    return variant.scoring.points(bid, tricks)


# --- One round ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundPlan:
    """What the table needs to know before a round is dealt."""

    number: int
    """The round's number, from 1."""
    cards: int
    """Cards dealt to each player."""
    dealer: int
    bidding_order: tuple[int, ...]
    """Seats in bidding order, the dealer last."""
    first_lead: int
    """The seat that plays the first card."""
    trump_turned: bool
    """Whether a card is turned up for trump after the deal."""
    blind: bool
    """Whether each player holds the card to the forehead, unseen (Escalier, seed 004)."""
    hook: bool
    """Whether the dealer may not make the bids add up to the cards dealt."""

    @property
    def first_bidder(self) -> int:
        """The seat left of the dealer, who bids first."""
        return self.bidding_order[0]

    def forbidden_bid(self, earlier_bids: Iterable[int]) -> int | None:
        """The dealer's forbidden bid, once the other players' bids are known.

        None when the hook does not apply this round.
        """
        return forbidden_bid(self.cards, earlier_bids) if self.hook else None


def plan_round(variant: Variant, players: int, first_dealer: int, round_number: int) -> RoundPlan:
    """Who deals, how many cards, trump or not, who bids and leads, in one round."""
    cards_by_round = schedule(variant, players)
    if not 1 <= round_number <= len(cards_by_round):
        raise ValueError(
            f"This game has rounds 1 to {len(cards_by_round)}, not round {round_number}."
        )
    return _plan(variant, players, first_dealer, round_number, cards_by_round[round_number - 1])


def _plan(
    variant: Variant, players: int, first_dealer: int, round_number: int, cards: int
) -> RoundPlan:
    order = bidding_order(round_number, players, first_dealer)
    dealer = order[-1]
    return RoundPlan(
        number=round_number,
        cards=cards,
        dealer=dealer,
        bidding_order=order,
        first_lead=dealer if variant.first_lead is FirstLead.DEALER else order[0],
        trump_turned=has_trump(variant, players, cards),
        blind=variant.blind_one_card_rounds and cards == 1,
        hook=variant.hook_applies(cards),
    )


def plan_game(variant: Variant, players: int, first_dealer: int) -> tuple[RoundPlan, ...]:
    """The plan of every round of the game, in order.

    >>> [(plan.cards, plan.dealer, plan.trump_turned) for plan in
    ...  plan_game(PRESETS["ascenseur-a-charge"], 26, 0)][:3]
    [(1, 0, True), (2, 1, False), (1, 2, True)]
    """
    return tuple(
        _plan(variant, players, first_dealer, number, cards)
        for number, cards in enumerate(schedule(variant, players), start=1)
    )


# --- Checking a round's entries -----------------------------------------------------------------


class RoundError(ValueError):
    """A round's entry breaks a rule; the message names the player and the rule."""

    def __init__(
        self,
        message: str,
        *,
        round_number: int,
        seat: int | None = None,
        player: str = "",
        value: int | None = None,
        cards: int | None = None,
    ) -> None:
        super().__init__(message)
        self.round_number = round_number
        self.seat = seat
        """The seat of the player concerned, or None for a rule of the whole round."""
        self.player = player
        self.value = value
        """The bid, trick count or total found wrong (the forbidden bid for the hook)."""
        self.cards = cards
        """The cards dealt to each player in that round."""


class EntryCountError(RoundError):
    """There must be one bid, and one trick count, per player."""


class BidRangeError(RoundError):
    """A bid is a whole number from 0 to the cards dealt."""


class ForbiddenBidError(RoundError):
    """With the hook, the dealer may not make the bids add up to the cards dealt."""


class TricksRangeError(RoundError):
    """A player takes from 0 to the cards dealt in tricks."""


class TricksTotalError(RoundError):
    """The tricks taken by all players add up to the cards dealt."""


class TrumpError(RoundError):
    """A trump suit is noted only in a round where a card is turned for it."""


class RoundCountError(RoundError):
    """A game has no more rounds than its schedule."""


class MissingTricksError(RoundError):
    """Only the round being played may lack its tricks."""


def _check_count(plan: RoundPlan, names: Sequence[str], values: Sequence[int], what: str) -> None:
    if len(values) != len(names):
        raise EntryCountError(
            f"Round {plan.number} needs {what} for each of the {len(names)} players, "
            f"not {len(values)}.",
            round_number=plan.number,
        )


def _in_range(value: int, cards: int) -> bool:
    return type(value) is int and 0 <= value <= cards


def bid_errors(
    plan: RoundPlan, names: Sequence[str], bids: Sequence[int]
) -> tuple[RoundError, ...]:
    """Every rule the round's bids (by seat) break, in bidding order (RULES.md §1).

    >>> plan = plan_round(PRESETS["ascenseur"], 4, 3, 7)
    >>> [str(error) for error in bid_errors(plan, ("Anne", "Bruno", "Chloé", "Denis"),
    ...                                      (2, 2, 2, 1))]
    ['Bruno, the dealer, may not bid 2: the bids would add up to the 7 cards dealt.']
    """
    _check_count(plan, names, bids, "a bid")
    errors: list[RoundError] = []
    for seat in plan.bidding_order:
        if not _in_range(bids[seat], plan.cards):
            errors.append(
                BidRangeError(
                    f"{names[seat]} bid {bids[seat]}, but a bid is from 0 to the "
                    f"{plan.cards} cards dealt.",
                    round_number=plan.number,
                    seat=seat,
                    player=names[seat],
                    value=bids[seat],
                    cards=plan.cards,
                )
            )
    dealer = plan.dealer
    if not errors:
        forbidden = plan.forbidden_bid(bids[seat] for seat in plan.bidding_order[:-1])
        if forbidden is not None and bids[dealer] == forbidden:
            errors.append(
                ForbiddenBidError(
                    f"{names[dealer]}, the dealer, may not bid {forbidden}: the bids would add "
                    f"up to the {plan.cards} cards dealt.",
                    round_number=plan.number,
                    seat=dealer,
                    player=names[dealer],
                    value=forbidden,
                    cards=plan.cards,
                )
            )
    return tuple(errors)


def trick_errors(
    plan: RoundPlan, names: Sequence[str], tricks: Sequence[int]
) -> tuple[RoundError, ...]:
    """Every rule the round's trick counts (by seat) break (RULES.md §1).

    >>> plan = plan_round(PRESETS["ascenseur"], 3, 0, 2)
    >>> [str(error) for error in trick_errors(plan, ("Anne", "Bruno", "Chloé"), (1, 0, 0))]
    ['The tricks add up to 1, but 2 cards were dealt to each player: they must add up to 2.']
    """
    _check_count(plan, names, tricks, "a number of tricks")
    errors: list[RoundError] = [
        TricksRangeError(
            f"{names[seat]} took {tricks[seat]} tricks, but a player takes from 0 to the "
            f"{plan.cards} cards dealt.",
            round_number=plan.number,
            seat=seat,
            player=names[seat],
            value=tricks[seat],
            cards=plan.cards,
        )
        for seat in plan.bidding_order
        if not _in_range(tricks[seat], plan.cards)
    ]
    if not errors and sum(tricks) != plan.cards:
        errors.append(
            TricksTotalError(
                f"The tricks add up to {sum(tricks)}, but {plan.cards} cards were dealt to each "
                f"player: they must add up to {plan.cards}.",
                round_number=plan.number,
                value=sum(tricks),
                cards=plan.cards,
            )
        )
    return tuple(errors)


def validate_round(plan: RoundPlan, names: Sequence[str], entry: RoundEntry) -> None:
    """Raise the first rule the entry breaks, as a :class:`RoundError` subclass."""
    errors = bid_errors(plan, names, entry.bids)
    if entry.tricks is not None:
        errors += trick_errors(plan, names, entry.tricks)
    if entry.trump is not None and not isinstance(entry.trump, Suit):
        errors += (TrumpError(f"{entry.trump!r} is not a suit.", round_number=plan.number),)
    elif entry.trump is not None and not plan.trump_turned:
        errors += (
            TrumpError(
                f"No card is turned for trump in round {plan.number}, so it has no trump suit.",
                round_number=plan.number,
            ),
        )
    if errors:
        raise errors[0]


# --- The whole game -----------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundEntry:
    """What the table entered for one round, by seat: the bids, then the tricks once played,
    and the trump suit that came up if someone noted it."""

    bids: tuple[int, ...]
    tricks: tuple[int, ...] | None = None
    trump: Suit | None = None


@dataclass(frozen=True)
class PlayerRound:
    """One player's line in one round of the sheet."""

    bid: int
    tricks: int | None
    """None while the round is being played."""
    points: int | None
    total: int
    """The running total after this round."""

    @property
    def made(self) -> bool | None:
        """Whether the bid was made exactly; None while the round is being played."""
        return None if self.tricks is None else self.tricks == self.bid

    @property
    def plus(self) -> int | None:
        """The + column: the points of a made bid (seed 000)."""
        return self.points if self.made else None

    @property
    def minus(self) -> int | None:
        """The − column: the points lost on a missed bid, as a positive number (seed 000)."""
        return -self.points if self.made is False and self.points is not None else None


@dataclass(frozen=True)
class ScoredRound:
    """One row of the sheet: the round's plan, what was entered and what it scored."""

    plan: RoundPlan
    trump: Suit | None
    results: tuple[PlayerRound, ...]
    """By seat."""
    places: tuple[int, ...]
    """Each player's place after this round, by seat."""

    @property
    def is_played(self) -> bool:
        """Whether the tricks are in."""
        return self.results[0].tricks is not None


@dataclass(frozen=True)
class GameSheet:
    """Everything the score sheet shows, derived from the table's entries by :func:`score_game`.

    Tuples indexed by seat hold one value per player.
    """

    variant: Variant
    players: tuple[str, ...]
    first_dealer: int
    plans: tuple[RoundPlan, ...]
    """The whole schedule, played or not."""
    rounds: tuple[ScoredRound, ...]
    """The rounds entered so far; the last may still lack its tricks."""
    totals: tuple[int, ...]
    plus_totals: tuple[int, ...]
    """Sum of the + column."""
    minus_totals: tuple[int, ...]
    """Sum of the − column (points lost)."""
    places: tuple[int, ...]
    """1 for the best total; equal totals share a place."""
    best_remaining: tuple[int, ...]
    """The most points the rounds still to play can bring each player."""
    worst_remaining: tuple[int, ...]
    """The fewest points (the most lost) the rounds still to play can bring each player."""
    can_still_win: tuple[bool, ...]
    """For each player, whether the rounds left could still put them first, alone or tied.

    Exact for the round being played, whose bids are known: every way of sharing its tricks
    is considered. For rounds not yet bid, a player's best is set against every rival's worst,
    which a deal allows (the player makes the bid, each rival misses by every card).
    """

    @property
    def played_rounds(self) -> int:
        """How many rounds have their tricks in."""
        return sum(1 for scored in self.rounds if scored.is_played)

    @property
    def is_complete(self) -> bool:
        """Whether every round of the schedule has been played."""
        return self.played_rounds == len(self.plans)

    @property
    def current(self) -> RoundPlan | None:
        """The round being bid or played now; None once the game is over."""
        return None if self.is_complete else self.plans[self.played_rounds]

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats sharing first place once the game is complete, else empty."""
        return self.leaders if self.is_complete else ()

    @property
    def leaders(self) -> tuple[int, ...]:
        """The seats in first place now."""
        return tuple(seat for seat, place in enumerate(self.places) if place == 1)

    @property
    def clinched(self) -> bool:
        """Whether one player alone is sure to win, whatever the rounds left bring."""
        return sum(self.can_still_win) == 1


def places(totals: Sequence[int]) -> tuple[int, ...]:
    """Places by total, the highest first; equal totals share a place (1, 1, 3).

    >>> places((5, 9, 5, -2))
    (2, 1, 2, 4)
    """
    return tuple(1 + sum(other > total for other in totals) for total in totals)


def _remaining_bounds(variant: Variant, cards: int, bid: int | None) -> tuple[int, int]:
    """The most and fewest points one player can score in a round still to play."""
    scoring = variant.scoring
    if bid is not None:
        return scoring.made_points(bid), scoring.missed_points(max(bid, cards - bid))
    return (
        max(scoring.made_points(0), scoring.made_points(cards)),
        scoring.missed_points(cards),
    )


def _check_players_names(variant: Variant, names: Sequence[str], first_dealer: int) -> None:
    if isinstance(names, str) or not all(isinstance(name, str) for name in names):
        raise ValueError("The players are given as a list of names.")
    _check_players(variant, len(names))
    _check_seats(1, len(names), first_dealer)
    seen: set[str] = set()
    for name in names:
        if not name.strip():
            raise ValueError("Every player needs a name.")
        if name.casefold() in seen:
            raise ValueError(f"Two players are called {name}; give each a different name.")
        seen.add(name.casefold())


def score_game(
    variant: Variant, players: Sequence[str], first_dealer: int, rounds: Sequence[RoundEntry]
) -> GameSheet:
    """Score a game from its entries: dealers, cards, points, +/− columns, totals, places.

    ``players`` are the names in seat order; ``rounds`` the entries in round order, only the
    last of which may lack its tricks. Every entry is checked (:func:`validate_round`), so an
    impossible entry raises a :class:`RoundError`. Correcting a round and scoring again
    re-scores every round after it (RULES.md §1).

    >>> sheet = score_game(PRESETS["escalier"], ("Ana", "Bob", "Cy"), 2,
    ...                    [RoundEntry((1, 0, 1), (1, 0, 0)), RoundEntry((0, 1, 0))])
    >>> sheet.totals, sheet.places, sheet.minus_totals
    ((0, 0, -1), (1, 1, 3), (0, 0, 1))
    >>> sheet.current.number, sheet.is_complete
    (2, False)
    """
    _check_players_names(variant, players, first_dealer)
    names = tuple(players)
    plans = plan_game(variant, len(names), first_dealer)
    if len(rounds) > len(plans):
        raise RoundCountError(
            f"This game has {len(plans)} rounds, not {len(rounds)}.", round_number=len(rounds)
        )
    totals = [0] * len(names)
    plus = [0] * len(names)
    minus = [0] * len(names)
    scored: list[ScoredRound] = []
    for plan, entry in zip(plans, rounds, strict=False):
        if entry.tricks is None and plan.number < len(rounds):
            raise MissingTricksError(
                f"Round {plan.number} has no tricks, but later rounds were entered.",
                round_number=plan.number,
            )
        validate_round(plan, names, entry)
        results = []
        for seat, bid in enumerate(entry.bids):
            tricks = None if entry.tricks is None else entry.tricks[seat]
            points = None if tricks is None else round_points(variant, bid, tricks)
            if points is not None:
                totals[seat] += points
                if tricks == bid:
                    plus[seat] += points
                else:
                    minus[seat] -= points
            results.append(PlayerRound(bid=bid, tricks=tricks, points=points, total=totals[seat]))
        scored.append(ScoredRound(plan, entry.trump, tuple(results), places(totals)))
    played = sum(1 for row in scored if row.is_played)
    pending = scored[played] if played < len(scored) else None
    future_best = [0] * len(names)
    future_worst = [0] * len(names)
    for plan in plans[played + (1 if pending else 0) :]:
        most, fewest = _remaining_bounds(variant, plan.cards, None)
        future_best = [points + most for points in future_best]
        future_worst = [points + fewest for points in future_worst]
    best, worst = list(future_best), list(future_worst)
    if pending is not None:
        for seat, result in enumerate(pending.results):
            most, fewest = _remaining_bounds(variant, pending.plan.cards, result.bid)
            best[seat] += most
            worst[seat] += fewest
    hopes = _can_still_win(
        variant,
        [total + more for total, more in zip(totals, future_best, strict=True)],
        [total + less for total, less in zip(totals, future_worst, strict=True)],
        pending,
    )
    return GameSheet(
        variant=variant,
        players=names,
        first_dealer=first_dealer,
        plans=plans,
        rounds=tuple(scored),
        totals=tuple(totals),
        plus_totals=tuple(plus),
        minus_totals=tuple(minus),
        places=places(totals),
        best_remaining=tuple(best),
        worst_remaining=tuple(worst),
        can_still_win=hopes,
    )


def _can_still_win(
    variant: Variant, highest: list[int], lowest: list[int], pending: ScoredRound | None
) -> tuple[bool, ...]:
    """Who can still finish first, given each player's highest and lowest possible final total
    before the round being played, and that round's bids.

    A player can win if some share of the pending round's tricks puts them level with or above
    every rival at the rival's lowest. Which shares exist is found with a running set of the
    trick totals the rivals can take (a bit mask), trick count by trick count.
    """
    seats = range(len(highest))
    if pending is None:
        return tuple(all(lowest[q] <= highest[p] for q in seats if q != p) for p in seats)
    cards = pending.plan.cards
    bids = [result.bid for result in pending.results]
    scoring = variant.scoring
    hopes = []
    for seat in seats:
        hope = False
        for taken in range(cards + 1):
            mine = highest[seat] + scoring.points(bids[seat], taken)
            left = cards - taken
            reachable = 1  # bit k set: the rivals so far can take k tricks together
            for rival in seats:
                if rival == seat:
                    continue
                spread = 0
                for tricks in range(left + 1):
                    if lowest[rival] + scoring.points(bids[rival], tricks) <= mine:
                        spread |= reachable << tricks
                reachable = spread & ((1 << (left + 1)) - 1)
            if reachable >> left & 1:
                hope = True
                break
        hopes.append(hope)
    return tuple(hopes)
