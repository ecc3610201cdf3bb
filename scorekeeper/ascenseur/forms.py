"""The forms of an Ascenseur game: setting it up, entering a round, correcting one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import (
    BooleanField,
    FieldList,
    RadioField,
    StringField,
)
from wtforms.validators import InputRequired, Length, Optional

from scorekeeper.ascenseur.labels import CHOICES, SUIT_NAMES
from scorekeeper.forms import SelectChoice, WholeNumberField, stripped
from scorekeeper.games.forms import ChangeForm, NewGameForm
from scorekeeper.rules import ascenseur as rules
from scorekeeper.rules.cards import SUITS

MAX_NAME = 24
MAX_POINTS = 1000
"""The most points a scoring number of the table's own may give or take."""
HOUSE_RULES = ("top_rounds", "deck_cards", "decks", "bidding", "first_lead", "play")
OWN_SCORING = ("made_base", "made_per_trick", "made_zero", "missed_flat", "missed_per_trick")


def options(pairs: Sequence[tuple[Any, Any]]) -> list[SelectChoice]:
    """Radio choices from (value, label) pairs."""
    return [SelectChoice(value, label) for value, label in pairs]


def as_points_lost(value: int | None) -> int | None:
    """A penalty typed as "−1" means 1 point lost."""
    return None if value is None else abs(value)


def points_field(label: Any, *, lost: bool = False) -> WholeNumberField:
    """A number of our own scoring; left empty, the preset's number stands."""
    return WholeNumberField(
        label,
        validators=[Optional()],
        low=0,
        high=MAX_POINTS,
        out_of_range=_l("Points are from 0 to %(max)d."),
        filters=[as_points_lost] if lost else [],
    )


class SetupForm(NewGameForm):
    """A new game: the players in seating order, the first dealer, the house rules."""

    players = FieldList(
        StringField(
            _l("Name"),
            validators=[Length(max=MAX_NAME)],
            filters=[stripped],
        ),
        min_entries=2,
        max_entries=26,
    )
    first_dealer = RadioField(_l("Deals first"), coerce=int, validate_choice=False, default=0)

    top_rounds = RadioField(
        _l("The round with the most cards is played"), choices=options(CHOICES["top_rounds"])
    )
    deck_cards = RadioField(
        _l("Deck"),
        choices=options([(52, _l("52 cards")), (32, _l("32 cards (7 to ace)"))]),
        coerce=int,
        validate_choice=False,  # only the deck-share games show it; the engine checks it
    )
    decks = RadioField(
        _l("Decks"),
        choices=options([(1, _l("one deck")), (2, _l("two decks"))]),
        coerce=int,
        validate_choice=False,
    )
    bidding = RadioField(_l("Bidding"), choices=options(CHOICES["bidding"]))
    hook = BooleanField(_l("The dealer may not make the bids add up to the cards dealt"))
    hook_from = WholeNumberField(
        _l("…from this many cards on"),
        validators=[Optional()],
        low=1,
        high=52,
        out_of_range=_l("A round deals 1 to %(max)d cards."),
    )
    first_lead = RadioField(_l("Who leads the first trick"), choices=options(CHOICES["first_lead"]))
    play = RadioField(_l("Play"), choices=options(CHOICES["play"]))
    blind_one_card_rounds = BooleanField(_l("One-card rounds are played blind, card on forehead"))

    made_base = points_field(_l("Made: points for any made bid"))
    made_per_trick = points_field(_l("Made: points per trick bid"))
    made_zero = points_field(_l("Made zero: points (empty: as any made bid)"))
    missed_flat = points_field(_l("Missed: points lost, flat"), lost=True)
    missed_per_trick = points_field(_l("Missed: points lost per trick off"), lost=True)
    shape = RadioField(_l("Schedule"), choices=options(CHOICES["shape"]))
    hands = RadioField(_l("Hands"), choices=options(CHOICES["hands"]))
    chosen_top = WholeNumberField(
        _l("Most cards in a round (empty: as the game says)"),
        validators=[Optional()],
        low=1,
        high=52,
        out_of_range=_l("A round deals 1 to %(max)d cards."),
    )
    trump = RadioField(_l("A trump card is turned"), choices=options(CHOICES["trump"]))

    def names(self) -> list[str]:
        return [str(name or "") for name in self.players.data]

    @classmethod
    def defaults(cls, variant: rules.Variant) -> dict[str, Any]:
        """The form's values for a variant, so a new form starts from the preset's rules."""
        scoring = variant.scoring
        return {
            "top_rounds": variant.top_rounds.value,
            "deck_cards": variant.deck_cards,
            "decks": variant.decks,
            "bidding": variant.bidding.value,
            "hook": variant.hook_from is not None,
            "hook_from": variant.hook_from or 1,
            "first_lead": variant.first_lead.value,
            "play": variant.play.value,
            "blind_one_card_rounds": variant.blind_one_card_rounds,
            "made_base": scoring.made_base,
            "made_per_trick": scoring.made_per_trick,
            "made_zero": scoring.made_zero,
            "missed_flat": scoring.missed_flat,
            "missed_per_trick": scoring.missed_per_trick,
            "shape": variant.shape.value,
            "hands": variant.hands.value,
            "trump": variant.trump.value,
        }


def _number_field(plan: rules.RoundPlan, name: str, missing: Any) -> RadioField:
    """One player's row of numbers, 0 to the cards dealt."""
    return RadioField(
        name,
        coerce=int,
        choices=options([(number, str(number)) for number in range(plan.cards + 1)]),
        validators=[InputRequired(missing)],
    )


class RoundForm(ChangeForm):
    """A round's numbers, one radio row per player; fields are added for the round at hand."""


def round_form(
    plan: rules.RoundPlan,
    names: Sequence[str],
    *,
    bids: bool,
    tricks: bool,
    trump: bool,
    **kwargs: Any,
) -> RoundForm:
    """A form for one round: the bids, the tricks, the trump suit, or all three to correct it."""

    class Round(RoundForm):
        pass

    # The messages name a player: plain strings, escaped on the page like any text (a lazy
    # string would be taken as markup).
    for seat in plan.bidding_order:
        name = names[seat]
        if bids:
            setattr(
                Round,
                f"bid_{seat}",
                _number_field(plan, name, _("Enter %(name)s's bid.", name=name)),
            )
        if tricks:
            message = _("Enter %(name)s's tricks.", name=name)
            setattr(Round, f"tricks_{seat}", _number_field(plan, name, message))
    if trump:
        Round.trump = RadioField(
            _l("Trump suit that came up"),
            choices=options([("", _l("not noted")), *((s.value, SUIT_NAMES[s]) for s in SUITS)]),
            default="",
            validators=[Optional()],
        )
    return Round(**kwargs)
