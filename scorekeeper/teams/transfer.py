"""A teams match as a JSON document, and back: read through a declared schema, then scored by
the engine, which has the last word on every result."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from flask_babel import gettext as _
from pydantic import Field, model_validator

from scorekeeper.contract.forms import MAX_NAME
from scorekeeper.contract.labels import rule_message
from scorekeeper.games import transfer
from scorekeeper.games.models import Game, Player
from scorekeeper.rules.bridge import Seat
from scorekeeper.rules.common import RuleError
from scorekeeper.teams.match import score_match
from scorekeeper.teams.models import (
    HIGHEST_FIRST_BOARD,
    MAX_TEAM,
    MOST_BOARDS,
    SEATS,
    TableResult,
    TeamsGame,
    player_seat,
)

SeatLetter = Literal["N", "E", "S", "W"]
TableNumber = Literal[1, 2]


class PlayerFile(transfer.Schema):
    table: TableNumber
    seat: SeatLetter
    name: transfer.Text(MAX_NAME, shortest=1)  # type: ignore[valid-type]


class ResultFile(transfer.Schema):
    board: Annotated[int, Field(ge=1, le=HIGHEST_FIRST_BOARD + MOST_BOARDS)]
    table: TableNumber
    level: Annotated[int, Field(ge=1, le=7)] | None = None
    strain: Literal["C", "D", "H", "S", "NT"] | None = None
    doubled: Literal[0, 1, 2] = 0
    declarer: SeatLetter | None = None
    tricks: Annotated[int, Field(ge=0, le=13)] | None = None

    @model_validator(mode="after")
    def played_or_passed_out(self) -> ResultFile:
        contract = (self.level, self.strain, self.declarer, self.tricks)
        if None in contract and any(part is not None for part in contract):
            raise ValueError("a played board has a level, a strain, a declarer and tricks")
        return self


class Corrections(transfer.CorrectionFile):
    kind: Literal["result", "undo-result"]


class SettingsFile(transfer.Schema):
    teams: Annotated[
        tuple[transfer.Text(MAX_TEAM, shortest=1), ...],  # type: ignore[valid-type]
        Field(min_length=2, max_length=2),
    ]
    boards: Annotated[int, Field(ge=1, le=MOST_BOARDS)]
    first_board: Annotated[int, Field(ge=1, le=HIGHEST_FIRST_BOARD)] = 1


class GameFile(transfer.GameFile):
    """An exported teams match, as :func:`game_to_json` writes it."""

    family: Literal["teams"]
    settings: SettingsFile
    players: Annotated[tuple[PlayerFile, ...], Field(max_length=8)] = ()
    results: Annotated[tuple[ResultFile, ...], Field(max_length=2 * MOST_BOARDS)] = ()
    corrections: Annotated[tuple[Corrections, ...], Field(max_length=10_000)] = ()


def game_to_json(game: Game) -> dict[str, Any]:
    """The match as stored: its settings, who sat where, every result, the log."""
    assert isinstance(game, TeamsGame)
    seated = {player.seat: player.name for player in game.players}
    return transfer.game_file(
        game,
        settings={
            "teams": list(game.team_names),
            "boards": game.boards,
            "first_board": game.first_board,
        },
        players=[
            {"table": table, "seat": seat.value, "name": seated[player_seat(table, seat)]}
            for table in (1, 2)
            for seat in SEATS
            if player_seat(table, seat) in seated
        ],
        results=[{"board": r.board, "table": r.table, **r.values} for r in game.results],
    )


def check_document(document: GameFile) -> None:
    """What the schema alone cannot say: distinct names, and results board after board,
    table 1 then table 2, within the match."""
    first, second = document.settings.teams
    if first.casefold() == second.casefold():
        raise transfer.TransferError(_("The two teams need different names."))
    names = [player.name.casefold() for player in document.players]
    if len(set(names)) != len(names):
        raise transfer.TransferError(_("Two players cannot have the same name."))
    places = [(player.table, player.seat) for player in document.players]
    if len(set(places)) != len(places):
        raise transfer.TransferError(_("The file seats two players in the same place."))
    start, boards = document.settings.first_board, document.settings.boards
    expected = [(start + k // 2, k % 2 + 1) for k in range(len(document.results))]
    if [(r.board, r.table) for r in document.results] != expected or len(expected) > 2 * boards:
        raise transfer.TransferError(
            _("The file's results do not follow the match's boards, table 1 then table 2.")
        )


def game_from_json(raw: bytes) -> TeamsGame:
    """A new match from an exported file, or :class:`TransferError` saying what is wrong."""
    transfer.read_envelope(raw)
    document = transfer.read_schema(GameFile, raw)
    check_document(document)
    settings = document.settings
    game = TeamsGame(
        team_names=(settings.teams[0], settings.teams[1]),
        boards=settings.boards,
        first_board=settings.first_board,
        **transfer.kept_from(document),
        players=[
            Player(seat=player_seat(p.table, Seat(p.seat)), name=p.name) for p in document.players
        ],
        results=[TableResult(**result.model_dump()) for result in document.results],
    )
    try:
        score_match(game)
    except RuleError as error:
        raise transfer.TransferError(
            _("The file's match cannot be scored: %(error)s", error=rule_message(error))
        ) from None
    return game
