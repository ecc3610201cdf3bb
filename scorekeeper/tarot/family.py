"""French Tarot as the table core knows it: its games, how one reads in the list of games, its
game file, how its last deal is taken back, its log's lines; and how a deal reads in words."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from flask import url_for
from flask_babel import format_datetime, format_decimal, ngettext
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from scorekeeper.games.entries import describer
from scorekeeper.games.helpers import semicolon_list, signed
from scorekeeper.games.models import Correction, Game
from scorekeeper.games.registry import Family, NewGame, Summary, TakenBack, register
from scorekeeper.rules import tarot
from scorekeeper.tarot import bp
from scorekeeper.tarot.forms import CAMPS, CHELEMS, CONTRACTS, POIGNEES
from scorekeeper.tarot.history import IN_CIRCLES
from scorekeeper.tarot.models import TarotDealRecord, TarotGame
from scorekeeper.tarot.transfer import game_from_json, game_to_json


class CorrectionKind(StrEnum):
    """What a line of a Tarot game's corrections log records (old and new: deals' codes)."""

    DEAL = "deal"
    DELETED = "deal-deleted"
    UNDO_DEAL = "undo-deal"


def points_text(half_points: int) -> str:
    """Card points as the reader writes them: 49, 40.5 (40,5 in French)."""
    return str(format_decimal(half_points / 2, "0.#"))


def bonus_texts(deal: tarot.TarotDeal) -> list[str]:
    """The bonuses of a deal, each in a few words."""
    said = []
    if deal.petit_au_bout is not None:
        said.append(_("petit au bout (%(side)s)", side=CAMPS[deal.petit_au_bout]))
    for camp, kind in deal.poignees:
        said.append(_("poignée %(kind)s (%(side)s)", kind=POIGNEES[kind], side=CAMPS[camp]))
    if deal.chelem is not None:
        said.append(_("chelem %(kind)s", kind=CHELEMS[deal.chelem]))
    return said


def deal_text(names: tuple[str, ...], record: TarotDealRecord) -> str:
    """A deal in a line: "Anne with Chloé, Garde, 2 bouts, 49 points: made by 8; petit au bout
    (defence)", or "all passed"."""
    try:
        deal = record.deal(len(names))
        if deal is None:
            return _("all passed")
        who, score = names[deal.taker], tarot.score_deal(deal)
    except (tarot.TarotError, IndexError):  # a log's line from a file, of another table
        return record.code
    if deal.partner is not None:
        who = _("%(taker)s with %(partner)s", taker=who, partner=names[deal.partner])
    elif len(names) == max(tarot.PLAYERS):
        who = _("%(taker)s alone", taker=who)
    text = _(
        "%(who)s, %(contract)s, %(bouts)s, %(points)s points: %(outcome)s",
        who=who,
        contract=CONTRACTS[deal.contract],
        bouts=ngettext("%(num)d bout", "%(num)d bouts", deal.bouts),
        points=points_text(record.half_points or 0),
        outcome=(_("made by %(num)d") if score.made else _("down by %(num)d"))
        % {"num": score.difference},
    )
    return semicolon_list([text, *bonus_texts(deal)])


def summary(game: Game) -> Summary:
    assert isinstance(game, TarotGame)
    sheet, deals = game.sheet(), len(game.deals)
    detail = ngettext("%(num)d deal", "%(num)d deals", deals)
    if deals:
        leaders = ", ".join(
            n for n, place in zip(game.names, sheet.places, strict=True) if place == 1
        )
        detail += " · " + _("%(names)s leads", names=leaders) + f" {signed(max(sheet.standing))}"
    when = _("last change %(when)s", when=format_datetime(game.updated_at, "short"))
    return Summary(", ".join(game.names), f"{_('Tarot')} · {detail} · {when}", finished=False)


def take_back(game: Game) -> TakenBack | None:
    assert isinstance(game, TarotGame)
    if not game.deals:
        return None
    record = game.deals.pop()
    place = len(game.deals) + 1
    message = _(
        "Deal %(number)d taken back: %(deal)s.", number=place, deal=deal_text(game.names, record)
    )
    return TakenBack(
        [Correction(number=place, kind=CorrectionKind.UNDO_DEAL, old=record.code)], message
    )


def logged_deal(game: Game, code: str | None) -> str:
    record = TarotDealRecord.from_code(code)
    return deal_text(game.names, record) if record is not None else (code or "")


FAMILY = register(
    Family(
        key="tarot",
        name=lambda: str(_l("French Tarot")),
        game=TarotGame,
        entries=(TarotDealRecord,),
        page="tarot.page",
        start="tarot.setup",
        new_games=lambda: [
            NewGame(
                url_for("tarot.setup"),
                str(_l("French Tarot")),
                str(_l("3, 4 or 5 players: each deal's taker, contract, bouts and points.")),
            )
        ],
        summary=summary,
        export=game_to_json,
        read_file=game_from_json,
        take_back=take_back,
        describe=describer(
            {
                CorrectionKind.DEAL: _l("Deal %(number)d corrected at %(time)s: %(old)s → %(new)s"),
                CorrectionKind.DELETED: _l("Deal %(number)d deleted at %(time)s (%(old)s)"),
                CorrectionKind.UNDO_DEAL: _l("Deal %(number)d at %(time)s: taken back (%(old)s)"),
            },
            lambda game, change, code: logged_deal(game, code),
        ),
        file_kind=lambda game: "tarot",
        in_circles=IN_CIRCLES,
    )
)


@bp.context_processor
def template_helpers() -> dict[str, Any]:
    return {
        "contracts": CONTRACTS,
        "deal_text": deal_text,
        "points_text": points_text,
        "first_to_speak": tarot.first_to_speak,
        "bonus_texts": bonus_texts,
        "target": tarot.target,
        "trumps": lambda kind, players: tarot.Poignee(kind).trumps(players),
    }
