"""Bridge at home as the table core knows it: its games, how one reads in the list of games,
its game file, how its last deal is taken back, its log's lines; and the helpers its own pages
use (registered for its blueprint alone)."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any

from flask import url_for
from flask_babel import format_datetime
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from scorekeeper import contract
from scorekeeper.bridge import bp
from scorekeeper.bridge.evening import score_evening
from scorekeeper.bridge.history import IN_CIRCLES
from scorekeeper.bridge.labels import (
    PAD_ITEMS,
    ROUNDING,
    deal_text,
)
from scorekeeper.bridge.models import BridgeGame, DealRecord, SeatingRecord
from scorekeeper.bridge.transfer import game_from_json, game_to_json
from scorekeeper.games.entries import describer
from scorekeeper.games.models import Correction, Game
from scorekeeper.games.registry import Family, NewGame, Summary, TakenBack, register
from scorekeeper.rules.bridge import Seat, Side


class CorrectionKind(StrEnum):
    """What a line of an evening's corrections log records."""

    DEAL = "deal"
    """A deal corrected (old and new: the deal's code, see deal_code)."""
    DELETED = "deal-deleted"
    """A deal deleted."""
    UNDO_DEAL = "undo-deal"
    """The last deal taken back."""


CODE = re.compile(
    r"(?:pass|(?P<level>[1-7])(?P<strain>C|D|H|S|NT)(?P<doubled>X{0,2}) (?P<declarer>[NESW]) "
    r"(?P<tricks>\d{1,2})(?: (?P<side>NS|EW)-(?P<honours>100|150))?)"
)


def deal_code(record: DealRecord) -> str:
    """A deal in a few letters, for the log: "4SX S 9", "3NT N 9 NS-150", or "pass"."""
    if record.level is None:
        return "pass"
    code = f"{record.level}{record.strain}{'X' * record.doubled} {record.declarer} {record.tricks}"
    if record.honours:
        code += f" {record.honours_side}-{record.honours}"
    return code


def deal_from_code(code: str | None) -> DealRecord | None:
    """The deal a log line names, to say it in the reader's language."""
    match = CODE.fullmatch(code or "")
    if match is None:
        return None
    record = DealRecord(doubled=0)
    if match["level"]:
        record.level, record.strain = int(match["level"]), match["strain"]
        record.doubled, record.declarer = len(match["doubled"]), match["declarer"]
        record.tricks = int(match["tricks"])
        if match["side"]:
            record.honours_side, record.honours = match["side"], int(match["honours"])
    return record


def logged_deal(code: str | None) -> str:
    record = deal_from_code(code)
    return deal_text(record) if record is not None else (code or "")


def new_games() -> list[NewGame]:
    return [
        NewGame(
            url_for("bridge.setup"),
            str(_l("Bridge at home")),
            str(_l("Four players: rubber bridge or Chicago, on a pad as players know it.")),
        )
    ]


def summary(game: Game) -> Summary:
    assert isinstance(game, BridgeGame)
    evening = score_evening(game)
    kind = _("Chicago") if game.chicago else _("Rubber bridge")
    where = (
        _("wheel %(number)d", number=evening.current.number)
        if game.chicago
        else _("rubber %(number)d", number=evening.current.number)
    )
    when = _("last change %(when)s", when=format_datetime(game.updated_at, "short"))
    return Summary(", ".join(game.names), f"{kind} · {where} · {when}", finished=False)


def take_back(game: Game) -> TakenBack | None:
    """The last deal; a rubber begun after it, with no deal yet, goes with it."""
    assert isinstance(game, BridgeGame)
    if not game.deals:
        return None
    record = game.deals[-1]
    game.deals.remove(record)
    for seating in [s for s in game.seatings if s.number > record.rubber]:
        game.seatings.remove(seating)
    place = len(game.deals) + 1
    logged = [Correction(number=place, kind=CorrectionKind.UNDO_DEAL, old=deal_code(record))]
    message = _("Deal %(number)d: taken back (%(deal)s).", number=place, deal=deal_text(record))
    return TakenBack(logged, message)


describe = describer(
    {
        CorrectionKind.DEAL: _l("Deal %(number)d corrected at %(time)s: %(old)s → %(new)s"),
        CorrectionKind.DELETED: _l("Deal %(number)d deleted at %(time)s (%(old)s)"),
        CorrectionKind.UNDO_DEAL: _l("Deal %(number)d at %(time)s: taken back (%(old)s)"),
    },
    lambda game, change, code: logged_deal(code),
)


def file_kind(game: Game) -> str:
    assert isinstance(game, BridgeGame)
    return "bridge-chicago" if game.chicago else "bridge-rubber"


FAMILY = register(
    Family(
        key="bridge",
        name=lambda: str(_l("Bridge at home")),
        game=BridgeGame,
        entries=(DealRecord,),
        page="bridge.pad",
        start="bridge.setup",
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


def partners_label(game: BridgeGame, seating: SeatingRecord, side: Side) -> str:
    seats = (Seat.NORTH, Seat.SOUTH) if side is Side.NS else (Seat.EAST, Seat.WEST)
    first, second = (game.names[seating.player_at(seat)] for seat in seats)
    return _("%(first)s & %(second)s", first=first, second=second)


@bp.context_processor
def template_helpers() -> dict[str, Any]:
    return {
        **contract.template_helpers(),
        "pad_items": PAD_ITEMS,
        "rounding_rule": ROUNDING,
        "deal_text": deal_text,
        "partners_label": partners_label,
    }
