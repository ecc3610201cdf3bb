"""A patience log or a race match as a JSON document, and back, through a declared schema."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from flask_babel import gettext as _
from pydantic import AfterValidator, Field

from scorekeeper.echelons.forms import MAX_NAME
from scorekeeper.echelons.models import EchelonsGame, PatienceRecord
from scorekeeper.games import transfer
from scorekeeper.games.models import Game, Player


def _in_range(day: date) -> date:
    if not transfer.EARLIEST.date() <= day < transfer.LATEST.date():
        raise ValueError("date out of range")
    return day


Day = Annotated[date, AfterValidator(_in_range)]


class EntryFile(transfer.Schema):
    number: Annotated[int, Field(ge=1, le=100_000)]
    played_on: Day
    cards_home: Annotated[int, Field(ge=0, le=52)] | None = None
    minutes: Annotated[int, Field(ge=1, le=1440)] | None = None
    left_a: Annotated[int, Field(ge=0, le=52)] | None = None
    left_b: Annotated[int, Field(ge=0, le=52)] | None = None


class Corrections(transfer.CorrectionFile):
    kind: Literal["game", "game-deleted", "undo-game"]


class GameFile(transfer.GameFile):
    family: Literal["echelons"]
    race: bool = False
    players: Annotated[
        tuple[transfer.Text(MAX_NAME, shortest=1), ...],  # type: ignore[valid-type]
        Field(min_length=1, max_length=2),
    ]
    games: Annotated[tuple[EntryFile, ...], Field(max_length=100_000)] = ()
    corrections: Annotated[tuple[Corrections, ...], Field(max_length=10_000)] = ()


def game_to_json(game: Game) -> dict[str, Any]:
    assert isinstance(game, EchelonsGame)
    return transfer.game_file(
        game,
        race=game.race,
        players=list(game.names),
        games=[
            {
                "number": r.number,
                "played_on": r.played_on.isoformat(),
                **(
                    {"left_a": r.left_a, "left_b": r.left_b}
                    if game.race
                    else {"cards_home": r.cards_home, "minutes": r.minutes}
                ),
            }
            for r in game.entries
        ],
    )


def game_from_json(raw: bytes) -> EchelonsGame:
    """A new log or match from an exported file, or :class:`TransferError` saying what is wrong."""
    transfer.read_envelope(raw)
    document = transfer.read_schema(GameFile, raw)
    if len(document.players) != (2 if document.race else 1):
        raise transfer.TransferError(_("A log has one player and a race two."))
    keys = [entry.number for entry in document.games]
    if keys != sorted(set(keys)):
        raise transfer.TransferError(_("The file's games are not in order."))
    for place, entry in enumerate(document.games, start=1):
        if document.race:
            if entry.left_a is None or entry.left_b is None or entry.cards_home is not None:
                raise transfer.TransferError(
                    _("Game %(number)d of the file is not a race game.", number=place)
                )
            if entry.left_a == entry.left_b == 0:
                raise transfer.TransferError(
                    _(
                        "Game %(number)d of the file: both players cannot have finished first.",
                        number=place,
                    )
                )
        elif entry.cards_home is None or entry.left_a is not None or entry.left_b is not None:
            raise transfer.TransferError(
                _("Game %(number)d of the file is not a game of the log.", number=place)
            )
    return EchelonsGame(
        race=document.race,
        **transfer.kept_from(document),
        players=[Player(seat=seat, name=name) for seat, name in enumerate(document.players)],
        entries=[PatienceRecord(**entry.model_dump()) for entry in document.games],
    )
