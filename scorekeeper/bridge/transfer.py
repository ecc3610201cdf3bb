"""An evening of bridge as a JSON document, and back: read through a declared schema, then
scored by the engine, which has the last word on every deal."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from flask_babel import gettext as _
from pydantic import Field, model_validator

from scorekeeper.bridge.evening import score_evening
from scorekeeper.bridge.forms import MAX_NAME
from scorekeeper.bridge.labels import rule_message
from scorekeeper.bridge.models import BridgeGame, DealRecord, SeatingRecord
from scorekeeper.games import transfer
from scorekeeper.games.models import Game, Player
from scorekeeper.rules.bridge import Rounding
from scorekeeper.rules.common import RuleError

SeatLetter = Literal["N", "E", "S", "W"]
PlayerIndex = Annotated[int, Field(ge=0, le=3)]


class SeatsFile(transfer.Schema):
    N: PlayerIndex
    E: PlayerIndex
    S: PlayerIndex
    W: PlayerIndex


class SeatingFile(transfer.Schema):
    number: Annotated[int, Field(ge=1, le=1000)]
    seats: SeatsFile


class DealFile(transfer.Schema):
    number: Annotated[int, Field(ge=1, le=10_000)]
    rubber: Annotated[int, Field(ge=1, le=1000)]
    level: Annotated[int, Field(ge=1, le=7)] | None = None
    strain: Literal["C", "D", "H", "S", "NT"] | None = None
    doubled: Literal[0, 1, 2] = 0
    declarer: SeatLetter | None = None
    tricks: Annotated[int, Field(ge=0, le=13)] | None = None
    honours_side: Literal["NS", "EW"] | None = None
    honours: Literal[100, 150] | None = None

    @model_validator(mode="after")
    def played_or_passed_out(self) -> DealFile:
        contract = (self.level, self.strain, self.declarer, self.tricks)
        if None in contract and any(part is not None for part in contract):
            raise ValueError("a played deal has a level, a strain, a declarer and tricks")
        if (self.honours is None) != (self.honours_side is None):
            raise ValueError("honours have a side and a figure")
        return self


class Corrections(transfer.CorrectionFile):
    kind: Literal["deal", "deal-deleted", "undo-deal"]


class SettingsFile(transfer.Schema):
    chicago: bool = False
    as_duplicate: bool = False
    first_dealer: SeatLetter = "N"
    rounding: Rounding = Rounding.FIFTY_UP


class GameFile(transfer.GameFile):
    """An exported evening of bridge, as :func:`game_to_json` writes it."""

    family: Literal["bridge"]
    settings: SettingsFile
    players: Annotated[
        tuple[transfer.Text(MAX_NAME, shortest=1), ...],  # type: ignore[valid-type]
        Field(min_length=4, max_length=4),
    ]
    seatings: Annotated[tuple[SeatingFile, ...], Field(min_length=1, max_length=1000)]
    deals: Annotated[tuple[DealFile, ...], Field(max_length=10_000)] = ()
    corrections: Annotated[tuple[Corrections, ...], Field(max_length=10_000)] = ()


def game_to_json(game: Game) -> dict[str, Any]:
    """The evening as stored: its settings, players, seats, every deal, the log."""
    assert isinstance(game, BridgeGame)
    return transfer.game_file(
        game,
        settings={
            "chicago": game.chicago,
            "as_duplicate": game.as_duplicate,
            "first_dealer": game.first_dealer.value,
            "rounding": game.rounding.value,
        },
        players=list(game.names),
        seatings=[{"number": s.number, "seats": dict(s.seats)} for s in game.seatings],
        deals=[{"number": d.number, "rubber": d.rubber, **d.values} for d in game.deals],
    )


def game_from_json(raw: bytes) -> BridgeGame:
    """A new evening from an exported file, or :class:`TransferError` saying what is wrong."""
    transfer.read_envelope(raw)
    document = transfer.read_schema(GameFile, raw)
    names = list(document.players)
    if len({name.casefold() for name in names}) != len(names):
        raise transfer.TransferError(_("Two players cannot have the same name."))
    numbers = [seating.number for seating in document.seatings]
    if numbers != list(range(1, len(numbers) + 1)):
        raise transfer.TransferError(_("The file's rubbers are not numbered 1, 2, 3..."))
    for seating in document.seatings:
        if len(set(seating.seats.model_dump().values())) != 4:
            raise transfer.TransferError(
                _("Rubber %(number)d of the file seats a player twice.", number=seating.number)
            )
    keys = [deal.number for deal in document.deals]
    if keys != sorted(set(keys)):
        raise transfer.TransferError(_("The file's deals are not in order."))
    if any(deal.rubber > len(numbers) for deal in document.deals):
        raise transfer.TransferError(_("A deal of the file belongs to a rubber it does not have."))
    game = BridgeGame(
        chicago=document.settings.chicago,
        as_duplicate=document.settings.as_duplicate,
        first_dealer=document.settings.first_dealer,
        rounding=document.settings.rounding,
        **transfer.kept_from(document),
        players=[Player(seat=seat, name=name) for seat, name in enumerate(names)],
        seatings=[
            SeatingRecord(number=s.number, seats=s.seats.model_dump()) for s in document.seatings
        ],
        deals=[DealRecord(**deal.model_dump()) for deal in document.deals],
    )
    try:
        score_evening(game)
    except RuleError as error:
        raise transfer.TransferError(
            _("The file's evening cannot be played: %(error)s", error=rule_message(error))
        ) from None
    return game
