"""The Ascenseur family as the table core knows it: its games, how one reads in the list of
games, its game file, how its last entry is taken back, its log's lines; and the helpers its
own pages use (registered for its blueprint alone)."""

from __future__ import annotations

from typing import Any

from flask import url_for
from flask_babel import format_datetime, ngettext
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from scorekeeper.ascenseur import bp
from scorekeeper.ascenseur.history import IN_CIRCLES
from scorekeeper.ascenseur.labels import (
    PRESET_DESCRIPTIONS,
    PRESET_NAMES,
    choice_label,
    score,
    scoring_text,
)
from scorekeeper.ascenseur.models import AscenseurGame, CorrectionKind, RoundRecord
from scorekeeper.ascenseur.transfer import game_from_json, game_to_json
from scorekeeper.games.entries import describer
from scorekeeper.games.models import Correction, Game
from scorekeeper.games.registry import Family, NewGame, Summary, TakenBack, register
from scorekeeper.rules import ascenseur as rules
from scorekeeper.rules.cards import Suit


def new_games() -> list[NewGame]:
    return [
        NewGame(url_for("ascenseur.setup", preset=key), name, str(PRESET_DESCRIPTIONS[key]))
        for key, name in PRESET_NAMES.items()
    ]


def summary(game: Game) -> Summary:
    assert isinstance(game, AscenseurGame)
    sheet = game.sheet()
    preset = PRESET_NAMES[game.preset]
    if sheet.is_complete:
        winners = ngettext(
            "Winner: %(names)s",
            "Winners: %(names)s",
            len(sheet.winners),
            names=seat_names(sheet.winners, game.names),
        )
        detail = f"{preset} · {winners} · {format_datetime(game.updated_at, 'short')}"
        return Summary(", ".join(game.names), detail, finished=True)
    assert sheet.current is not None
    where = _("Round %(number)d of %(total)d", number=sheet.current.number, total=len(sheet.plans))
    when = _("last change %(when)s", when=format_datetime(game.updated_at, "short"))
    return Summary(", ".join(game.names), f"{preset} · {where} · {when}", finished=False)


def take_back(game: Game) -> TakenBack | None:
    """The last tricks, or else the last bids (and the trump suit noted with them)."""
    assert isinstance(game, AscenseurGame)
    if not game.rounds:
        return None
    record = game.rounds[-1]
    logged = []
    if record.tricks is not None:
        values, kind = record.tricks, CorrectionKind.UNDO_TRICKS
        record.tricks = None
    else:
        values, kind = record.bids, CorrectionKind.UNDO_BIDS
        game.rounds.remove(record)
        if record.trump:
            logged.append(
                Correction(number=record.number, kind=CorrectionKind.TRUMP, old=record.trump)
            )
    undone = "/".join(map(str, values))
    logged.append(Correction(number=record.number, kind=kind, old=undone))
    refill = {"again": undone}  # the numbers come back in the form, to change one and confirm
    if kind is CorrectionKind.UNDO_BIDS and record.trump:
        refill["trump"] = record.trump
    message = _(
        "Round %(number)d: taken back. The numbers are filled in again below.",
        number=record.number,
    )
    return TakenBack(logged, message, refill)


def logged_value(game: Game, change: Correction, value: str | None) -> str:
    """A value a log's line names: a number as it is, a trump suit by its symbol."""
    if change.kind == CorrectionKind.TRUMP:
        return suit_symbol(value) or _("not noted")
    return value or ""


describe = describer(
    {
        CorrectionKind.BID: _l(
            "Round %(number)d corrected at %(time)s: %(name)s's bid %(old)s → %(new)s"
        ),
        CorrectionKind.TRICKS: _l(
            "Round %(number)d corrected at %(time)s: %(name)s's tricks %(old)s → %(new)s"
        ),
        CorrectionKind.TRUMP: _l("Round %(number)d corrected at %(time)s: trump %(old)s → %(new)s"),
        CorrectionKind.UNDO_TRICKS: _l("Round %(number)d at %(time)s: tricks taken back (%(old)s)"),
        CorrectionKind.UNDO_BIDS: _l("Round %(number)d at %(time)s: bids taken back (%(old)s)"),
    },
    logged_value,
    lambda game, change: {"name": game.names[change.seat] if change.seat is not None else ""},
)


def file_kind(game: Game) -> str:
    assert isinstance(game, AscenseurGame)
    return game.preset


def round_text(record: RoundRecord, names: tuple[str, ...]) -> str:
    """A round's numbers in one line: "Anne 1/0, Bruno 2/2 ..." (bid/tricks)."""
    cells = []
    for seat, name in enumerate(names):
        tricks = "" if record.tricks is None else f"/{record.tricks[seat]}"
        cells.append(f"{name} {record.bids[seat]}{tricks}")
    return ", ".join(cells)


FAMILY = register(
    Family(
        key="ascenseur",
        name=lambda: str(_l("Ascenseur: Oh Hell, Rikiki, Escalier")),
        game=AscenseurGame,
        entries=(RoundRecord,),
        page="ascenseur.play",
        start="ascenseur.choose",
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


def suit_symbol(value: str | None) -> str:
    return Suit(value).symbol if value else ""


def seat_names(seats: tuple[int, ...], names: tuple[str, ...]) -> str:
    """The names of players given by seat, as one line."""
    return ", ".join(names[seat] for seat in seats)


def standings_order(sheet: rules.GameSheet) -> list[int]:
    """The seats from first place down; equal places keep the seating order."""
    return sorted(range(len(sheet.players)), key=lambda seat: (sheet.places[seat], seat))


@bp.context_processor
def template_helpers() -> dict[str, Any]:
    return {
        "suit_symbol": suit_symbol,
        "suit_symbols": {suit.value: suit.symbol for suit in Suit},
        "seat_names": seat_names,
        "standings_order": standings_order,
        "score": score,
        "choice_label": choice_label,
        "scoring_text": scoring_text,
    }
