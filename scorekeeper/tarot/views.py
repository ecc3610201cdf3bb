"""The pages of a Tarot game: a new game, the page with the next deal, corrections, the sheet
and its CSV. Links, the live version, undo and the game file come from the table core."""

from __future__ import annotations

from typing import Any

from flask import render_template, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response

from scorekeeper.games.entries import EntryKind, EntryWords, page_context
from scorekeeper.games.helpers import semicolon_list
from scorekeeper.games.lookup import get_game_or_404
from scorekeeper.games.models import Player
from scorekeeper.games.rights import is_scorer
from scorekeeper.games.routes import add_entry_routes
from scorekeeper.games.spreadsheet import csv_download
from scorekeeper.games.views import new_game_form
from scorekeeper.games.writes import Outcome
from scorekeeper.limits import new_games_limit
from scorekeeper.serving import kept_page
from scorekeeper.tarot import bp
from scorekeeper.tarot.family import FAMILY, CorrectionKind, bonus_texts, deal_text
from scorekeeper.tarot.forms import CONTRACTS, DealForm, SetupForm, deal_form, rule_message
from scorekeeper.tarot.models import TarotDealRecord, TarotGame

ROW_MM = {9: 4.7, 8: 4.25, 7: 3.85, 6: 3.0, 5: 2.6}
"""How tall a printed line of the sheet is at each type size (points), as sheet.css sets it."""
LARGEST_PT = {3: 9, 4: 8, 5: 7}
"""The largest type at which the sheet of so many players fits the width of an A4 page."""
ROOM_MM = 279 - 26
"""An A4 page in portrait inside its margins, less the sheet's header."""


@bp.route("/new", methods=["GET", "POST"])
@new_games_limit
def setup() -> str | Response | tuple[str, int]:
    """3, 4 or 5 players in seating order and who deals first; then start."""
    return new_game_form(
        SetupForm,
        "tarot/setup.html",
        lambda form: TarotGame(
            first_dealer=form.dealer_seat,
            players=[Player(seat=seat, name=name) for seat, name in enumerate(form.names())],
        ),
    )


def render_page(
    game: TarotGame,
    form: DealForm | None = None,
    status: int = 200,
    conflict: dict[str, Any] | None = None,
) -> tuple[str, int]:
    """The next deal, who deals it and who speaks first, its form; the standings; the deals."""
    sheet, scorer = game.sheet(), is_scorer(game.id, game.family)
    if scorer and form is None:
        form = deal_form(game.names, formdata=None, data={"drawn_from": game.version})
    return render_template(
        "tarot/page.html",
        game=game,
        sheet=sheet,
        form=form,
        order=sorted(range(sheet.players), key=lambda seat: (sheet.places[seat], seat)),
        **page_context(game, url_for(".page", game_id=game.id), scorer=scorer, conflict=conflict),
        keep_awake=True,
    ), status


@bp.get("/<game_id>")
def page(game_id: str) -> Response | str:
    return kept_page(FAMILY, game_id, lambda: render_page(get_game_or_404(game_id, TarotGame))[0])


class Deals(EntryKind[TarotGame, TarotDealRecord]):
    """The deals of a game, numbered by their place in it; what the engine refuses of one is
    said on its form."""

    game = TarotGame
    endpoint = "deal"
    listed = "deals"
    corrected = CorrectionKind.DEAL
    deleted = CorrectionKind.DELETED
    score = staticmethod(TarotGame.sheet)
    explain = staticmethod(rule_message)
    draw = staticmethod(render_page)
    words = EntryWords(
        label=_l("Deal %(number)d"),
        entered=_l("Deal %(number)d entered: %(entry)s."),
        corrected=_l("Deal %(number)d corrected; the totals are counted again."),
        unchanged=_l("Deal %(number)d is unchanged."),
        changed_meanwhile=_l(
            "Deal %(number)d was changed on another phone while you corrected it: it now reads "
            "%(now)s. Yours is kept below; save again to put it instead."
        ),
        not_now=_l("That deal is not the next one to enter; nothing was changed."),
        deleted=_l("Deal %(number)d deleted; the totals are counted again."),
    )

    def refuse(self, game: TarotGame, key: int) -> Outcome | None:
        return self.not_now(game, key) if key != len(game.deals) + 1 else None

    def form(self, game: TarotGame, key: int, **kwargs: Any) -> DealForm:
        return deal_form(game.names, **kwargs)

    def form_data(self, game: TarotGame, entry: TarotDealRecord) -> dict[str, Any]:
        return DealForm.data_of(entry)

    def new(self, game: TarotGame, key: int) -> TarotDealRecord:
        return TarotDealRecord(number=max((record.number for record in game.deals), default=0) + 1)

    def text(self, game: TarotGame, entry: TarotDealRecord) -> str:
        return deal_text(game.names, entry)

    def again(self, game: TarotGame, key: int, mine: TarotDealRecord) -> list[tuple[str, str]]:
        return self.last_alike(game, mine)

    def render_correction(
        self, game: TarotGame, key: int, entry: TarotDealRecord, form: Any, status: int = 200
    ) -> tuple[str, int]:
        delete_form = self.stamped(entry)
        page = render_template(
            "tarot/edit.html", game=game, key=key, entry=entry, form=form, delete_form=delete_form
        )
        return page, status


add_entry_routes(bp, Deals(), "/deals/<int:number>")


@bp.get("/<game_id>/sheet")
def sheet(game_id: str) -> str:
    """Each deal's dealer, taker, contract, outcome and each player's mark, the totals and the
    places: on paper one A4 page, in the largest type it fits in, its rows spread to fill it."""
    game = get_game_or_404(game_id, TarotGame)
    sheet = game.sheet()
    # A deal a line, or a line a bonus; and the heads, the totals and the places.
    lines = 4 + sum(len(bonus_texts(deal)) or 1 if deal else 1 for deal in sheet.deals)
    fitting = [
        pt for pt in ROW_MM if pt <= LARGEST_PT[sheet.players] and lines * ROW_MM[pt] <= ROOM_MM
    ]
    points = max(fitting, default=min(ROW_MM))
    room = max((mm for mm in (1, 2, 3) if lines * (ROW_MM[points] + mm) <= ROOM_MM), default=0)
    density = f"fit-{points} roomy-{room}"
    return render_template(
        "tarot/sheet.html", game=game, sheet=sheet, live_game=game, density=density
    )


@bp.get("/<game_id>/sheet.csv")
def sheet_csv(game_id: str) -> Response:
    """The sheet as a CSV file: a row a deal, a mark and a total a player; totals, places."""
    game = get_game_or_404(game_id, TarotGame)
    sheet, names = game.sheet(), game.names
    rows: list[list[Any]] = [
        [_("Deal"), _("Dealer"), _("Taker"), _("Contract"), _("Partner"), _("Bouts")]
        + [_("Points"), _("Made (+) or down (−) by"), _("Bonuses")]
        + [f"{name} {column}" for name in names for column in (_("mark"), _("total"))]
    ]
    for place, (record, deal, score) in enumerate(
        zip(game.deals, sheet.deals, sheet.scores, strict=True), 1
    ):
        cells: list[Any] = [place, names[sheet.dealer_of(place)], _("all passed"), *[""] * 6]
        if deal is not None and score is not None:
            partner = _("alone") if sheet.players == 5 else ""
            half_points = record.half_points or 0
            cells[2:] = [names[deal.taker], str(CONTRACTS[deal.contract])]
            cells += [partner if deal.partner is None else names[deal.partner], deal.bouts]
            cells += [half_points // 2 if half_points % 2 == 0 else half_points / 2]
            cells += [score.difference if score.made else -score.difference]
            cells += [semicolon_list(bonus_texts(deal))]
        marks = zip(sheet.marks[place - 1], sheet.totals[place - 1], strict=True)
        rows.append(cells + [value for pair in marks for value in pair])
    for label, figures in ((_("Total"), sheet.standing), (_("Place"), sheet.places)):
        rows.append([label, *[""] * 8, *(value for figure in figures for value in ("", figure))])
    return csv_download(game, rows)
