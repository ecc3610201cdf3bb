"""The pages of a club session: set up, the director's page (what is in, what is missing, the
ranking), each table's phone, corrections and artificial scores, the printouts and the results
files. Links, the live version, undo and the game file come from the table core."""

from __future__ import annotations

import functools
import secrets
import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping
from typing import Any

from flask import abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from werkzeug.wrappers import Response

from scorekeeper.club import bp, files
from scorekeeper.club.checked import published_sheet
from scorekeeper.club.family import (
    FAMILY,
    CorrectionKind,
    improbable_text,
    pair_label,
    short_pair,
    table_result_label,
    table_token,
)
from scorekeeper.club.forms import (
    AddedTableForm,
    ArrowSwitchForm,
    ArtificialForm,
    HandsForm,
    LatePairForm,
    LeavingPairForm,
    MoveForm,
    NamesForm,
    ResultForm,
    SetupForm,
    ShownForm,
)
from scorekeeper.club.hands import (
    HandRecord,
    deals_at_random,
    hand_records,
    put_deals,
    solver,
)
from scorekeeper.club.labels import file_message
from scorekeeper.club.models import ClubPair, ClubResult, ClubSession, ClubTable, seating_at
from scorekeeper.contract.forms import RESULTS
from scorekeeper.contract.labels import rule_message
from scorekeeper.games.entries import (
    EntryKind,
    EntryWords,
    Outcome,
    add_entry_routes,
    drawn_from_now,
    game_page,
    page_context,
    write_entry,
)
from scorekeeper.games.forms import ChangeForm, ConfirmForm
from scorekeeper.games.links import link_base, qr_svg, share_base
from scorekeeper.games.lookup import get_game_or_404, scorers_game
from scorekeeper.games.models import Correction, utcnow
from scorekeeper.games.registry import circles, file_stem
from scorekeeper.games.rights import is_scorer, require_scorer
from scorekeeper.games.views import import_page, new_game_form
from scorekeeper.limits import imports_limit, new_games_limit
from scorekeeper.rules.common import RuleError, Side
from scorekeeper.rules.duplicate import SessionScore, pairs_of
from scorekeeper.rules.hands import solver_available
from scorekeeper.rules.history import pair_partners
from scorekeeper.rules.movements import (
    MAX_MITCHELL_TABLES,
    Movement,
    MovementError,
    MovementKind,
    Place,
    Seating,
    mitchell,
    still_missing,
)
from scorekeeper.rules.pbn import read_hand_records
from scorekeeper.serving import kept_page


def club_session(game_id: str) -> ClubSession:
    return get_game_or_404(game_id, ClubSession)


# --- Set up --------------------------------------------------------------------------------------


@bp.route("/new", methods=["GET", "POST"])
@new_games_limit
def setup() -> str | Response | tuple[str, int]:
    """A new session: movement, tables, boards a round, scoring."""
    return new_game_form(SetupForm, "club/setup.html", new_session)


def new_session(form: SetupForm) -> ClubSession:
    tables = int(form.tables.data)
    settings = {
        "movement": form.movement.data,
        "tables": tables,
        "boards_per_round": int(form.boards_per_round.data),
        "pairs": form.pair_count(),
        "scoring": form.scoring.data,
        "event": form.event.data or "",
        **({"club": form.club.data} if form.club.data else {}),
        "shown": form.shown.data,
    }
    game = ClubSession(settings=settings)
    movement = game.movement
    assert movement is not None
    game.tables = [ClubTable(number=number) for number in range(1, tables + 1)]
    game.pairs = [
        ClubPair(number=number, direction=direction or "")
        for number, direction in movement.pairs_listed()
    ]
    return game


# --- The director's page -------------------------------------------------------------------------


def scored(game: ClubSession, scorer: bool = True) -> tuple[SessionScore | None, str | None]:
    """The session scored as its reader may see it (see ClubSession.score_shown), or the
    engine's refusal (a session is only as good as its rows)."""
    try:
        return kept_score(game, scorer), None
    except RuleError as error:
        return None, rule_message(error)


SCORES_KEPT = 256
"""Sessions scored, the newest state of each: a result entered changes the director's page,
the players' (the ranking as it stands) and the table's phone (its pairs' cards), each scoring
the same session; scored once, the three draw in a third of the time. An older state is not
kept: no page asks for it again, and a session's score is large."""
kept_scores: OrderedDict[Hashable, tuple[int, SessionScore | None]] = OrderedDict()
kept_scores_lock = threading.Lock()


def kept_score(game: ClubSession, scorer: bool) -> SessionScore | None:
    """``game.score_shown(scorer)``, scored once per state of the session in a server process:
    kept under the session and what its reader may see, with the version it was scored at,
    for a page being drawn (a GET changes nothing; a form's request may have changed the
    session it scores)."""
    if request.method not in ("GET", "HEAD"):
        return game.score_shown(scorer)
    scope = (game.id, game.ranking_shown_after(scorer))
    version = game.live_version
    with kept_scores_lock:
        kept = kept_scores.get(scope)
        if kept is not None and kept[0] == version:
            kept_scores.move_to_end(scope)
            return kept[1]
    score = game.score_shown(scorer)
    with kept_scores_lock:
        kept = kept_scores.get(scope)
        if kept is None or kept[0] < version:  # a request that read the session later won
            kept_scores[scope] = (version, score)
            kept_scores.move_to_end(scope)
            while len(kept_scores) > SCORES_KEPT:
                kept_scores.popitem(last=False)
    return score


def render_session(game: ClubSession) -> str:
    scorer = is_scorer(game.id, game.family)
    movement = game.movement
    score, problem = scored(game, scorer) if scorer or game.shows_ranking() else (None, None)
    grid = movement.progress(game.entered) if movement is not None else ()
    expected = sum(cell.expected for row in grid for cell in row)
    return render_template(
        "club/session.html",
        game=game,
        movement=movement,
        score=score,
        sheet=published_sheet(game, score),
        problem=problem,
        grid=grid,
        expected=expected,
        missing=still_missing(grid, max((r.round for r in game.results), default=0)),
        scorer=scorer,
        table_links=table_links(game) if scorer and movement is not None else [],
        close_form=ConfirmForm(data={"drawn_from": game.version}) if scorer else None,
        shown_form=ShownForm(
            data={
                "drawn_from": game.version,
                "shown": game.shown.value,
                "names": "shown" if game.names_shown else "hidden",
            }
        )
        if scorer and movement is not None
        else None,
        everything=scorer or game.shows_everything(),
        late_form=late_pair_form(game) if scorer else None,
        switch_form=arrow_switch_form(game) if scorer else None,
        added_form=added_table_form(game) if scorer else None,
        leaving_form=leaving_pair_form(game) if scorer else None,
        improbable=to_check(game) if scorer else [],
        **page_context(
            game, url_for(".session", game_id=game.id), scorer=scorer, drawn_from=game.live_version
        ),
    )


def to_check(game: ClubSession) -> list[tuple[ClubResult, str]]:
    """The results far from what the cards make double dummy, each said."""
    records = hand_records(game)
    found = []
    for result in game.results:
        said = improbable_text(records, result.table_result())
        if said is not None:
            found.append((result, said))
    return found


def table_links(game: ClubSession) -> list[tuple[int, str]]:
    return [(table.number, link_base() + table_path(game, table.number)) for table in game.tables]


def table_path(game: ClubSession, table: int, **arguments: Any) -> str:
    return url_for(
        ".table_page", game_id=game.id, table=table, token=table_token(game, table), **arguments
    )


@bp.get("/<game_id>")
def session(game_id: str) -> Response | str:
    """The director's page (the ranking alone for those looking on)."""

    def draw() -> str:
        return render_session(club_session(game_id))

    return kept_page(FAMILY, game_id, draw)


@bp.get("/<game_id>/table/<int:table>/qr.svg")
def table_qr(game_id: str, table: int) -> Response:
    """The QR code of a table's link, for its phone's camera (the director's page only)."""
    game = scorers_game(game_id, ClubSession)
    if game.table(table) is None:
        abort(404)
    response = Response(qr_svg(share_base() + table_path(game, table)), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/<game_id>/close")
def close(game_id: str) -> Outcome:
    """Close the session (no more entries from the tables), or open it again. The button
    depends on the session's own row (open or closed), not on the tables' entries, which go
    on while the director closes."""

    def change(game: ClubSession) -> Outcome | None:
        form = ConfirmForm()
        if not form.validate() or not drawn_from_now(form, game.version):
            flash(_("The session changed since this page was drawn; try again."), "error")
            return game_page(game)
        game.setting("closed", not game.closed)
        for table in game.tables:  # a table's form drawn before the change is now stale
            table.changed()
        return None

    def done(game: ClubSession) -> None:
        flash(_("The session is closed.") if game.closed else _("The session is open again."))

    return write_entry(lambda: scorers_game(game_id, ClubSession), change, done)


@bp.post("/<game_id>/shown")
def change_shown(game_id: str) -> Outcome:
    """What the tables and those looking on see before the session closes."""

    def change(game: ClubSession) -> Outcome | None:
        form = ShownForm()
        invalid = None if form.validate() else _("Choose what the players see.")
        # The session's own row: the tables' entries meanwhile change nothing of this choice.
        if (refusal := refused(game, form, invalid)) is not None:
            return refusal
        game.setting("shown", form.shown.data)
        game.setting("names_shown", form.names.data == "shown")
        return None

    def done(game: ClubSession) -> None:
        flash(_("What the players see is changed."))

    return write_entry(lambda: scorers_game(game_id, ClubSession), change, done)


def refused(game: ClubSession, form: ChangeForm, invalid: str | None) -> Outcome | None:
    """The page again, saying why a director's form of the session's own row changes
    nothing: ``invalid`` (what is wrong with it), or that it was drawn before the session's
    last change; ``None`` when it may change the session."""
    if invalid is None and not drawn_from_now(form, game.version):
        invalid = _("The session changed since this page was drawn; try again.")
    if invalid is None:
        return None
    flash(invalid, "error")
    return game_page(game)


# --- A late pair ---------------------------------------------------------------------------------


def late_rounds(game: ClubSession) -> list[int]:
    """The rounds a late pair may start from: the round being played on, or a later one (a
    table added for one late pair is there from its first round)."""
    movement = game.movement
    if movement is None or movement.phantom is None or game.late_from is not None:
        return []
    first = max(game.last_round_begun, movement.added_from or 1)
    return list(range(first, movement.rounds + 1))


def late_pair_form(game: ClubSession) -> LatePairForm | None:
    rounds = late_rounds(game)
    if not rounds or game.closed:
        return None
    form = LatePairForm(formdata=None, data={"drawn_from": game.version})
    form.from_round.choices = [(r, _("Round %(number)d", number=r)) for r in rounds]
    return form


@bp.post("/<game_id>/late-pair")
def late_pair(game_id: str) -> Outcome:
    """A pair arriving after the start takes the sit-out's place from a round on: the results
    so far stay, the tables' phones seat it, and the boards the sit-out missed before it came
    are scored with Neuberg's formula."""

    def change(game: ClubSession) -> Outcome | None:
        form = LatePairForm()
        form.from_round.choices = [(r, str(r)) for r in late_rounds(game)]
        movement = game.movement
        if movement is None or movement.phantom is None or not form.from_round.choices:
            flash(_("This session has no sit-out for a late pair to take."), "error")
            return game_page(game)
        invalid = None
        if not form.validate() or game.closed:
            invalid = _("Choose the round the late pair starts from.")
            if form.names.errors:
                invalid = _("The late pair's names: %(error)s", error=form.names.errors[0])
        if (refusal := refused(game, form, invalid)) is not None:
            return refusal
        from_round = int(form.from_round.data)
        game.setting("late_from", from_round)
        direction = Side.EW.value if movement.ranking.numbered_by_direction else ""
        pair = next(
            (p for p in game.pairs if (p.number, p.direction) == (movement.phantom, direction)),
            None,
        )
        if pair is None:
            pair = ClubPair(number=movement.phantom, direction=direction)
            game.pairs.append(pair)
        pair.names = form.names.data or pair.names
        label = short_pair(pair.number, Side.EW, movement.ranking)
        game.corrections.append(
            Correction(number=from_round, kind=CorrectionKind.LATE_PAIR, new=label)
        )
        game.reseat()
        return None

    def done(game: ClubSession) -> None:
        flash(
            _(
                "The late pair plays from round %(round)d in the sit-out's place; the tables' "
                "phones seat it.",
                round=game.late_from,
            )
        )

    return write_entry(lambda: scorers_game(game_id, ClubSession), change, done)


# --- A table added for late pairs ---------------------------------------------------------------


@functools.lru_cache(maxsize=1024)
def table_can_be_added(tables: int, boards_per_round: int, from_round: int) -> bool:
    """Whether a full Mitchell of ``tables`` tables can take one more from ``from_round``."""
    try:
        mitchell(tables, boards_per_round).with_added_table(from_round)
    except MovementError:
        return False
    return True


def added_rounds(game: ClubSession) -> list[int]:
    """The rounds a table added for late pairs may play from: those no table has begun,
    where the movement can take it; none but in a full Mitchell not changed yet."""
    movement = game.movement
    if (
        movement is None
        or movement.kind is not MovementKind.MITCHELL
        or movement.phantom is not None
        or game.added_from is not None
        or game.closed
        or movement.tables >= MAX_MITCHELL_TABLES
    ):
        return []
    return [
        number
        for number in range(game.last_round_begun + 1, movement.rounds + 1)
        if table_can_be_added(game.table_count, game.boards_per_round, number)
    ]


def added_table_form(game: ClubSession) -> AddedTableForm | None:
    rounds = added_rounds(game)
    if not rounds:
        return None
    form = AddedTableForm(formdata=None, data={"drawn_from": game.version})
    form.from_round.choices = [(r, _("Round %(number)d", number=r)) for r in rounds]
    return form


@bp.post("/<game_id>/added-table")
def added_table(game_id: str) -> Outcome:
    """One or two pairs arriving after the start of a full Mitchell: one more table from a
    round no table has begun. The results so far stay, the new table's phone has its link,
    and each round one East-West pair plays there on its usual boards (see
    Movement.with_added_table)."""

    def change(game: ClubSession) -> Outcome | None:
        form = AddedTableForm()
        form.from_round.choices = [(r, str(r)) for r in added_rounds(game)]
        if not form.from_round.choices:
            flash(_("This session cannot take one more table now."), "error")
            return game_page(game)
        invalid = None
        if not form.validate():
            invalid = _("Choose the round the new table plays from.")
            if errors := form.names.errors or form.other_names.errors:
                invalid = _("The late pair's names: %(error)s", error=errors[0])
        if (refusal := refused(game, form, invalid)) is not None:
            return refusal
        late = int(form.pairs.data)
        game.setting("added_from", int(form.from_round.data))
        game.setting("added_pairs", late)
        movement = game.movement
        assert movement is not None
        number = movement.tables
        names = [(Side.NS, form.names.data)] + ([(Side.EW, form.other_names.data)] * (late == 2))
        for side, players in names:
            game.pairs.append(ClubPair(number=number, direction=side.value, names=players or ""))
        game.tables.append(ClubTable(number=number))
        labels = [short_pair(number, side, movement.ranking) for side, _names in names]
        game.corrections.append(
            Correction(
                number=game.added_from,
                seat=number,
                kind=CorrectionKind.ADDED_TABLE,
                new=", ".join(labels),
            )
        )
        game.reseat()
        return None

    def done(game: ClubSession) -> None:
        flash(
            _(
                "Table %(table)d plays from round %(round)d: its link is with the others'. "
                "Each round one East-West pair plays there on its usual boards; the phones "
                "say which.",
                table=len(game.tables),
                round=game.added_from,
            )
        )

    return write_entry(lambda: scorers_game(game_id, ClubSession), change, done)


# --- A pair leaving -------------------------------------------------------------------------------


def leaving_choices(game: ClubSession) -> tuple[list[tuple[str, str]], list[int]]:
    """The pairs that may leave ("NS3", "7") and the rounds they may leave from: those no
    table has begun. None once a pair has left, or the session is closed."""
    movement = game.movement
    if movement is None or movement.left is not None or game.closed:
        return [], []
    rounds = list(range(max(game.last_round_begun + 1, 2), movement.rounds + 1))
    pairs = [
        (f"{direction or ''}{number}", short_pair(number, direction or Side.NS, movement.ranking))
        for number, direction in movement.pairs_listed()
    ]
    return pairs, rounds


def leaving_pair_form(game: ClubSession) -> LeavingPairForm | None:
    pairs, rounds = leaving_choices(game)
    if not rounds:
        return None
    form = LeavingPairForm(formdata=None, data={"drawn_from": game.version})
    form.pair.choices = pairs
    form.from_round.choices = [(r, _("Round %(number)d", number=r)) for r in rounds]
    return form


@bp.post("/<game_id>/pair-leaves")
def pair_leaves(game_id: str) -> Outcome:
    """A pair leaving before the end: from a round no table has begun, the pairs it would
    have met sit out; its results so far stay, and the boards played fewer times are scored
    with Neuberg's formula."""

    def change(game: ClubSession) -> Outcome | None:
        form = LeavingPairForm()
        pairs, rounds = leaving_choices(game)
        form.pair.choices = pairs
        form.from_round.choices = [(r, str(r)) for r in rounds]
        if not rounds:
            flash(_("No pair can leave this session now."), "error")
            return game_page(game)
        invalid = None
        if not form.validate():
            invalid = _("Choose the pair leaving and its first round not played.")
        if (refusal := refused(game, form, invalid)) is not None:
            return refusal
        movement = game.movement
        assert movement is not None
        code = str(form.pair.data)
        direction = code[:2] if code[:2] in ("NS", "EW") else ""
        number = int(code[len(direction) :])
        from_round = int(form.from_round.data)
        game.setting("left_pair", number)
        game.setting("left_direction", direction)
        game.setting("left_from", from_round)
        label = short_pair(number, Side(direction) if direction else Side.NS, movement.ranking)
        game.corrections.append(Correction(number=from_round, kind=CorrectionKind.LEFT, new=label))
        game.reseat()
        return None

    def done(game: ClubSession) -> None:
        flash(
            _(
                "From round %(round)d the pairs it would have met sit out; its results so far "
                "stay.",
                round=game.left_from,
            )
        )

    return write_entry(lambda: scorers_game(game_id, ClubSession), change, done)


# --- An arrow switch ------------------------------------------------------------------------------


def open_rounds(game: ClubSession) -> list[int]:
    """The rounds of a Mitchell whose seats may still change: those no table has begun."""
    movement = game.movement
    if movement is None or movement.kind is not MovementKind.MITCHELL or game.closed:
        return []
    return list(range(game.last_round_begun + 1, movement.rounds + 1))


def arrow_switch_form(game: ClubSession) -> ArrowSwitchForm | None:
    rounds = open_rounds(game)
    if not rounds:
        return None
    chosen = sorted(game.switched_rounds & set(rounds))
    form = ArrowSwitchForm(formdata=None, data={"drawn_from": game.version, "rounds": chosen})
    form.rounds.choices = [(r, _("Round %(number)d", number=r)) for r in rounds]
    return form


@bp.post("/<game_id>/arrow-switch")
def arrow_switch(game_id: str) -> Outcome:
    """The rounds of a Mitchell in which East-West sit North-South and North-South East-West:
    chosen among the rounds no table has begun, those begun keep the seats they were played
    in. With any, the room is ranked as one field."""

    def change(game: ClubSession) -> Outcome | None:
        form = ArrowSwitchForm()
        form.rounds.choices = [(r, str(r)) for r in open_rounds(game)]
        movement = game.movement
        if movement is None or movement.kind is not MovementKind.MITCHELL or game.closed:
            flash(_("An arrow switch is for a Mitchell still under way."), "error")
            return game_page(game)
        if not form.rounds.choices:
            flash(_("Every round has begun: their seats stay as they were played."), "error")
            return game_page(game)
        invalid = None
        if not form.validate():
            invalid = _("A round chosen has begun meanwhile: choose again.")
        if (refusal := refused(game, form, invalid)) is not None:
            return refusal
        kept = game.switched_rounds - set(open_rounds(game))
        rounds = sorted(kept | set(form.rounds.data or ()))
        game.setting("switched_rounds", rounds)
        game.corrections.append(
            Correction(
                number=min(rounds, default=1),
                kind=CorrectionKind.ARROW_SWITCH,
                new=", ".join(str(number) for number in rounds) or "–",
            )
        )
        game.reseat()
        return None

    def done(game: ClubSession) -> None:
        rounds = sorted(game.switched_rounds)
        if rounds:
            flash(
                ngettext(
                    "Arrow switch in round %(rounds)s: East-West sit North-South there. The "
                    "room is ranked as one field.",
                    "Arrow switch in rounds %(rounds)s: East-West sit North-South there. The "
                    "room is ranked as one field.",
                    len(rounds),
                    rounds=", ".join(str(number) for number in rounds),
                )
            )
        else:
            flash(_("No arrow switch: each direction is ranked apart."))

    return write_entry(lambda: scorers_game(game_id, ClubSession), change, done)


# --- Pairs' names --------------------------------------------------------------------------------


@bp.route("/<game_id>/pairs", methods=["GET", "POST"])
def names(game_id: str) -> Outcome:
    """The players of each pair (optional)."""

    def change(game: ClubSession) -> Outcome | None:
        if request.method in ("GET", "HEAD"):
            data = {"drawn_from": game.version, "names": [p.names for p in game.pairs]}
            form = NamesForm(data=data)
            return render_names(game, form)
        form = NamesForm()
        if not drawn_from_now(form, game.version):
            flash(
                _("The session changed since this page was drawn; check and send again."), "error"
            )
            # Drawn again as the session is now (a pair may have come), with what was typed.
            typed = [field.data or "" for field in form.names]
            names = [*typed[: len(game.pairs)], *(p.names for p in game.pairs[len(typed) :])]
            form = NamesForm(formdata=None, data={"drawn_from": game.version, "names": names})
            return render_names(game, form, 409)
        if not form.validate() or len(form.names) != len(game.pairs):
            return render_names(game, form, 422)
        if game.circle_id is not None and not people_named(form):
            return render_names(game, form, 422)
        for pair, field in zip(game.pairs, form.names, strict=True):
            pair.names = field.data or ""
            if game.circle_id is not None:  # each pair's two players are the circle's people
                partners = pair_partners(pair.names)
                first, second = (
                    (circles().person_named(game, name) for name in partners)
                    if partners
                    else (None, None)
                )
                pair.first_person_id, pair.second_person_id = first, second
        return None

    def saved(game: ClubSession) -> None:
        flash(_("The pairs' names are saved."))

    return write_entry(lambda: scorers_game(game_id, ClubSession), change, saved)


def people_named(form: NamesForm) -> bool:
    """Whether each pair's two players, in a session played in a circle, can be the circle's
    people: names it can keep (a pair's line that does not read as two players is kept as
    written, and names nobody)."""
    fine = True
    for field in form.names:
        for name in pair_partners(field.data or "") or ():
            if (problem := circles().name_problem(name)) is not None:
                field.errors = [*field.errors, f"{name}: {problem}"]
                fine = False
    return fine


def render_names(game: ClubSession, form: NamesForm, status: int = 200) -> tuple[str, int]:
    rows = list(zip(game.pairs, form.names, strict=False))
    circle = circles().circle_name(game)
    page = render_template("club/names.html", game=game, form=form, rows=rows, circle=circle)
    return page, status


# --- A table's phone -----------------------------------------------------------------------------


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
    if form is None and form_board is not None:
        form = ResultForm(formdata=None, data={"drawn_from": stored})
    if form_board is not None and seating is not None and action is None:
        action = url_for(
            ".result",
            game_id=game.id,
            table=table,
            token=table_token(game, table),
            round_=seating.round,
            board=form_board,
        )
    return render_template(
        "club/table.html",
        game=game,
        movement=movement,
        table=table,
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
        confirm_form=ConfirmForm(data={"drawn_from": stored}),
        improbable=functools.partial(improbable_text, hand_records(game) if now else {}),
        **pair_cards(game, now),
        table_url=lambda **arguments: table_path(game, table, **arguments),
        travellers_url=url_for(
            ".table_travellers", game_id=game.id, table=table, token=table_token(game, table)
        ),
        travellers_round=round_just_played(game, movement, table),
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

    return kept_page(
        FAMILY, game_id, draw, table, token, asked, board, opens_the_game=False, part=table
    )


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
        return ResultForm(**kwargs)

    def form_data(self, game: ClubSession, entry: ClubResult) -> dict[str, Any]:
        return ResultForm.data_of(entry)

    def check(self, game: ClubSession, key: Place, form: Any) -> bool:
        """The form's checks, then the engine's word on the result itself."""
        if not self.valid(game, key, form):
            return False
        try:
            self.filled(game, key, form).table_result()
        except RuleError as error:
            form.form_errors.append(rule_message(error))
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


class DirectorResults(TableResults):
    """A table's result as the director enters, corrects, gives artificial scores or deletes
    it: confirmed, logged, and the table's phone's forms made stale."""

    endpoint = "director_result"
    deleted = CorrectionKind.DELETED
    words = EntryWords(
        label=_l("Board %(board)d, table %(table)d"),
        corrected=_l("Board %(board)d at table %(table)d saved."),
        unchanged=_l("Board %(board)d at table %(table)d is unchanged."),
        changed_meanwhile=_l(
            "Board %(board)d at table %(table)d was entered or changed since this page was "
            "drawn: it now reads %(now)s. Yours is kept below; save again to put it instead."
        ),
        deleted=_l("Board %(board)d at table %(table)d deleted."),
    )

    def url(self, game: ClubSession, key: Place, action: str = "") -> str:
        return EntryKind.url(self, game, key, action)

    def load(self, game_id: str, route: Mapping[str, Any]) -> ClubSession:
        game = scorers_game(game_id, ClubSession)
        seated_or_404(game, *self.key(**route))
        return game

    def unchangeable(self, game: ClubSession, key: Place, entry: ClubResult) -> str | None:
        return None

    def missing(self, game: ClubSession, key: Place) -> ClubResult | None:
        return self.new(game, key)

    def form(self, game: ClubSession, key: Place, **kwargs: Any) -> Any:
        if request.form.get("action") == "artificial":
            return ArtificialForm(**kwargs)
        return ResultForm(**kwargs)

    def check(self, game: ClubSession, key: Place, form: Any) -> bool:
        if isinstance(form, ArtificialForm):
            return form.check()
        return super().check(game, key, form)

    def put(self, game: ClubSession, entry: ClubResult, form: Any) -> None:
        """The director's word: a result, or artificial scores; either way, confirmed. The
        row keeps when it was entered (undo takes back the result entered last)."""
        entry.clear()
        if isinstance(form, ArtificialForm):
            entry.artificial_ns, entry.artificial_ew = str(form.scores.data).split("/")
        else:
            form.put_into(entry)
        entry.confirmed = True

    def render_correction(
        self, game: ClubSession, key: Place, entry: ClubResult, form: Any, status: int = 200
    ) -> tuple[str, int]:
        round_, table, board = key
        existing = self.find(game, key)
        drawn = {"drawn_from": form.drawn_from.data or ""}
        if isinstance(form, ArtificialForm):
            result_form, artificial = ResultForm(formdata=None, data=drawn), form
        else:
            result_form, artificial = form, ArtificialForm(formdata=None, data=drawn)
        return render_template(
            "club/edit.html",
            game=game,
            round_=round_,
            table=table,
            board=board,
            existing=existing,
            form=result_form,
            artificial=artificial,
            delete_form=self.stamped(existing),
            move_form=move_form(game, key, existing),
            seats_form=seats_form(game, existing),
            results=RESULTS,
        ), status

    def page(self, game: ClubSession, key: Place) -> Response:
        return game_page(game)


TABLE_RESULTS = TableResults()
add_entry_routes(bp, TABLE_RESULTS, "/table/<int:table>/<token>/<int:round_>/<int:board>")
DIRECTOR_RESULTS = DirectorResults()
add_entry_routes(
    bp, DIRECTOR_RESULTS, "/results/<int:round_>/<int:table>/<int:board>", entered=False, edit=""
)


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
        if not drawn_from_now(form, TABLE_RESULTS.drawn_from(game, key)):
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


def move_token(result: ClubResult) -> str:
    """What a move form is drawn from: the result as it stands, and its board."""
    return f"{DIRECTOR_RESULTS.stamp(result)}@{result.board}"


def move_targets(game: ClubSession, key: Place) -> list[int]:
    """The boards a result may be moved to: the session's others with no result at this
    table in this round."""
    round_, table, board = key
    return [
        other
        for other in boards_of(game)
        if other != board and game.result_at(other, table, round_) is None
    ]


def seats_token(result: ClubResult) -> str:
    """What a seats form is drawn from: the result as it stands, and who sat where."""
    return f"{DIRECTOR_RESULTS.stamp(result)}@{result.ns}-{result.ew}-{result.switched}"


def seats_form(game: ClubSession, result: ClubResult | None) -> ConfirmForm | None:
    if result is None or game.movement is None:
        return None
    return ConfirmForm(formdata=None, data={"drawn_from": seats_token(result)})


@bp.post("/<game_id>/results/<int:round_>/<int:table>/<int:board>/seats")
def switch_seats(game_id: str, round_: int, table: int, board: int) -> Outcome:
    """The pairs sat the other way round on this board: each earns the score of the seats it
    held (in a Mitchell, the North-South pair the East-West score). Sent again, it puts them
    back; the log says it either way."""
    key = (round_, table, board)
    seated: list[str] = []

    def change(game: ClubSession) -> Outcome | None:
        result = game.result_at(board, table, round_)
        form = ConfirmForm()
        if result is None or game.movement is None or not form.validate():
            flash(_("There is no such result; nothing was changed."), "error")
            return game_page(game)
        if not drawn_from_now(form, seats_token(result)):
            flash(_("This result changed since the page was drawn; nothing was changed."), "error")
            return redirect(DIRECTOR_RESULTS.url(game, key, "edit"))
        result.ns, result.ew = result.ew, result.ns
        result.switched = not result.switched
        north = pairs_of(result.table_result(), game.ranking)[0]
        seated.append(pair_label(north))
        game.corrections.append(
            Correction(
                number=board,
                seat=table,
                kind=CorrectionKind.SEATS,
                old=result.code,
                new=seated[0],
            )
        )
        return None

    def saved(game: ClubSession) -> None:
        flash(
            _(
                "Board %(board)d at table %(table)d: %(pair)s sat North-South; everything is "
                "scored again.",
                board=board,
                table=table,
                pair=seated[0],
            )
        )

    return write_entry(
        lambda: scorers_game(game_id, ClubSession),
        change,
        saved,
        lock=lambda game: DIRECTOR_RESULTS.lock(game, key),
    )


def move_form(game: ClubSession, key: Place, result: ClubResult | None) -> MoveForm | None:
    if result is None or game.movement is None or not (targets := move_targets(game, key)):
        return None
    form = MoveForm(formdata=None, data={"drawn_from": move_token(result)})
    form.board.choices = [(board, _("Board %(number)d", number=board)) for board in targets]
    return form


@bp.post("/<game_id>/results/<int:round_>/<int:table>/<int:board>/move")
def move_result(game_id: str, round_: int, table: int, board: int) -> Outcome:
    """A result entered for the wrong board, moved to the board the table played (the pairs
    played that one instead): everything is scored again, and the log says what moved."""
    key = (round_, table, board)
    moved: list[int] = []

    def change(game: ClubSession) -> Outcome | None:
        result = game.result_at(board, table, round_)
        if result is None or game.movement is None:
            flash(_("There is no such result to move; nothing was changed."), "error")
            return game_page(game)
        form = MoveForm()
        form.board.choices = [(other, str(other)) for other in move_targets(game, key)]
        refusal: str | None
        if not form.validate():
            refusal = _("Choose a board with no result at this table in this round.")
        elif not drawn_from_now(form, move_token(result)):
            refusal = _("This result changed since the page was drawn; nothing was moved.")
        else:
            refusal = move_refusal(game, result, int(form.board.data))
        if refusal is not None:
            flash(refusal, "error")
            return redirect(DIRECTOR_RESULTS.url(game, key, "edit"))
        moved.append(int(form.board.data))
        game.corrections.append(
            Correction(
                number=board,
                seat=table,
                kind=CorrectionKind.MOVED,
                old=result.code,
                new=str(moved[0]),
            )
        )
        result.board, result.confirmed = moved[0], True
        return None

    def saved(game: ClubSession) -> None:
        flash(
            _(
                "The result of board %(board)d at table %(table)d is now board %(target)d's; "
                "everything is scored again. Board %(board)d has no result there now: the "
                "table's phone asks for it until it is played or given an artificial score.",
                board=board,
                table=table,
                target=moved[0],
            )
        )

    return write_entry(
        lambda: scorers_game(game_id, ClubSession),
        change,
        saved,
        lock=lambda game: DIRECTOR_RESULTS.lock(game, key),
    )


def move_refusal(game: ClubSession, result: ClubResult, target: int) -> str | None:
    """Why ``result`` may not become board ``target``'s: a pair would hold two results on
    one board, now or once it plays the board where the movement seats it."""
    played = set(pairs_of(result.table_result(), game.ranking))
    for other in game.results:
        if other.board == target and played & set(pairs_of(other.table_result(), game.ranking)):
            return _(
                "These pairs have a result on board %(board)d already, at table %(table)d: "
                "correct that one first.",
                board=target,
                table=other.table,
            )
    movement = game.movement
    assert movement is not None
    for seating in movement.seatings:
        seated = {game.pair_key(seating.ns, Side.NS), game.pair_key(seating.ew, Side.EW)}
        here = (seating.round, seating.table) == (result.round, result.table)
        if (
            target in seating.boards
            and not here  # the board this very result is moved to
            and seated & played
            and not movement.sits_out(seating)
            and game.result_at(target, seating.table, seating.round) is None
        ):
            return _(
                "These pairs still have board %(board)d to play, in round %(round)d at table "
                "%(table)d: give this board an artificial score instead.",
                board=target,
                round=seating.round,
                table=seating.table,
            )
    return None


# --- Printouts -----------------------------------------------------------------------------------


@bp.get("/<game_id>/movement")
def movement_cards(game_id: str) -> str:
    """The movement as a grid, and one card per table: who sits there, which boards, where
    the pairs go next."""
    game = club_session(game_id)
    movement = game.movement
    if movement is None:
        abort(404)
    return render_template(
        "club/movement.html",
        game=game,
        movement=movement,
        grid=movement.progress(game.entered),
        scorer=is_scorer(game.id, game.family),
    )


RANKING = "club/ranking.html"


def printout(
    game: ClubSession, template: str, *, scorer: bool, whole: bool = False, **context: Any
) -> str:
    """A printout, scored as its reader may see it (``whole``: every result, where the page
    itself keeps to what its reader may see)."""
    score, problem = scored(game, scorer or whole)
    sheet = published_sheet(game, score)
    return render_template(
        template, game=game, score=score, sheet=sheet, problem=problem, scorer=scorer, **context
    )


def session_printout(game_id: str, template: str) -> str | tuple[str, int]:
    """A printout from the session's address: the director's, or what the director shows."""
    game = club_session(game_id)
    scorer = is_scorer(game.id, game.family)
    if not scorer and not (
        game.shows_ranking() if template == RANKING else game.shows_everything()
    ):
        return not_yet(game)
    # The hands only once the session is closed: a board's hands are for those who played it.
    hands = hand_records(game) if scorer or game.hands_public() else {}
    back = url_for(".session", game_id=game.id)
    return printout(game, template, scorer=scorer, back=back, hands=hands)


def not_yet(game: ClubSession) -> tuple[str, int]:
    """What the players may not see yet, by the director's choice."""
    return render_template("club/not_yet.html", game=game), 403


@bp.get("/<game_id>/ranking")
def ranking(game_id: str) -> str | tuple[str, int]:
    """The ranking, for the notice board."""
    return session_printout(game_id, RANKING)


@bp.get("/<game_id>/travellers")
def travellers(game_id: str) -> str | tuple[str, int]:
    """Every board's traveller, with the matchpoints."""
    return session_printout(game_id, "club/travellers.html")


@bp.get("/<game_id>/cards")
def score_cards(game_id: str) -> str | tuple[str, int]:
    """Each pair's personal score card."""
    return session_printout(game_id, "club/cards.html")


def hands_played(game: ClubSession, seating: Seating) -> dict[int, HandRecord]:
    """The hand records a table's phone shows: of the boards both pairs seated there have
    played, whatever the director shows of the results (every board once it is closed)."""
    records = hand_records(game)
    if game.hands_public():
        return records
    played = game.boards_played_at(seating)
    return {board: record for board, record in records.items() if board in played}


def round_just_played(game: ClubSession, movement: Movement, table: int) -> int:
    """The round whose pairs a table's travellers are for: the one it is at, but that the
    round just finished stays until the table enters the next one's first result, so that
    the pairs who played its last board see its traveller, hands and par."""
    current = movement.current_round(table, game.entered)
    if current is None:
        return movement.rounds
    latest = max((r.round for r in game.results if r.table == table), default=None)
    return latest if latest is not None and latest < current else current


@bp.get("/<game_id>/table/<int:table>/<token>/travellers")
def table_travellers(game_id: str, table: int, token: str) -> str:
    """The travellers a table's phone shows: of the boards both pairs seated there now have
    played, or every board, as the director chose."""
    game = club_session(game_id)
    movement = table_or_404(game, table, token)
    round_ = round_just_played(game, movement, table)
    seating = seating_at(movement, round_, table)
    assert seating is not None
    current = movement.current_round(table, game.entered)
    return printout(
        game,
        "club/travellers.html",
        scorer=False,
        whole=True,  # the boards both pairs have played, each with all its results
        boards=sorted(game.boards_shown_at(seating)),
        hands=hands_played(game, seating),
        back=table_path(game, table),
        table=table,
        # The pairs of a round just finished, named while the next round's pairs sit down.
        finished_round=round_ if current is not None and round_ < current else None,
    )


# --- Hand records --------------------------------------------------------------------------------


def boards_of(game: ClubSession) -> list[int]:
    """The session's boards: its movement's, or those its results file has."""
    movement = game.movement
    if movement is not None:
        return list(range(1, movement.boards + 1))
    return sorted({result.board for result in game.results})


@bp.route("/<game_id>/hands", methods=["GET", "POST"])
def hands(game_id: str) -> Outcome:
    """The boards' deals: a dealing program's PBN file, or dealt here for a dealing machine;
    each solved double dummy in the background once it is kept."""
    kept: list[int] = []
    scorers_game(game_id, ClubSession)  # the director's page alone: asked before the upload
    form = HandsForm() if request.method == "POST" else None
    upload = None
    if form is not None and form.file.data:
        # Read once, as the write below may be tried again; put back for the size check.
        upload = form.file.data.read(HandsForm.MAX_BYTES + 1)
        form.file.data.seek(0)

    def change(game: ClubSession) -> Outcome | None:
        if form is None:
            return render_hands(game, HandsForm(formdata=None, data={"drawn_from": game.version}))
        if not form.validate():
            return render_hands(game, form, 422)
        if not drawn_from_now(form, game.version):
            flash(_("The session changed since this page was drawn; send again."), "error")
            form.drawn_from.data = str(game.version)  # drawn again from the session as it is
            return render_hands(game, form, 409)
        deals = deals_given(game, form, upload)
        if deals is None:
            return render_hands(game, form, 422)
        put_deals(game, deals)
        kept[:] = sorted(deals)
        return None

    def saved(game: ClubSession) -> None:
        solver().solve_later(game.id)
        flash(
            ngettext(
                "The hands of %(num)d board are kept; what each declarer makes follows in a "
                "moment.",
                "The hands of %(num)d boards are kept; what each declarer makes follows in a "
                "moment.",
                len(kept),
            )
        )

    return write_entry(
        lambda: scorers_game(game_id, ClubSession),
        change,
        saved,
        page=lambda game: redirect(url_for(".hands", game_id=game.id)),
    )


def deals_given(game: ClubSession, form: HandsForm, upload: bytes | None) -> dict[int, str] | None:
    """The deals the director gives the session's boards: dealt here at random (for a session
    played here), or read from the file; ``None``, the form saying why, when there are none."""
    boards = boards_of(game)
    if request.form.get("action") == "deal" and game.movement is not None:
        return deals_at_random(boards)
    if upload is None:
        form.file.errors = [_("Choose a PBN file of hand records.")]
        return None
    try:
        found = read_hand_records(upload)
    except RuleError as error:
        form.file.errors = [file_message(error)]
        return None
    deals = {board: deal.to_pbn() for board, deal in found.items() if board in boards}
    if not deals:
        form.file.errors = [_("The file has no deal for this session's boards.")]
        return None
    return deals


def render_hands(game: ClubSession, form: HandsForm, status: int = 200) -> tuple[str, int]:
    records = hand_records(game)
    return render_template(
        "club/hands.html",
        game=game,
        form=form,
        boards=boards_of(game),
        records=records,
        solver=solver_available(),
    ), status


@bp.get("/<game_id>/hands/print")
def hand_record_sheets(game_id: str) -> str | tuple[str, int]:
    """The hand records, four boards a page: for the director at any time (a dealing
    machine's sheets), for the players once the session is closed."""
    game = club_session(game_id)
    scorer = is_scorer(game.id, game.family)
    if not scorer and not game.hands_public():
        return not_yet(game)
    records = hand_records(game)
    back = url_for(".hands", game_id=game.id) if scorer else url_for(".session", game_id=game.id)
    return render_template("club/hand_records.html", game=game, records=records, back=back)


# --- Results files -------------------------------------------------------------------------------


def shared_file(game_id: str) -> ClubSession:
    """The session, for whoever may have its results files now."""
    game = club_session(game_id)
    if not game.results_files_for_everyone():
        require_scorer(game)
    return game


def names_in_files(game: ClubSession) -> bool:
    return game.names_shown or is_scorer(game.id, game.family)


@bp.get("/<game_id>/session.pbn")
def export_pbn(game_id: str) -> Response:
    game = shared_file(game_id)
    return Response(
        files.pbn_of(game, names=names_in_files(game)),
        mimetype="application/x-pbn",
        headers={"Content-Disposition": f'attachment; filename="{file_stem(game)}.pbn"'},
    )


@bp.get("/<game_id>/session.xml")
def export_usebio(game_id: str) -> Response:
    game = shared_file(game_id)
    return Response(
        files.usebio_of(game, names=names_in_files(game)),
        mimetype="application/xml",
        headers={"Content-Disposition": f'attachment; filename="{file_stem(game)}-usebio.xml"'},
    )


@bp.route("/import", methods=["GET", "POST"])
@imports_limit
def import_results() -> str | Response | tuple[str, int]:
    """A session scored elsewhere, from its PBN or USEBIO results file: checked and published
    here."""
    label = _("Results file (.pbn or USEBIO .xml)")
    return import_page(files.session_from_file, "club/import.html", label)


__all__ = ["MovementKind"]
