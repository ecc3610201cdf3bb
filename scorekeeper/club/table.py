"""A table's phone: the board to play and its result, East-West's confirmation, the table's
travellers and hands; the results' entry kind, for the director's corrections too."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Mapping
from typing import Any

from flask import abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response

from scorekeeper.club import bp
from scorekeeper.club.family import (
    FAMILY,
    CorrectionKind,
    improbable_text,
    table_result_label,
    table_token,
    wrong_lead_text,
)
from scorekeeper.club.forms import (
    ResultForm,
)
from scorekeeper.club.hands import (
    HandRecord,
    hand_records,
)
from scorekeeper.club.models import ClubSession
from scorekeeper.club.pages import club_session, printout, scored, table_path
from scorekeeper.club.rows import ClubResult, ClubTable
from scorekeeper.club.seating import seating_at
from scorekeeper.contract.forms import RESULTS
from scorekeeper.contract.labels import rule_message
from scorekeeper.games.entries import EntryKind, EntryWords
from scorekeeper.games.forms import ConfirmForm
from scorekeeper.games.models import Correction, utcnow
from scorekeeper.games.routes import add_entry_routes
from scorekeeper.games.writes import Outcome, drawn_from_now, write_entry
from scorekeeper.rules.common import RuleError, Seat, Side
from scorekeeper.rules.hands import HandError, check_lead, parse_card
from scorekeeper.rules.movements import (
    Movement,
    Place,
    Seating,
)
from scorekeeper.serving import kept_offline, kept_page


def table_or_404(game: ClubSession, table: int, token: str) -> Movement:
    """The session's movement, for a phone holding this table's link."""
    movement = game.movement
    if movement is None or game.table(table) is None:
        abort(404)
    if not secrets.compare_digest(token.encode(), table_token(game, table).encode()):
        abort(403)
    return movement


def render_table(
    game: ClubSession,
    movement: Movement,
    table: int,
    round_: int | None,
    form: ResultForm | None = None,
    status: int = 200,
    conflict: dict[str, Any] | None = None,
    form_board: int | None = None,
    action: str | None = None,
    chosen_board: int | None = None,
) -> tuple[str, int]:
    """A table's page; its form is for ``form_board`` (default: the board the table chose to
    play next, ``chosen_board``, if it is still to play; else the next in the table's order),
    sent to ``action`` (default: that board's entry)."""
    current = movement.current_round(table, game.entered)
    shown = round_ or current
    seating = seating_at(movement, shown, table) if shown else None
    # What the pairs seated now, or who have just finished their round here, may see: not
    # an earlier round's pairs' figures.
    latest = max((r.round for r in game.results if r.table == table), default=None)
    now = seating if shown in (current, latest) else None
    boards = []
    next_board = None
    if seating is not None and not movement.sits_out(seating):
        # Tables passing boards between them start on different ones (board_order); any
        # board still to play may be entered first, the table's choice.
        for board in movement.board_order(seating):
            result = game.result_at(board, table, seating.round)
            boards.append((board, result))
            if result is None and next_board is None:
                next_board = board
        moved_here = [
            r
            for r in game.results
            if (r.round, r.table) == (seating.round, table) and r.board not in seating.boards
        ]
        boards.extend((r.board, r) for r in moved_here)  # the board the table played instead
    stored = game.table(table).version  # type: ignore[union-attr]
    # The phone follows its own table (its entries, and the director's changes), not every
    # table's: it reloads for what changed here, and shows the others' results as they stand
    # then. A table sitting its round out follows the whole session, whose other tables end it.
    sits_out = seating is not None and movement.sits_out(seating)
    followed = None if sits_out else g.get("part_version") or game.version + stored
    live_part = (url_for(".part_version", game_id=game.id, part=table), followed)
    if form_board is None and chosen_board in dict(boards) and dict(boards)[chosen_board] is None:
        form_board = chosen_board
    form_board = form_board or next_board
    if form is None and form_board is not None and seating is not None:
        key = (seating.round, table, form_board)
        form = TABLE_RESULTS.form(game, key, formdata=None, data={"drawn_from": stored})
    if form_board is not None and seating is not None and action is None:
        action = url_for(
            ".result",
            game_id=game.id,
            table=table,
            token=table_token(game, table),
            round_=seating.round,
            board=form_board,
        )
    # Over HTTPS, what the phone keeps for the network's outages: the round's other boards to
    # play, and the next round. An entry kept goes on to the first of them that is neither kept
    # already nor this one: the boards after this one, then those before, then the next round
    # (each a page, and the address its form sends to).
    offline_next: list[tuple[str, str]] = []
    if seating is not None:
        order = [board for board, result in boards if result is None]
        at = order.index(form_board) if form_board in order else -1
        for board in [*order[at + 1 :], *order[: max(at, 0)]]:
            page = table_path(game, table, round=seating.round, board=board)
            entry = url_for(
                ".result",
                game_id=game.id,
                table=table,
                token=table_token(game, table),
                round_=seating.round,
                board=board,
            )
            offline_next.append((page, entry))
        if seating.round < movement.rounds:
            offline_next.append((table_path(game, table, round=seating.round + 1), ""))
    keep_pages = [page for page, _entry in offline_next]
    return render_template(
        "club/table.html",
        game=game,
        movement=movement,
        table=table,
        keep_pages=keep_pages,
        offline_next=offline_next if form_board is not None else [],
        seating=seating,
        shown=shown,
        boards=boards,
        next_board=next_board,
        form_board=form_board,
        action=action,
        form=form,
        results=RESULTS,
        rounds=[s for s in sorted(movement.table_seatings(table), key=lambda s: s.round)],
        next_move=movement.moves_after(seating) if seating is not None else None,
        conflict=conflict,
        conflict_form=ConfirmForm() if conflict else None,
        # Each result's button is drawn from that result: East-West confirm what they saw,
        # whatever else the table entered since (a board kept on the phone and sent later).
        confirm_form=ConfirmForm(),
        result_stamp=TABLE_RESULTS.stamp,
        improbable=functools.partial(improbable_text, hand_records(game) if now else {}),
        **pair_cards(game, now),
        table_url=lambda **arguments: table_path(game, table, **arguments),
        travellers_url=url_for(
            ".table_travellers", game_id=game.id, table=table, token=table_token(game, table)
        )
        + (f"?round={shown}" if shown else ""),
        finished_round=round_just_played(game, movement, table),
        here=table_path(game, table, round=shown) if shown else table_path(game, table),
        live_game=game,
        live_part=live_part if followed is not None else None,
        keep_awake=True,
    ), status


@bp.get("/<game_id>/table/<int:table>/<token>")
def table_page(game_id: str, table: int, token: str) -> Response | str:
    """A table's phone: the board to play, its dealer and vulnerability, and its result. Kept
    as drawn under the session's version (a table's page shows what the others entered too)
    and under the link's token, so only the table's own link finds it kept: any other is
    checked as its page is drawn."""
    asked = request.args.get("round", type=int)
    board = request.args.get("board", type=int)

    def draw() -> str:
        game = club_session(game_id)
        movement = table_or_404(game, table, token)
        round_ = asked if asked is not None and 1 <= asked <= movement.rounds else None
        return render_table(game, movement, table, round_, chosen_board=board)[0]

    page = kept_page(
        FAMILY, game_id, draw, table, token, asked, board, opens_the_game=False, part=table
    )
    return kept_offline(page)


def pair_cards(game: ClubSession, seating: Seating | None) -> dict[str, Any]:
    """The score cards of the pairs seated at a table so far, where the director shows the
    ranking as it stands (their matchpoints tell how the others did)."""
    movement = game.movement
    if seating is None or movement is None or not game.shows_ranking():
        return {"pair_cards": []}
    score, _problem = scored(game, scorer=False)
    if score is None:
        return {"pair_cards": []}
    seated = [
        (_("North-South"), game.pair_key(*seating.at(Side.NS))),
        (_("East-West"), game.pair_key(*seating.at(Side.EW))),
    ]
    if (sitting := movement.sitting_out(seating)) is not None:
        seated = [(_("Sitting out"), game.pair_key(*sitting))]
    by_pair = {standing.pair: standing for _side, ranked in score.rankings for standing in ranked}
    cards = [(heading, by_pair[pair]) for heading, pair in seated if pair in by_pair]
    # A board one pair has played and the other has still to play is not on either card.
    return {"pair_cards": cards, "pair_score": score, "card_boards": game.boards_played_at(seating)}


def seated_or_404(game: ClubSession, round_: int, table: int, board: int) -> Seating | None:
    """Who sits at this table in this round, if this board is played there or its result was
    moved there (``None`` for a session read from a file, whose results say who sat where)."""
    movement = game.movement
    if movement is None:
        if game.result_at(board, table, round_) is None:
            abort(404)
        return None
    seating = seating_at(movement, round_, table)
    if seating is None or movement.sits_out(seating):
        abort(404)
    if board not in seating.boards and game.result_at(board, table, round_) is None:
        abort(404)  # another board's place holds a result only where the director moved one
    return seating


class TableResults(EntryKind[ClubSession, ClubResult]):
    """A table's result on a board, entered on that table's phone (its link holds a token of
    its own). Each table keeps a version of its own: fifteen tables entering at once never wait
    on one another, and a stale form is caught for its own table only."""

    game = ClubSession
    endpoint = "result"
    listed = "results"
    corrected = CorrectionKind.RESULT
    words = EntryWords(
        label=_l("Board %(board)d"),
        not_now=_l("That board is entered already; nothing was changed."),
        entered=_l("Board %(board)d: %(entry)s."),
        corrected=_l("Board %(board)d: the result is changed."),
        unchanged=_l("Board %(board)d is unchanged."),
        changed_meanwhile=_l(
            "Board %(board)d was changed on another phone: it now reads %(now)s. Yours is kept "
            "below; send it again to put it instead."
        ),
    )

    def key(self, **route: Any) -> Place:
        return route["round_"], route["table"], route["board"]

    def route(self, key: Place) -> dict[str, Any]:
        return {"round_": key[0], "table": key[1], "board": key[2]}

    def names(self, key: Place) -> dict[str, Any]:
        return {"round": key[0], "table": key[1], "board": key[2]}

    def url(self, game: ClubSession, key: Place, action: str = "") -> str:
        name = f".{self.endpoint}" + (f"_{action}" if action else "")
        token = table_token(game, key[1])
        return url_for(name, game_id=game.id, token=token, **self.route(key))

    def load(self, game_id: str, route: Mapping[str, Any]) -> ClubSession:
        game = club_session(game_id)
        table_or_404(game, route["table"], route["token"])
        round_, table, board = self.key(**route)
        movement = game.movement
        seating = seating_at(movement, round_, table) if movement is not None else None
        sits_out = movement is not None and seating is not None and movement.sits_out(seating)
        if request.method == "POST" and sits_out:
            # A form drawn before the director seated the pairs otherwise (a pair left).
            flash(
                _(
                    "The director has seated the pairs otherwise: this table sits out round "
                    "%(round)d. Nothing was entered.",
                    round=round_,
                ),
                "error",
            )
            abort(redirect(table_path(game, table, round=round_)))
        seated_or_404(game, round_, table, board)
        return game

    def seen(self, game_id: str, route: Mapping[str, Any]) -> ClubSession:
        """The table's page only for its link."""
        game = club_session(game_id)
        table_or_404(game, route["table"], route["token"])
        seated_or_404(game, *self.key(**route))
        return game

    def lock(self, game: ClubSession, key: Place) -> ClubTable:
        table = game.table(key[1])
        assert table is not None
        return table

    def logged_at(self, key: Place) -> tuple[int, int | None]:
        return key[2], key[1]

    def find(self, game: ClubSession, key: Place) -> ClubResult | None:
        round_, table, board = key
        return game.result_at(board, table, round_)

    def closed(self, game: ClubSession, key: Place) -> str | None:
        if game.closed:
            return _("The session is closed: ask the director to change a result.")
        return None

    def unchangeable(self, game: ClubSession, key: Place, entry: ClubResult) -> str | None:
        if game.closed:
            return _("The session is closed: ask the director to change a result.")
        if entry.confirmed:
            return _("East-West confirmed this result: ask the director to correct it.")
        return None

    def form(self, game: ClubSession, key: Place, **kwargs: Any) -> Any:
        """The result's form; the opening lead too, where the director asks for it."""
        return ResultForm(asks_lead=game.asks_lead, lead_required=True, **kwargs)

    def form_data(self, game: ClubSession, entry: ClubResult) -> dict[str, Any]:
        return ResultForm.data_of(entry)

    def check(self, game: ClubSession, key: Place, form: Any) -> bool:
        """The form's checks, then the engine's word on the result itself and, with the
        board's hand record, on its lead."""
        if not self.valid(game, key, form):
            return False
        try:
            self.filled(game, key, form).table_result()
        except RuleError as error:
            form.form_errors.append(rule_message(error))
            return False
        return self.lead_checked(game, key, form)

    def lead_checked(self, game: ClubSession, key: Place, form: Any) -> bool:
        """A lead not in the hand of declarer's left-hand opponent is refused before East-West
        confirm: the declarer or the board was entered wrongly (without the board's hand
        record, the lead is kept as tapped)."""
        if not isinstance(form, ResultForm) or not form.asks_lead or form.passed_out():
            return True
        if not form.lead.data:
            return True
        record = hand_records(game).get(key[2])
        if record is None:
            return True
        try:
            check_lead(record.deal, Seat(str(form.declarer.data)), parse_card(form.lead.data))
        except HandError as error:
            form.lead.errors = [wrong_lead_text(error)]
            return False
        return True

    def filled(self, game: ClubSession, key: Place, form: Any) -> ClubResult:
        result = self.new(game, key)
        self.put(game, result, form)
        return result

    def new(self, game: ClubSession, key: Place) -> ClubResult:
        """A result at this place, between the pairs seated there (a session read from a
        file, whose results say who sat where, has none to add)."""
        round_, table, board = key
        seating = seated_or_404(game, round_, table, board)
        if seating is None:  # the pairs the file seated there
            existing = game.result_at(board, table, round_)
            assert existing is not None
            return ClubResult(
                board=board,
                table=table,
                round=round_,
                ns=existing.ns,
                ew=existing.ew,
                switched=existing.switched,
            )
        (ns, _side), (ew, _other) = seating.at(Side.NS), seating.at(Side.EW)
        return ClubResult(
            board=board, table=table, round=round_, ns=ns, ew=ew, switched=seating.switched
        )

    def put(self, game: ClubSession, entry: ClubResult, form: Any) -> None:
        entry.clear()  # artificial scores too
        form.put_into(entry)
        entry.entered_at = utcnow()

    def text(self, game: ClubSession, entry: ClubResult) -> str:
        return table_result_label(entry.table_result())

    def again(self, game: ClubSession, key: Place, mine: ClubResult) -> list[tuple[str, str]]:
        """A result the director deleted or took back since the form was drawn, or a form
        drawn before the director seated the pairs otherwise."""
        _round, table, board = key
        if game.drawn_before_reseating(table, request.form.get("drawn_from", "")):
            return [(self.label(key), _("the director has seated the pairs otherwise since"))]
        taken = any(
            change.kind in (CorrectionKind.DELETED, CorrectionKind.UNDO)
            and (change.number, change.seat) == (board, table)
            for change in game.corrections
        )
        return [(self.label(key), _("taken away by the director"))] if taken else []

    def logged(
        self,
        game: ClubSession,
        key: Place,
        old: str,
        before: Mapping[str, Any],
        entry: ClubResult,
    ) -> list[Correction]:
        kind = CorrectionKind.ARTIFICIAL if entry.artificial_ns else CorrectionKind.RESULT
        return [self.log_line(key, kind, old or None, entry.code)]

    def render_page(
        self,
        game: ClubSession,
        key: Place,
        form: Any = None,
        status: int = 200,
        conflict: dict[str, Any] | None = None,
    ) -> tuple[str, int]:
        movement = game.movement
        assert movement is not None
        board = key[2] if form is not None else None
        return render_table(game, movement, key[1], key[0], form, status, conflict, board)

    def render_correction(
        self, game: ClubSession, key: Place, entry: ClubResult, form: Any, status: int = 200
    ) -> tuple[str, int]:
        """The table's page, its form holding this board's result as it will be sent again to
        this board's correction."""
        movement = game.movement
        assert movement is not None
        action = self.url(game, key, "edit")
        return render_table(game, movement, key[1], key[0], form, status, None, key[2], action)

    def page(self, game: ClubSession, key: Place) -> Response:
        return redirect(table_path(game, key[1], round=key[0]))


TABLE_RESULTS = TableResults()


add_entry_routes(bp, TABLE_RESULTS, "/table/<int:table>/<token>/<int:round_>/<int:board>")


@bp.post("/<game_id>/table/<int:table>/<token>/<int:round_>/<int:board>/confirm")
def confirm_result(game_id: str, table: int, token: str, round_: int, board: int) -> Outcome:
    """East-West agree to the score North entered."""
    key = (round_, table, board)

    def change(game: ClubSession) -> Outcome | None:
        result = TABLE_RESULTS.find(game, key)
        form = ConfirmForm()
        if result is None or not form.validate():
            flash(_("There is no such result to confirm."), "error")
            return TABLE_RESULTS.page(game, key)
        if result.confirmed:
            return TABLE_RESULTS.page(game, key)
        if (reason := TABLE_RESULTS.closed(game, key)) is not None:
            flash(reason, "error")
            return TABLE_RESULTS.page(game, key)
        if not drawn_from_now(form, TABLE_RESULTS.stamp(result)):
            flash(
                _("The result changed since this page was drawn: check it and confirm again."),
                "error",
            )
            return TABLE_RESULTS.page(game, key)
        result.confirmed = True
        return None

    return write_entry(
        lambda: TABLE_RESULTS.load(game_id, {**TABLE_RESULTS.route(key), "token": token}),
        change,
        lambda game: flash(_("Board %(board)d confirmed by East-West.", board=board)),
        lock=lambda game: TABLE_RESULTS.lock(game, key),
        page=lambda game: TABLE_RESULTS.page(game, key),
        # The tick shows on the table's page alone: the director's and the players' pages,
        # and the thirty phones following them, are not drawn again for it.
        shown_beyond_the_part=False,
    )


def hands_played(game: ClubSession, seating: Seating) -> dict[int, HandRecord]:
    """The hand records a table's phone shows: of the boards both pairs seated there have
    played, whatever the director shows of the results (every board once it is closed)."""
    records = hand_records(game)
    if game.hands_public():
        return records
    played = game.boards_played_at(seating)
    return {board: record for board, record in records.items() if board in played}


def round_just_played(game: ClubSession, movement: Movement, table: int) -> int | None:
    """The round just finished at a table, while the next has no result there yet: its pairs,
    on the page the phone is sent to after its last board, see the traveller, hands and par
    of what they played. ``None`` once the next round is begun (or the table is done)."""
    current = movement.current_round(table, game.entered)
    latest = max((r.round for r in game.results if r.table == table), default=None)
    if current is None or latest is None or latest >= current:
        return None
    return latest


@bp.get("/<game_id>/table/<int:table>/<token>/travellers")
def table_travellers(game_id: str, table: int, token: str) -> str:
    """The travellers a table's phone shows: of the boards both pairs seated there have
    played, or every board, as the director chose. The pairs are those of the round the
    table is at; those of the round just finished from that round's page (``?round=``), until
    the next round's first result: then its pairs, who may still have those boards to play,
    are seated."""
    game = club_session(game_id)
    movement = table_or_404(game, table, token)
    finished = round_just_played(game, movement, table)
    round_ = movement.current_round(table, game.entered) or movement.rounds
    if finished is not None and request.args.get("round", type=int) == finished:
        round_ = finished
    seating = seating_at(movement, round_, table)
    assert seating is not None
    return printout(
        game,
        "club/travellers.html",
        scorer=False,
        whole=True,  # the boards both pairs have played, each with all its results
        boards=sorted(game.boards_shown_at(seating)),
        hands=hands_played(game, seating),
        back=table_path(game, table, round=round_),
        table=table,
        finished_round=finished if round_ == finished else None,
    )
