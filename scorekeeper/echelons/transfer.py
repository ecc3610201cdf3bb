"""A patience log or a race match as a JSON document, and back, through a declared schema."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from flask_babel import gettext as _
from pydantic import AfterValidator, Field

from scorekeeper.echelons.forms import MAX_NAME
from scorekeeper.echelons.models import EchelonsGame, PatienceRecord
from scorekeeper.games.models import Game, Player
from scorekeeper.games.transfer import (
    EARLIEST,
    LATEST,
    CorrectionFile,
    Schema,
    Text,
    TransferError,
    When,
    corrections_from_file,
    corrections_to_json,
    envelope,
    read_envelope,
    read_schema,
)


def _in_range(day: date) -> date:
    if not EARLIEST.date() <= day < LATEST.date():
        raise ValueError("date out of range")
    return day


Day = Annotated[date, AfterValidator(_in_range)]


class EntryFile(Schema):
    number: Annotated[int, Field(ge=1, le=100_000)]
    played_on: Day
    cards_home: Annotated[int, Field(ge=0, le=52)] | None = None
    minutes: Annotated[int, Field(ge=1, le=1440)] | None = None
    left_a: Annotated[int, Field(ge=0, le=52)] | None = None
    left_b: Annotated[int, Field(ge=0, le=52)] | None = None


class Corrections(CorrectionFile):
    kind: Literal["game", "game-deleted", "undo-game"]


class GameFile(Schema):
    format: Literal["scorekeeper-game"]
    version: Literal[1]
    family: Literal["echelons"]
    race: bool = False
    players: Annotated[
        tuple[Text(MAX_NAME, shortest=1), ...],  # type: ignore[valid-type]
        Field(min_length=1, max_length=2),
    ]
    created_at: When | None = None
    games: Annotated[tuple[EntryFile, ...], Field(max_length=100_000)] = ()
    corrections: Annotated[tuple[Corrections, ...], Field(max_length=10_000)] = ()


def game_to_json(game: Game) -> dict[str, Any]:
    assert isinstance(game, EchelonsGame)
    return {
        **envelope("echelons"),
        "race": game.race,
        "players": list(game.names),
        "created_at": game.created_at.isoformat(timespec="seconds"),
        "games": [
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
        "corrections": corrections_to_json(game),
    }


def game_from_json(raw: bytes) -> EchelonsGame:
    """A new log or match from an exported file, or :class:`TransferError` saying what is wrong."""
    read_envelope(raw)
    document = read_schema(GameFile, raw)
    if len(document.players) != (2 if document.race else 1):
        raise TransferError(_("A log has one player and a race two."))
    keys = [entry.number for entry in document.games]
    if keys != sorted(set(keys)):
        raise TransferError(_("The file's games are not in order."))
    for place, entry in enumerate(document.games, start=1):
        if document.race:
            if entry.left_a is None or entry.left_b is None or entry.cards_home is not None:
                raise TransferError(
                    _("Game %(number)d of the file is not a race game.", number=place)
                )
            if entry.left_a == entry.left_b == 0:
                raise TransferError(
                    _(
                        "Game %(number)d of the file: both players cannot have finished first.",
                        number=place,
                    )
                )
        elif entry.cards_home is None or entry.left_a is not None or entry.left_b is not None:
            raise TransferError(
                _("Game %(number)d of the file is not a game of the log.", number=place)
            )
    return EchelonsGame(
        race=document.race,
        **({"created_at": document.created_at} if document.created_at else {}),
        players=[Player(seat=seat, name=name) for seat, name in enumerate(document.players)],
        entries=[PatienceRecord(**entry.model_dump()) for entry in document.games],
        corrections=corrections_from_file(document.corrections),
    )
