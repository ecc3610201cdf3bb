"""A Tarot game as a JSON document, and back: read through a declared schema, then each deal
checked by the engine, which has the last word."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from flask_babel import gettext as _
from pydantic import Field, model_validator

from scorekeeper.games import transfer
from scorekeeper.games.models import Game, Player
from scorekeeper.rules.tarot import PLAYERS, Camp, Chelem, Contract, Poignee, TarotError
from scorekeeper.tarot.forms import MAX_NAME, rule_message
from scorekeeper.tarot.models import FIELDS, TarotDealRecord, TarotGame

Seat = Annotated[int, Field(ge=0, le=max(PLAYERS) - 1)]


class DealFile(transfer.Schema):
    number: Annotated[int, Field(ge=1, le=100_000)]
    taker: Seat | None = None
    contract: Contract | None = None
    partner: Seat | None = None
    bouts: Annotated[int, Field(ge=0, le=3)] | None = None
    half_points: Annotated[int, Field(ge=0, le=182)] | None = None
    petit_au_bout: Camp | None = None
    poignee_taker: Poignee | None = None
    poignee_defence: Poignee | None = None
    chelem: Chelem | None = None

    @model_validator(mode="after")
    def played_or_passed(self) -> DealFile:
        played = (self.taker, self.contract, self.bouts, self.half_points)
        rest = [getattr(self, name) for name in FIELDS]
        if None in played and any(value is not None for value in rest):
            raise ValueError("a deal played has a taker, a contract, bouts and points")
        return self


class Corrections(transfer.CorrectionFile):
    kind: Literal["deal", "deal-deleted", "undo-deal"]


class GameFile(transfer.GameFile):
    """A Tarot game, as :func:`game_to_json` writes it."""

    family: Literal["tarot"]
    first_dealer: Seat = 0
    players: Annotated[
        tuple[transfer.Text(MAX_NAME, shortest=1), ...],  # type: ignore[valid-type]
        Field(min_length=min(PLAYERS), max_length=max(PLAYERS)),
    ]
    deals: Annotated[tuple[DealFile, ...], Field(max_length=10_000)] = ()
    corrections: Annotated[tuple[Corrections, ...], Field(max_length=10_000)] = ()


def game_to_json(game: Game) -> dict[str, Any]:
    assert isinstance(game, TarotGame)
    return transfer.game_file(
        game,
        first_dealer=game.first_dealer,
        players=list(game.names),
        deals=[
            {"number": record.number, **{name: getattr(record, name) for name in FIELDS}}
            for record in game.deals
        ],
    )


def game_from_json(raw: bytes) -> TarotGame:
    """A new game from an exported file, or :class:`TransferError` saying what is wrong."""
    transfer.read_envelope(raw)
    document = transfer.read_schema(GameFile, raw)
    names = list(document.players)
    if len({name.casefold() for name in names}) != len(names):
        raise transfer.TransferError(_("Two players cannot have the same name."))
    if document.first_dealer >= len(names):
        raise transfer.TransferError(_("The file's first dealer is not at its table."))
    keys = [deal.number for deal in document.deals]
    if keys != sorted(set(keys)):
        raise transfer.TransferError(_("The file's deals are not in order."))
    records = [TarotDealRecord(**deal.model_dump(mode="json")) for deal in document.deals]
    for place, record in enumerate(records, start=1):
        try:
            record.deal(len(names))
        except TarotError as error:
            raise transfer.TransferError(
                _("Deal %(number)d of the file: %(error)s", number=place, error=rule_message(error))
            ) from None
    return TarotGame(
        first_dealer=document.first_dealer,
        **transfer.kept_from(document),
        players=[Player(seat=seat, name=name) for seat, name in enumerate(names)],
        deals=records,
    )
