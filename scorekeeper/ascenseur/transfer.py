"""A whole game as a JSON document, and back: read through a declared schema (the same limits
as the new-game form and the round pages), then checked by the engine."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from flask_babel import gettext as _
from pydantic import Field

from scorekeeper.ascenseur.forms import MAX_NAME, MAX_POINTS
from scorekeeper.ascenseur.labels import error_message
from scorekeeper.ascenseur.models import AscenseurGame, CorrectionKind, RoundRecord
from scorekeeper.games.models import VALUES_LENGTH, Correction, Game, Player
from scorekeeper.games.transfer import (
    Schema,
    Text,
    TransferError,
    When,
    envelope,
    read_envelope,
    read_schema,
)
from scorekeeper.rules import ascenseur as rules
from scorekeeper.rules.cards import Suit

MAX_SEATS = 26
Points = Annotated[int, Field(ge=0, le=MAX_POINTS)]
Cards = Annotated[int, Field(ge=1, le=52)]
Count = Annotated[int, Field(ge=0, le=2 * 52)]
Seat = Annotated[int, Field(ge=0, le=MAX_SEATS - 1)]
SuitLetter = Literal["C", "D", "H", "S"]


class ScoringRules(Schema):
    """The table's own scoring numbers, as the new-game form takes them."""

    made_base: Points = 0
    made_per_trick: Points = 0
    made_zero: Points | None = None
    missed_flat: Points = 0
    missed_per_trick: Points = 0


class HouseRules(Schema):
    """A preset's rules that a game changes, each within the new-game form's limits."""

    min_players: Annotated[int, Field(ge=2, le=MAX_SEATS)] = 2
    max_players: Annotated[int, Field(ge=2, le=MAX_SEATS)] = MAX_SEATS
    deck_cards: Literal[32, 52] = 52
    decks: Literal[1, 2] = 1
    top: rules.Top = rules.Top.DECK_SHARE
    top_by_players: Annotated[
        tuple[tuple[Annotated[int, Field(ge=2, le=MAX_SEATS)], Cards], ...],
        Field(max_length=MAX_SEATS),
    ] = ()
    chosen_top: Cards | None = None
    top_rounds: rules.TopRounds = rules.TopRounds.ONCE
    shape: rules.Shape = rules.Shape.UP_AND_DOWN
    hands: rules.Hands = rules.Hands.ALL
    trump: rules.TrumpCard = rules.TrumpCard.WHEN_CARDS_REMAIN
    bidding: rules.Bidding = rules.Bidding.IN_TURN
    hook_from: Cards | None = None
    first_lead: rules.FirstLead = rules.FirstLead.DEALER
    play: rules.Play = rules.Play.FREE
    blind_one_card_rounds: bool = False
    scoring: ScoringRules = ScoringRules()


class RoundFile(Schema):
    number: Annotated[int, Field(ge=1, le=1000)]
    bids: Annotated[list[Count], Field(max_length=MAX_SEATS)]
    tricks: Annotated[list[Count], Field(max_length=MAX_SEATS)] | None = None
    trump: SuitLetter | None = None


class CorrectionFile(Schema):
    round: Annotated[int, Field(ge=1, le=1001)]
    at: When
    field: CorrectionKind
    seat: Seat | None = None
    old: Text(VALUES_LENGTH) | None = None  # type: ignore[valid-type]
    new: Text(VALUES_LENGTH) | None = None  # type: ignore[valid-type]


class GameFile(Schema):
    """An exported Ascenseur game, as :func:`game_to_json` writes it."""

    format: Literal["scorekeeper-game"]
    version: Literal[1]
    family: Literal["ascenseur"]
    preset: str
    house_rules: HouseRules = HouseRules()
    players: Annotated[
        list[Text(MAX_NAME, shortest=1)],  # type: ignore[valid-type]
        Field(min_length=2, max_length=MAX_SEATS),
    ]
    first_dealer: Seat
    created_at: When | None = None
    rounds: Annotated[tuple[RoundFile, ...], Field(max_length=1000)] = ()
    corrections: Annotated[tuple[CorrectionFile, ...], Field(max_length=10_000)] = ()


def game_to_json(game: Game) -> dict[str, Any]:
    """The game as stored: players, preset, house rules, every round's entries, the log."""
    assert isinstance(game, AscenseurGame)
    return {
        **envelope("ascenseur"),
        "preset": game.preset,
        "house_rules": game.house_rules,
        "players": list(game.names),
        "first_dealer": game.first_dealer,
        "created_at": game.created_at.isoformat(timespec="seconds"),
        "rounds": [
            {"number": r.number, "bids": r.bids, "tricks": r.tricks, "trump": r.trump}
            for r in game.rounds
        ],
        "corrections": [
            {
                "round": c.number,
                "at": c.made_at.isoformat(timespec="seconds"),
                "field": c.kind,
                "seat": c.seat,
                "old": c.old,
                "new": c.new,
            }
            for c in game.corrections
        ],
    }


def game_from_json(raw: bytes) -> AscenseurGame:
    """A new game from an exported file, or :class:`TransferError` saying what is wrong."""
    envelope = read_envelope(raw)
    preset = getattr(envelope, "preset", None)
    if envelope.family != "ascenseur" or not isinstance(preset, str) or preset not in rules.PRESETS:
        raise TransferError(
            _("This file is of a game Scorekeeper does not know: %(name)s", name=str(preset)[:40])
        )
    document = read_schema(GameFile, raw)
    try:
        variant = rules.with_house_rules(
            rules.PRESETS[preset], document.house_rules.model_dump(mode="json", exclude_unset=True)
        )
    except ValueError as error:
        raise TransferError(
            _("The file's house rules are not valid: %(error)s", error=error)
        ) from None
    names = list(document.players)
    for number, record in enumerate(document.rounds, start=1):
        if record.number != number:
            raise TransferError(_("Round %(number)d of the file is not readable.", number=number))
    entries = [
        rules.RoundEntry(
            tuple(record.bids),
            None if record.tricks is None else tuple(record.tricks),
            None if record.trump is None else Suit(record.trump),
        )
        for record in document.rounds
    ]
    try:
        rules.score_game(variant, names, document.first_dealer, entries)
    except rules.RoundError as error:
        raise TransferError(
            _(
                "Round %(number)d: %(problem)s",
                number=error.round_number,
                problem=error_message(error),
            )
        ) from None
    except ValueError as error:
        raise TransferError(_("The file's game cannot be played: %(error)s", error=error)) from None
    if any(
        change.round > len(entries) + 1 or (change.seat is not None and change.seat >= len(names))
        for change in document.corrections
    ):
        raise TransferError(_("The file's corrections log is not readable."))
    return AscenseurGame(
        preset=preset,
        house_rules=rules.house_rules(variant, rules.PRESETS[preset]),
        first_dealer=document.first_dealer,
        **({"created_at": document.created_at} if document.created_at else {}),
        players=[Player(seat=seat, name=name) for seat, name in enumerate(names)],
        rounds=RoundRecord.from_entries(entries),
        corrections=[
            Correction(
                number=change.round,
                made_at=change.at,
                kind=change.field,
                seat=change.seat,
                old=change.old,
                new=change.new,
            )
            for change in document.corrections
        ],
    )
