"""What the pages call the engine's presets, rules and errors, in the reader's language."""

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from scorekeeper.games.helpers import semicolon_list, signed
from scorekeeper.rules import ascenseur as rules
from scorekeeper.rules.cards import RANK_NAMES, Card, Suit

# The names of the games stay as the players know them.
PRESET_NAMES = {
    "ascenseur": "Ascenseur",
    "ascenseur-reguliere": "Ascenseur (régulière)",
    "ascenseur-a-charge": "Ascenseur à charge",
    "ascenseur-a-charge-fixe": "Ascenseur à charge fixe",
    "ascenseur-gros-contrats": "Ascenseur (gros contrats)",
    "escalier": "Escalier",
}

PRESET_DESCRIPTIONS = {
    "ascenseur": _l(
        "2 to 5 players, up to 15, 12 or 10 cards and back down. "
        "Made: the bid in points; missed: −1 per trick off."
    ),
    "ascenseur-reguliere": _l(
        "2 to 26 players, the whole deck at the top. "
        "Made: 2 per trick bid, 1 for a zero; missed: −2 per trick off."
    ),
    "ascenseur-a-charge": _l(
        "2 to 26 players, the whole deck at the top. Made: 10 + 2 per trick bid; "
        "missed: −2 per trick off."
    ),
    "ascenseur-a-charge-fixe": _l(
        "2 to 26 players, the whole deck at the top. Made: 10 + 10 per trick bid; missed: −10."
    ),
    "ascenseur-gros-contrats": _l(
        "2 to 26 players, the whole deck at the top. Made: 10 per trick bid; "
        "missed: −10 per trick off. Big bids pay."
    ),
    "escalier": _l(
        "3 to 6 players, blind first and last rounds. Lose 1 point per trick off; "
        "the fewest points lost wins."
    ),
}

CHOICES = {
    "top_rounds": [
        (rules.TopRounds.ONCE.value, _l("once")),
        (rules.TopRounds.EACH_PLAYER.value, _l("once per player, so each deals it")),
    ],
    "bidding": [
        (rules.Bidding.IN_TURN.value, _l("in turn, the dealer last, with the hook")),
        (rules.Bidding.SIMULTANEOUS.value, _l("all at once (no forbidden bid)")),
    ],
    "first_lead": [
        (rules.FirstLead.LEFT_OF_DEALER.value, _l("the player left of the dealer")),
        (rules.FirstLead.DEALER.value, _l("the dealer")),
    ],
    "play": [
        (rules.Play.FREE.value, _l("follow suit; otherwise discard or trump freely")),
        (rules.Play.MUST_TRUMP.value, _l("follow suit; otherwise trump, and overtrump if you can")),
    ],
    "shape": [
        (rules.Shape.UP_AND_DOWN.value, _l("up, then down")),
        (rules.Shape.UP.value, _l("up only")),
        (rules.Shape.DOWN.value, _l("down only")),
        (rules.Shape.DOWN_AND_UP.value, _l("down, then up")),
    ],
    "hands": [
        (rules.Hands.ALL.value, _l("every number of cards")),
        (rules.Hands.ODD.value, _l("odd numbers only")),
        (rules.Hands.EVEN.value, _l("even numbers only")),
    ],
    "trump": [
        (rules.TrumpCard.EVERY_ROUND.value, _l("every round")),
        (rules.TrumpCard.WHEN_CARDS_REMAIN.value, _l("when cards remain after the deal")),
        (rules.TrumpCard.NEVER.value, _l("never")),
    ],
}

SUIT_NAMES = {
    Suit.CLUBS: _l("clubs"),
    Suit.DIAMONDS: _l("diamonds"),
    Suit.HEARTS: _l("hearts"),
    Suit.SPADES: _l("spades"),
}


def choice_label(rule: str, value: str) -> str:
    return str(dict(CHOICES[rule])[value])


def card_label(card: Card) -> str:
    """A card as the reader says it: J, Q, K, A in English; V, D, R, A in French."""
    if card.rank in RANK_NAMES:
        short = {11: _("J"), 12: _("Q"), 13: _("K"), 14: _("A")}[card.rank]
    else:
        short = str(card.rank)
    return f"{short}{card.suit.symbol}"


def cards_label(cards: int) -> str:
    return ngettext("%(num)d card", "%(num)d cards", cards)


def error_message(error: rules.RoundError) -> str:
    """The engine's error, told in the reader's language."""
    details = {"player": error.player, "value": error.value, "cards": error.cards}
    if isinstance(error, rules.ForbiddenBidError):
        return _(
            "%(player)s deals and may not bid %(value)s: the bids would add up to the number "
            "of cards dealt (%(cards)s).",
            **details,
        )
    if isinstance(error, rules.BidRangeError):
        return _("%(player)s's bid must be from 0 to %(cards)s.", **details)
    if isinstance(error, rules.TricksRangeError):
        return _("%(player)s's tricks must be from 0 to %(cards)s.", **details)
    if isinstance(error, rules.TricksTotalError):
        return _(
            "The tricks add up to %(value)s, not %(cards)s: they must add up to the number of "
            "cards dealt.",
            **details,
        )
    if isinstance(error, rules.RoundCountError):
        return _("There are more rounds than the game's schedule has.")
    if isinstance(error, rules.MissingTricksError):
        return _(
            "Round %(number)d has no tricks, but later rounds were entered.",
            number=error.round_number,
        )
    if isinstance(error, rules.TrumpError):
        return _("No card is turned for trump in this round.")
    return _("Enter one number for each player.")


def scoring_examples(scoring: rules.Scoring) -> list[str]:
    """Worked examples of a scoring, so the table can check it is theirs."""
    cases = [(2, 2), (2, 4), (0, 0), (0, 1)]
    return [
        _(
            "bid %(bid)d, took %(tricks)d → %(points)s",
            bid=bid,
            tricks=tricks,
            points=signed(scoring.points(bid, tricks)),
        )
        for bid, tricks in cases
    ]


def score(points: int | None, lost: bool) -> str:
    """Points as the sheet shows them: signed, or as points lost where only losses count."""
    if points is None:
        return ""
    return str(-points) if lost else signed(points)


def scoring_text(scoring: rules.Scoring) -> str:
    """A scoring in one line: "made: 10 + 2 per trick bid; missed: −2 per trick off"."""
    base, per = scoring.made_base, scoring.made_per_trick
    if base and per:
        made = _("made: %(base)d + %(per)d per trick bid", base=base, per=per)
    elif per:
        made = _("made: %(per)d per trick bid", per=per)
    else:
        made = _("made: %(base)d", base=base)
    if scoring.made_zero is not None:
        made += _(" (a made zero: %(zero)d)", zero=scoring.made_zero)
    flat, per = scoring.missed_flat, scoring.missed_per_trick
    if flat and per:
        missed = _("missed: −%(flat)d − %(per)d per trick off", flat=flat, per=per)
    elif per:
        missed = _("missed: −%(per)d per trick off", per=per)
    else:
        missed = _("missed: −%(flat)d", flat=flat)
    return semicolon_list([made, missed])


RULE_TITLES = {
    "top_rounds": _l("Top round"),
    "bidding": _l("Bidding"),
    "first_lead": _l("First lead"),
    "play": _l("Play"),
    "shape": _l("Schedule"),
    "hands": _l("Hands"),
    "trump": _l("Trump card"),
}


def house_rule_texts(variant: rules.Variant, preset: rules.Variant) -> list[str]:
    """The rules a game changed from its preset, one line each, for the sheet's header."""
    texts = []
    for name in rules.house_rules(variant, preset):
        value = getattr(variant, name)
        if name in RULE_TITLES:
            texts.append(
                _(
                    "%(rule)s: %(value)s",
                    rule=RULE_TITLES[name],
                    value=choice_label(name, value.value),
                )
            )
        elif name == "deck_cards":
            texts.append(_("%(cards)d-card deck", cards=value))
        elif name == "decks":
            texts.append(ngettext("%(num)d deck", "%(num)d decks", value))
        elif name == "hook_from":
            texts.append(
                _("no forbidden bid")
                if value is None
                else ngettext(
                    "forbidden bid from %(num)d card on",
                    "forbidden bid from %(num)d cards on",
                    value,
                )
            )
        elif name == "blind_one_card_rounds":
            texts.append(_("blind one-card rounds") if value else _("no blind rounds"))
        elif name == "scoring":
            texts.append(scoring_text(value))
        elif name == "chosen_top":
            texts.append(ngettext("at most %(num)d card", "at most %(num)d cards", value))
    return texts
