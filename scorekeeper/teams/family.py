"""The teams match as the table core knows it: its games, how one reads in the list of games,
its game file, how its last result is taken back, its log's lines; and the helpers its own
pages use (registered for its blueprint alone)."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any

from flask import url_for
from flask_babel import format_datetime, ngettext
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from scorekeeper import contract
from scorekeeper.contract.labels import (
    SEAT_LETTERS,
    contract_label,
    result_label,
)
from scorekeeper.games.entries import describer
from scorekeeper.games.helpers import figure
from scorekeeper.games.models import Correction, Game
from scorekeeper.games.registry import Family, NewGame, Summary, TakenBack, register
from scorekeeper.rules.bridge import Seat, Side, board_dealer, board_vulnerability
from scorekeeper.teams import bp
from scorekeeper.teams.history import IN_CIRCLES
from scorekeeper.teams.match import score_match
from scorekeeper.teams.models import TABLES, TableResult, TeamsGame, team_at
from scorekeeper.teams.transfer import game_from_json, game_to_json


class CorrectionKind(StrEnum):
    """What a line of a match's corrections log records; its number is the board's."""

    RESULT = "result"
    """A table's result corrected (old and new: see logged_code)."""
    UNDO_RESULT = "undo-result"
    """The last result entered taken back."""


CODE = re.compile(
    r"(?P<table>[12]):(?:pass|(?P<level>[1-7])(?P<strain>C|D|H|S|NT)(?P<doubled>X{0,2}) "
    r"(?P<declarer>[NESW]) (?P<tricks>\d{1,2}))"
)


def logged_code(record: TableResult) -> str:
    """A table's result in a few letters, for the log: "1:4SX S 9", "2:pass"."""
    return f"{record.table}:{record.code}"


def result_from_code(code: str | None) -> TableResult | None:
    """The result a log line names, to say it in the reader's language."""
    match = CODE.fullmatch(code or "")
    if match is None:
        return None
    record = TableResult(table=int(match["table"]), doubled=0)
    if match["level"]:
        record.level, record.strain = int(match["level"]), match["strain"]
        record.doubled, record.declarer = len(match["doubled"]), match["declarer"]
        record.tricks = int(match["tricks"])
    return record


def result_text(record: TableResult) -> str:
    """A table's result in a line: "4♠X by S, −1", or "passed out"."""
    if record.level is None or record.strain is None or record.declarer is None:
        return _("passed out")
    return _(
        "%(contract)s by %(seat)s, %(result)s",
        contract=contract_label(record.level, record.strain, record.doubled),
        seat=SEAT_LETTERS[Seat(record.declarer)],
        result=result_label((record.tricks or 0) - 6 - record.level),
    )


def result_short(record: TableResult) -> str:
    """A table's result in a cell, as a traveller has it: "4♠X S −1", "3NT N =", or
    "passed out"."""
    if record.level is None or record.strain is None or record.declarer is None:
        return _("passed out")
    contract = contract_label(record.level, record.strain, record.doubled)
    over = (record.tricks or 0) - 6 - record.level
    result = "=" if over == 0 else result_label(over)
    return f"{contract} {SEAT_LETTERS[Seat(record.declarer)]} {result}"


def logged_result(code: str | None) -> str:
    record = result_from_code(code)
    return result_text(record) if record is not None else (code or "")


def points(value: float) -> str:
    """Victory points as a table reads them: two decimals, the reader's decimal mark."""
    return figure(value, "0.00")


def new_games() -> list[NewGame]:
    return [
        NewGame(
            url_for("teams.setup"),
            str(_l("Bridge teams match")),
            str(_l("Two teams of four at two tables, the same boards: IMPs and victory points.")),
        )
    ]


def match_title(game: TeamsGame) -> str:
    first, second = game.team_names
    return _("%(a)s against %(b)s", a=first, b=second)


def summary(game: Game) -> Summary:
    assert isinstance(game, TeamsGame)
    match = score_match(game)
    imps = _("IMPs %(a)d–%(b)d", a=match.imps[0], b=match.imps[1])
    if match.finished:
        vps = _(
            "VPs %(a)s–%(b)s",
            a=points(match.victory_points[0]),
            b=points(match.victory_points[1]),
        )
        boards = ngettext("%(num)d board", "%(num)d boards", game.boards)
        detail = f"{boards} · {imps} · {vps}"
    else:
        board = _(
            "board %(number)d of %(boards)d", number=match.boards_complete + 1, boards=game.boards
        )
        when = _("last change %(when)s", when=format_datetime(game.updated_at, "short"))
        detail = f"{board} · {imps} · {when}"
    return Summary(match_title(game), detail, finished=match.finished)


def take_back(game: Game) -> TakenBack | None:
    """The last result entered: table 2's of the last board, or table 1's of a board whose
    table 2 is not in yet."""
    assert isinstance(game, TeamsGame)
    if not game.results:
        return None
    record = game.results[-1]
    game.results.remove(record)
    logged = [
        Correction(number=record.board, kind=CorrectionKind.UNDO_RESULT, old=logged_code(record))
    ]
    message = _(
        "Board %(board)d, table %(table)d: taken back (%(result)s).",
        board=record.board,
        table=record.table,
        result=result_text(record),
    )
    return TakenBack(logged, message)


def table_of(game: Game, change: Correction) -> dict[str, int]:
    """The board and the table of a log's line (its codes name the table)."""
    record = result_from_code(change.old) or result_from_code(change.new)
    return {"board": change.number, "table": record.table if record is not None else 0}


describe = describer(
    {
        CorrectionKind.RESULT: _l(
            "Board %(board)d, table %(table)d, corrected at %(time)s: %(old)s → %(new)s"
        ),
        CorrectionKind.UNDO_RESULT: _l(
            "Board %(board)d, table %(table)d at %(time)s: taken back (%(old)s)"
        ),
    },
    lambda game, change, code: logged_result(code),
    table_of,
)


def file_kind(game: Game) -> str:
    return "bridge-teams"


FAMILY = register(
    Family(
        key="teams",
        name=lambda: str(_l("Bridge teams match")),
        game=TeamsGame,
        entries=(TableResult,),
        page="teams.match",
        start="teams.setup",
        new_games=new_games,
        summary=summary,
        export=game_to_json,
        read_file=game_from_json,
        take_back=take_back,
        describe=describe,
        file_kind=file_kind,
        in_circles=IN_CIRCLES,
    )
)


# --- What the family's templates call ------------------------------------------------------------


def side_team(game: TeamsGame, table: int, side: Side) -> str:
    """The team sitting ``side`` at ``table``."""
    return game.team_names[team_at(table, side)]


@bp.context_processor
def template_helpers() -> dict[str, Any]:
    return {
        **contract.template_helpers(),
        "tables": TABLES,
        "result_text": result_text,
        "result_short": result_short,
        "side_team": side_team,
        "points": points,
        "match_title": match_title,
        "board_dealer": board_dealer,
        "board_vulnerability": board_vulnerability,
    }
