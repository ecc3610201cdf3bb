"""A club session as a JSON document, and back: read through a declared schema, then checked
by the engine (every result scored) and against the movement (who sat where)."""

from __future__ import annotations

import datetime
from typing import Annotated, Any, Literal

from flask_babel import gettext as _
from pydantic import Field, StringConstraints, model_validator

from scorekeeper.club.forms import BOARDS_PER_ROUND, MAX_EVENT, MAX_NAMES, MITCHELL_TABLES
from scorekeeper.club.models import FROM_FILE, ClubSession
from scorekeeper.club.rows import ClubDeal, ClubPair, ClubResult, ClubTable
from scorekeeper.club.seating import seating_at
from scorekeeper.contract.labels import rule_message
from scorekeeper.games import transfer
from scorekeeper.games.models import Game, utcnow
from scorekeeper.rules.common import RuleError, Side
from scorekeeper.rules.duplicate import Ranking, Scoring
from scorekeeper.rules.movements import Seating
from scorekeeper.rules.published import Convention

Number = Annotated[int, Field(ge=1, le=999)]
MAX_TIEBREAK = 10_000
Artificial = Literal["A+", "A=", "A-"]
PublishedFigure = Annotated[
    str, StringConstraints(pattern=r"^[+-]?\d{1,7}(\.\d{1,6})?$", max_length=16)
]
"""A figure a results file published, as it wrote it ("28.30"), within a figure's reach."""
PublishedPlace = Annotated[str, StringConstraints(pattern=r"^\d{1,4}=?$")]


class ConventionFile(transfer.Schema):
    """How a results file's program scored its session (rules.published.Convention)."""

    tops: Annotated[tuple[tuple[Number, Number], ...], Field(max_length=999)] = ()
    added: Literal["travellers", "neuberg"] = "travellers"
    rounding: Literal[1, 2] | None = None
    factored: bool = False
    out_of: Literal["played", "session"] = "played"
    data: Annotated[
        tuple[tuple[Number, Annotated[int, Field(ge=-7600, le=7600)]], ...], Field(max_length=999)
    ] = ()
    divisor: Literal["comparisons", "results", "none"] = "comparisons"


class SettingsFile(transfer.Schema):
    movement: Literal["mitchell", "howell", "file"]
    tables: Annotated[int, Field(ge=1, le=99)]
    boards_per_round: Annotated[int, Field(ge=0, le=max(BOARDS_PER_ROUND))] = 0
    pairs: Annotated[int, Field(ge=0, le=198)] = 0
    scoring: Literal["matchpoints", "butler", "cross-imps"] = "matchpoints"
    ranking: Literal["field", "direction", "switched"] = "field"
    event: transfer.Text(MAX_EVENT) = ""  # type: ignore[valid-type]
    club: transfer.Text(MAX_EVENT) = ""  # type: ignore[valid-type]
    date: datetime.date | None = None
    """The day the session was played, when its results file gave it."""
    closed: bool = False
    shown: Literal["end", "played", "rounds", "all"] = "played"
    names_shown: bool = True
    asks_lead: bool = False
    late_from: Annotated[int, Field(ge=1, le=99)] | None = None
    switched_rounds: Annotated[tuple[Number, ...], Field(max_length=99)] = ()
    added_from: Annotated[int, Field(ge=1, le=99)] | None = None
    added_pairs: Literal[1, 2] = 2
    left_pair: Number | None = None
    left_direction: Literal["", "NS", "EW"] = ""
    left_from: Annotated[int, Field(ge=1, le=99)] | None = None
    expected: Annotated[tuple[tuple[Number, Number], ...], Field(max_length=999)] = ()
    totals: Literal["exact", "board-tenths"] = "exact"
    """How a file read before its figures were kept was scored (now ``convention``)."""
    convention: ConventionFile | None = None


class PairFile(transfer.Schema):
    number: Number
    direction: Literal["", "NS", "EW"] = ""
    names: transfer.Text(MAX_NAMES) = ""  # type: ignore[valid-type]
    tiebreak: Annotated[int, Field(ge=-MAX_TIEBREAK, le=MAX_TIEBREAK)] | None = None
    published_place: PublishedPlace | None = None
    published_total: PublishedFigure | None = None
    published_percentage: PublishedFigure | None = None
    published_boards: Annotated[int, Field(ge=0, le=10_000)] | None = None
    first_number: transfer.Text(20, shortest=1) | None = None  # type: ignore[valid-type]
    second_number: transfer.Text(20, shortest=1) | None = None  # type: ignore[valid-type]


class ResultFile(transfer.Schema):
    board: Number
    table: Number
    round: Number
    ns: Number
    ew: Number
    level: Annotated[int, Field(ge=1, le=7)] | None = None
    strain: Literal["C", "D", "H", "S", "NT"] | None = None
    doubled: Literal[0, 1, 2] = 0
    declarer: Literal["N", "E", "S", "W"] | None = None
    tricks: Annotated[int, Field(ge=0, le=13)] | None = None
    artificial_ns: Artificial | None = None
    artificial_ew: Artificial | None = None
    lead: transfer.Text(3) = ""  # type: ignore[valid-type]
    switched: bool = False
    confirmed: bool = False
    entered_at: transfer.When | None = None
    published_ns: PublishedFigure | None = None
    published_ew: PublishedFigure | None = None

    @model_validator(mode="after")
    def played_passed_or_artificial(self) -> ResultFile:
        contract = (self.level, self.strain, self.declarer, self.tricks)
        if None in contract and any(part is not None for part in contract):
            raise ValueError("a played board has its level, strain, declarer and tricks")
        if (self.artificial_ns is None) != (self.artificial_ew is None):
            raise ValueError("an artificial score is given to both sides")
        if self.artificial_ns is not None and self.level is not None:
            raise ValueError("a board has a contract or artificial scores, not both")
        return self


class DealFile(transfer.Schema):
    board: Number
    deal: transfer.Text(80)  # type: ignore[valid-type]


class Corrections(transfer.CorrectionFile):
    kind: Literal[
        "result",
        "result-deleted",
        "artificial",
        "undo-result",
        "result-moved",
        "late-pair",
        "arrow-switch",
        "added-table",
        "pair-left",
        "seats-switched",
    ]


class GameFile(transfer.GameFile):
    family: Literal["club"]
    settings: SettingsFile
    pairs: Annotated[tuple[PairFile, ...], Field(max_length=198)] = ()
    results: Annotated[tuple[ResultFile, ...], Field(max_length=20_000)] = ()
    deals: Annotated[tuple[DealFile, ...], Field(max_length=999)] = ()
    corrections: Annotated[tuple[Corrections, ...], Field(max_length=10_000)] = ()


RESULT_FIELDS = (
    "board", "table", "round", "ns", "ew", "level", "strain", "doubled", "declarer", "tricks",
    "artificial_ns", "artificial_ew", "lead", "switched", "confirmed",
)  # fmt: skip
PUBLISHED_RESULT_FIELDS = ("published_ns", "published_ew")
PUBLISHED_PAIR_FIELDS = (
    "published_place", "published_total", "published_percentage", "published_boards",
)  # fmt: skip
"""What a results file published, kept where it said it."""
NUMBER_FIELDS = ("first_number", "second_number")
"""The players' federation numbers a results file gave."""


def given(row: object, names: tuple[str, ...]) -> dict[str, Any]:
    """The fields of ``row`` that hold something."""
    return {name: value for name in names if (value := getattr(row, name)) is not None}


def game_to_json(game: Game) -> dict[str, Any]:
    assert isinstance(game, ClubSession)
    return transfer.game_file(
        game,
        # The tables' versions start again in another server: when the movement last
        # changed at each means nothing there.
        settings={k: v for k, v in game.settings.items() if k != "reseated"},
        pairs=[
            {"number": p.number, "direction": p.direction, "names": p.names}
            | ({"tiebreak": p.tiebreak} if p.tiebreak is not None else {})
            | given(p, PUBLISHED_PAIR_FIELDS)
            | given(p, NUMBER_FIELDS)
            for p in game.pairs
        ],
        results=[
            {name: getattr(r, name) for name in RESULT_FIELDS}
            | {"entered_at": r.entered_at.isoformat(timespec="seconds")}
            | given(r, PUBLISHED_RESULT_FIELDS)
            for r in game.results
        ],
        deals=[{"board": d.board, "deal": d.deal} for d in game.deals],
    )


def game_from_json(raw: bytes) -> ClubSession:
    """A new session from an exported file, or :class:`TransferError` saying what is wrong."""
    transfer.read_envelope(raw)
    document = transfer.read_schema(GameFile, raw)
    # How a file's session was scored is kept only when the file says it.
    unsaid = {"expected", "totals", "convention"} - document.settings.model_fields_set
    settings = document.settings.model_dump(mode="json", exclude_none=True, exclude=unsaid)
    if "convention" in settings:
        settings["convention"] = Convention.from_settings(settings["convention"]).as_settings()
    if settings["movement"] != FROM_FILE:
        valid = (
            settings["tables"] in MITCHELL_TABLES
            and settings["boards_per_round"] in BOARDS_PER_ROUND
        )
        if not valid or settings["pairs"] not in (
            2 * settings["tables"],
            2 * settings["tables"] - 1,
        ):
            raise transfer.TransferError(_("The file's movement is not one Scorekeeper knows."))
    session = ClubSession(
        settings=settings,
        created_at=document.created_at or utcnow(),  # the session is scored before it is stored
        pairs=[ClubPair(**pair.model_dump()) for pair in document.pairs],
        deals=[ClubDeal(**deal.model_dump()) for deal in document.deals],
        corrections=transfer.corrections_from_file(document.corrections),
    )
    try:
        movement = session.movement
    except RuleError:
        raise transfer.TransferError(
            _("The file's movement is not one Scorekeeper knows.")
        ) from None
    if len({(pair.direction, pair.number) for pair in session.pairs}) != len(session.pairs):
        raise transfer.TransferError(_("The file names a pair twice."))
    if len({deal.board for deal in session.deals}) != len(session.deals):
        raise transfer.TransferError(_("The file gives a board's cards twice."))
    for entry in document.results:
        values = entry.model_dump(exclude_none=True)
        session.results.append(ClubResult(**values))
    check_session(session)
    tables = (
        movement.tables
        if movement is not None
        else max((r.table for r in session.results), default=0)
    )
    session.tables = [ClubTable(number=number) for number in range(1, tables + 1)]
    return session


def seated_ways(seating: Seating) -> set[tuple[int, int, bool]]:
    """The pairs at North-South and East-West, and whether they sat the other way round, of
    a result at ``seating``: as the movement seats them, or the other way round (a
    correction)."""
    (north, _side), (east, _other) = seating.at(Side.NS), seating.at(Side.EW)
    return {(north, east, seating.switched), (east, north, not seating.switched)}


def check_session(session: ClubSession) -> None:
    """Every result scores and sits where the movement puts it; the session scores."""
    movement = session.movement
    seen = set()
    for place, result in enumerate(session.results, start=1):
        key = (result.board, result.table, result.round)
        if key in seen:
            raise transfer.TransferError(
                _("Result %(number)d of the file is there twice.", number=place)
            )
        seen.add(key)
        if movement is not None:
            seating = seating_at(movement, result.round, result.table)
            if (
                seating is None
                or result.board not in range(1, movement.boards + 1)  # a result moved too
                or (result.ns, result.ew, bool(result.switched)) not in seated_ways(seating)
                or movement.sits_out(seating)
            ):
                raise transfer.TransferError(
                    _(
                        "Result %(number)d of the file is not where the movement seats it.",
                        number=place,
                    )
                )
    try:
        session.score()
    except RuleError as error:
        raise transfer.TransferError(rule_message(error)) from None
    except ValueError:
        raise transfer.TransferError(_("This file is not a Scorekeeper game.")) from None


__all__ = ["Ranking", "Scoring", "game_from_json", "game_to_json"]
