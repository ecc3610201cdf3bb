"""From the new-game form to the engine's variant, and the preview of the game it makes."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from flask_babel import gettext as _

from scorekeeper.ascenseur.forms import HOUSE_RULES, OWN_SCORING, SetupForm
from scorekeeper.ascenseur.labels import card_label, scoring_examples
from scorekeeper.forms import printable
from scorekeeper.rules import ascenseur as rules

RULE_KINDS: dict[str, Any] = {
    "top_rounds": rules.TopRounds,
    "bidding": rules.Bidding,
    "first_lead": rules.FirstLead,
    "play": rules.Play,
}


@dataclass(frozen=True)
class Preview:
    """What the game will be, shown before it starts."""

    schedule: tuple[int, ...]
    removed: list[str]
    examples: list[str]
    no_trump_rounds: int


def rearrange_players(form: SetupForm, action: str, most: int) -> None:
    """Add, remove or move a player row, keeping the first dealer on the same person."""
    names = form.names()
    dealer = form.first_dealer.data if isinstance(form.first_dealer.data, int) else 0
    verb, _sep, index_text = action.partition("-")
    index = int(index_text) if index_text.isdecimal() and len(index_text) < 3 else -1
    if verb == "add" and len(names) < most:
        names.append("")
    elif verb == "remove" and 0 <= index < len(names) and len(names) > 2:
        del names[index]
        dealer = dealer - 1 if dealer > index else (0 if dealer == index else dealer)
    elif verb == "up" and 0 < index < len(names):
        names[index - 1], names[index] = names[index], names[index - 1]
        dealer = {index: index - 1, index - 1: index}.get(dealer, dealer)
    while form.players.entries:
        form.players.pop_entry()
    for name in names:
        form.players.append_entry(name)
    form.first_dealer.data = min(dealer, len(names) - 1)


def variant_from_form(base: rules.Variant, form: SetupForm) -> rules.Variant:
    """The preset with the house rules and own rules the form chose; ValueError if impossible."""
    changes: dict[str, Any] = {name: form[name].data for name in HOUSE_RULES}
    for name, kind in RULE_KINDS.items():
        changes[name] = kind(changes[name])
    if base.top is not rules.Top.DECK_SHARE:  # a deck of its own would not change its schedule
        changes.pop("deck_cards")
        changes.pop("decks")
    changes["hook_from"] = (form.hook_from.data or 1) if form.hook.data else None
    changes["blind_one_card_rounds"] = bool(form.blind_one_card_rounds.data)
    # The table's own rules: the form starts from the preset's, so what is left alone stays.
    numbers = {name: form[name].data for name in OWN_SCORING if form[name].data is not None}
    numbers["made_zero"] = form.made_zero.data
    changes["scoring"] = replace(base.scoring, **numbers)
    changes["shape"] = rules.Shape(form.shape.data)
    changes["hands"] = rules.Hands(form.hands.data)
    changes["trump"] = rules.TrumpCard(form.trump.data)
    if form.chosen_top.data:
        changes["top"] = rules.Top.CHOSEN
        changes["chosen_top"] = form.chosen_top.data
    return replace(base, **changes)


def name_errors(form: SetupForm, variant: rules.Variant) -> list[str]:
    """What is wrong with the players: empty or repeated names, too few or too many."""
    errors: list[str] = []
    seen: set[str] = set()
    for entry in form.players.entries:
        name = (entry.data or "").strip()
        if not name:
            entry.errors = [*entry.errors, _("Enter a name, or remove this row.")]
        elif not printable(name):
            entry.errors = [*entry.errors, _("A name is made of letters, digits and signs.")]
        elif name.casefold() in seen:
            entry.errors = [*entry.errors, _("Two players cannot have the same name.")]
        seen.add(name.casefold())
    count = len(form.players.entries)
    if count not in variant.player_counts:
        errors.append(
            _(
                "This game is for %(low)d to %(high)d players, not %(count)d.",
                low=variant.min_players,
                high=variant.max_players,
                count=count,
            )
        )
    return errors


def preview(variant: rules.Variant, players: int) -> Preview:
    """Rounds, schedule, cards to remove and worked scoring examples for the table to check."""
    cards = rules.schedule(variant, players)
    return Preview(
        schedule=cards,
        removed=[card_label(card) for card in rules.removed_cards(variant, players)],
        examples=scoring_examples(variant.scoring),
        no_trump_rounds=sum(1 for n in cards if not rules.has_trump(variant, players, n)),
    )
