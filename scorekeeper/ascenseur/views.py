"""The pages of an Ascenseur game: new game, the round page, corrections, undo."""

from __future__ import annotations

import io
import re
import secrets
from typing import Any

import segno
from flask import Response as FlaskResponse
from flask import (
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import format_time, get_locale, get_timezone
from flask_babel import gettext as _
from markupsafe import escape
from sqlalchemy import bindparam, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.wrappers import Response

from scorekeeper.access import (
    browser_id,
    form_key,
    is_scorer,
    new_games_limit,
    remember,
    require_scorer,
)
from scorekeeper.ascenseur import bp
from scorekeeper.ascenseur.forms import ConfirmForm, RoundForm, SetupForm, options, round_form
from scorekeeper.ascenseur.labels import (
    PRESET_DESCRIPTIONS,
    PRESET_NAMES,
    card_label,
    choice_label,
    error_message,
    house_rule_texts,
    score,
    signed,
)
from scorekeeper.ascenseur.setup import name_errors, preview, rearrange_players, variant_from_form
from scorekeeper.extensions import db
from scorekeeper.models import Correction, Game, Player, RoundRecord
from scorekeeper.network import network_addresses
from scorekeeper.page_cache import SHARE_MARK, cached_page, drawing_to_keep
from scorekeeper.rules import ascenseur as rules
from scorekeeper.rules.cards import Suit

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")
VERSION = select(Game.version).where(Game.id == bindparam("game_id"))


def get_game_or_404(game_id: str) -> Game:
    game = db.session.get(Game, game_id) if GAME_ID.fullmatch(game_id) else None
    if game is None:
        abort(404)
    return game


def get_preset_or_404(key: str) -> rules.Variant:
    if key not in rules.PRESETS:
        abort(404)
    return rules.PRESETS[key]


@bp.get("/new")
def choose() -> str:
    """Pick one of the six games."""
    return render_template(
        "ascenseur/choose.html", names=PRESET_NAMES, descriptions=PRESET_DESCRIPTIONS
    )


@bp.route("/new/<preset>", methods=["GET", "POST"])
@new_games_limit
def setup(preset: str) -> str | Response | tuple[str, int]:
    """Players, first dealer and house rules; the game's preview; then start it."""
    base = get_preset_or_404(preset)
    if request.method == "GET":
        rows = [""] * max(base.min_players, min(4, base.max_players))
        data = {**SetupForm.defaults(base), "players": rows, "nonce": secrets.token_hex(16)}
        browser_id()  # the form's nonce is tied to this browser
        form = SetupForm(data=data)
        return render_setup(preset, base, form, preview(base, len(rows)))
    form = SetupForm()
    action = request.form.get("action", "preview")
    if action not in ("preview", "start"):
        rearrange_players(form, action, base.max_players)
        return render_setup(preset, base, form, None)
    valid = form.validate()
    try:
        variant = variant_from_form(base, form) if valid else base
        errors = name_errors(form, variant)
        game_preview = preview(variant, len(form.players.entries)) if not errors else None
    except ValueError as error:
        errors, game_preview = [str(error)], None
    names_ok = not any(entry.errors for entry in form.players.entries)
    if action == "start" and valid and not errors and names_ok:
        try:  # the engine has the last word on the table it is given
            rules.score_game(variant, form.names(), form.first_dealer.data, [])
        except ValueError:
            errors.append(_("Choose who deals first among the players."))
        else:
            return start_game(preset, base, variant, form)
    status = 200 if action == "preview" and valid and names_ok and not errors else 422
    return render_setup(preset, base, form, game_preview, errors), status


def start_game(
    preset: str, base: rules.Variant, variant: rules.Variant, form: SetupForm
) -> Response:
    """Store the new game and go to its first round. The same form sent twice (a double tap,
    a retry) starts one game; sent again with other players or rules, it starts another."""
    table = (preset, rules.house_rules(variant, base), form.first_dealer.data, tuple(form.names()))
    nonce = form_key(form.nonce.data)
    existing = game_started_by(nonce)
    if existing is not None:
        if (existing.preset, existing.house_rules, existing.first_dealer, existing.names) == table:
            remember(existing.id, scorer=True)
            return redirect(url_for(".play", game_id=existing.id))
        nonce = None  # the form was changed and sent again: a game of its own
    game = Game(
        preset=preset,
        house_rules=table[1],
        first_dealer=table[2],
        setup_nonce=nonce,
        players=[Player(seat=seat, name=name) for seat, name in enumerate(table[3])],
    )
    db.session.add(game)
    try:
        db.session.commit()
    except IntegrityError:  # the same form sent twice at once: the first one stands
        db.session.rollback()
        game = game_started_by(nonce) or abort(409)
    remember(game.id, scorer=True)
    return redirect(url_for(".play", game_id=game.id))


def game_started_by(nonce: str | None) -> Game | None:
    if nonce is None:
        return None
    return db.session.execute(db.select(Game).filter_by(setup_nonce=nonce)).scalar_one_or_none()


def render_setup(
    preset: str,
    base: rules.Variant,
    form: SetupForm,
    game_preview: Any,
    errors: list[str] | None = None,
) -> str:
    names = form.names()
    form.first_dealer.choices = options(
        [(seat, name or _("Player %(number)d", number=seat + 1)) for seat, name in enumerate(names)]
    )
    if not isinstance(form.first_dealer.data, int) or form.first_dealer.data >= len(names):
        form.first_dealer.data = 0
    return render_template(
        "ascenseur/setup.html",
        preset=preset,
        preset_name=PRESET_NAMES[preset],
        description=PRESET_DESCRIPTIONS[preset],
        base=base,
        form=form,
        preview=game_preview,
        errors=errors or [],
    )


@bp.get("/new/<preset>/preview")
def setup_preview(preset: str) -> str:
    """The preview alone, redrawn as the new-game form changes (JavaScript comfort)."""
    base = get_preset_or_404(preset)
    form = SetupForm(formdata=request.args, meta={"csrf": False})
    try:
        if not form.validate():
            raise ValueError(_("Check the numbers in the form."))
        variant = variant_from_form(base, form)
        errors = name_errors(form, variant)
        game_preview = None if errors else preview(variant, len(form.players.entries))
    except ValueError as error:
        errors, game_preview = [str(error)], None
    return render_template("ascenseur/_preview.html", preview=game_preview, errors=errors)


# --- The round page ---------------------------------------------------------------------------


def pending_round(game: Game) -> RoundRecord | None:
    """The round whose bids are in and whose tricks are not."""
    if game.rounds and game.rounds[-1].tricks is None:
        return game.rounds[-1]
    return None


def render_play(
    game: Game,
    sheet: rules.GameSheet,
    form: RoundForm | None = None,
    status: int = 200,
    conflict: dict[str, Any] | None = None,
) -> tuple[str, int]:
    plan = sheet.current
    pending = pending_round(game)
    kind = "tricks" if pending else "bids"
    scorer = is_scorer(game.id)
    if form is None and plan is not None and scorer:
        data: dict[str, Any] = {"version": game.version}
        again = request.args.get("again", "").split("/")
        if len(again) == len(game.players) and all(re.fullmatch("[0-9]{1,3}", v) for v in again):
            prefix = "tricks" if pending else "bid"
            data.update({f"{prefix}_{seat}": int(value) for seat, value in enumerate(again)})
            if not pending and request.args.get("trump") in set(Suit):
                data["trump"] = request.args["trump"]
        form = round_form(
            plan,
            game.names,
            bids=not pending,
            tricks=bool(pending),
            trump=not pending and plan.trump_turned,
            formdata=None,
            data=data,
        )
    variant = sheet.variant
    return render_template(
        "ascenseur/play.html",
        game=game,
        sheet=sheet,
        plan=plan,
        pending=pending,
        kind=kind,
        form=form,
        undo_form=ConfirmForm(data={"version": game.version}) if scorer else None,
        scorer=scorer,
        here=url_for(".play", game_id=game.id),
        links=share_links(game) if scorer else None,
        conflict=conflict,
        conflict_form=ConfirmForm() if conflict else None,
        house_rules=house_rule_texts(variant, rules.PRESETS[game.preset]),
        preset_name=PRESET_NAMES[game.preset],
        removed=rules.removed_cards(variant, len(game.players)),
        last_played=next((r for r in reversed(sheet.rounds) if r.is_played), None),
    ), status


@bp.get("/<game_id>")
def play(game_id: str) -> FlaskResponse | str:
    """The round being played: who deals, how many cards, bids then tricks; the standings."""
    version = stored_version(game_id)
    if version is None:
        abort(404)
    remember(game_id)

    def draw() -> str:
        game = get_game_or_404(game_id)
        return render_play(game, game.sheet())[0]

    if request.args:  # numbers handed back by "take back": this page is drawn for them alone
        return draw()
    scorer = is_scorer(game_id)
    key = (game_id, version, scorer, str(get_locale()), str(get_timezone()))
    return cached_page(key, draw, lambda: str(escape(share_base())))


def stored_version(game_id: str) -> int | None:
    """The game's version as the database has it now. Every phone asks for it every few
    seconds, so the query skips the ORM's session."""
    if not GAME_ID.fullmatch(game_id):
        return None
    with db.engine.connect() as connection:
        return connection.execute(VERSION, {"game_id": game_id}).scalar_one_or_none()


@bp.get("/<game_id>/version")
def game_version(game_id: str) -> FlaskResponse:
    """The game's version, for the pages that follow it live: 304 while nothing changed."""
    version = stored_version(game_id)
    if version is None:
        abort(404)
    etag = f"{game_id}-{version}"
    if etag in request.if_none_match:
        response = current_app.response_class(status=304)
    else:
        response = jsonify(version=version)
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/<game_id>/score/<token>")
def join_as_scorer(game_id: str, token: str) -> Response:
    """The scorer link: this browser may now enter and correct the game's rounds."""
    game = get_game_or_404(game_id)
    if not secrets.compare_digest(token.encode(), game.scorer_token.encode()):
        abort(403)
    remember(game.id, scorer=True)
    flash(_("This phone can now enter and correct the scores of this game."))
    return redirect(url_for(".play", game_id=game.id))


@bp.get("/<game_id>/qr/<any(viewer, scorer):link>.svg")
def qr_code(game_id: str, link: str) -> Response:
    """A QR code of the viewer or the scorer link, for another phone's camera."""
    game = get_game_or_404(game_id)
    if link == "scorer":
        require_scorer(game.id)
    svg = io.BytesIO()
    segno.make(share_links(game)[link], error="m").save(
        svg, kind="svg", scale=6, border=2, xmldecl=False, svgns=True, dark="#000", light="#fff"
    )
    response = FlaskResponse(svg.getvalue(), mimetype="image/svg+xml")
    # The scorer link is a secret: no cache keeps it.
    response.headers["Cache-Control"] = "no-store" if link == "scorer" else "private, max-age=86400"
    return response


def share_base() -> str:
    """Where the share links start, as another phone on the network would open them: opened on
    the laptop itself (localhost), the laptop's address on the network."""
    host = request.host.rsplit(":", 1)
    if host[0] in ("localhost", "127.0.0.1", "[::1]") and (addresses := network_addresses()):
        return f"{request.scheme}://{addresses[0]}" + (f":{host[1]}" if len(host) > 1 else "")
    return request.host_url.rstrip("/")


def share_links(game: Game) -> dict[str, str]:
    """The game's two addresses: to follow it, and to score it."""
    base = SHARE_MARK if drawing_to_keep() else str(escape(share_base()))
    return {
        "viewer": base + url_for(".play", game_id=game.id),
        "scorer": base + url_for(".join_as_scorer", game_id=game.id, token=game.scorer_token),
    }


def attach_errors(form: RoundForm, kind: str, errors: tuple[rules.RoundError, ...]) -> bool:
    """Put each engine error on its player's field, or on the form; True if there were any."""
    for error in errors:
        if error.seat is not None:
            field = form[f"{kind}_{error.seat}"]
            field.errors = [*field.errors, error_message(error)]
        else:
            form.form_errors.append(error_message(error))
    return bool(errors)


def seat_values(form: RoundForm, kind: str, seats: int) -> list[int]:
    return [int(form[f"{kind}_{seat}"].data) for seat in range(seats)]


def entered_elsewhere(
    game: Game, number: int, kind: str, mine: list[int]
) -> Response | tuple[str, int]:
    """A round already entered. The same numbers again (a double tap, the back button, a retry)
    change nothing and land on the game; other numbers were someone else's entry: both are
    shown, and one tap puts ours in their place."""
    record = next((r for r in game.rounds if r.number == number), None)
    theirs = None if record is None else (record.bids if kind == "bid" else record.tricks)
    if theirs == mine:
        return redirect(url_for(".play", game_id=game.id))
    if record is None or theirs is None:
        return not_this_round(game)
    replacement = {"bid": list(record.bids), "tricks": list(record.tricks or [])}
    replacement[kind] = mine
    conflict = {
        "number": number,
        "kind": kind,
        "theirs": theirs,
        "mine": mine,
        "record": record,
        "replacement": replacement,
    }
    return render_play(game, game.sheet(), status=409, conflict=conflict)


def not_this_round(game: Game) -> Response:
    flash(_("That round is not the one being played; nothing was changed."), "error")
    return redirect(url_for(".play", game_id=game.id))


@bp.get("/<game_id>/rounds/<int:number>/<any(bids, tricks):kind>")
def round_entry_page(game_id: str, number: int, kind: str) -> Response:
    """The address a form was sent to, opened again (a reload, a language switch): the game."""
    return redirect(url_for(".play", game_id=get_game_or_404(game_id).id))


def scorers_game(game_id: str) -> Game:
    game = get_game_or_404(game_id)
    require_scorer(game.id)
    return game


def round_plan_or_404(sheet: rules.GameSheet, number: int) -> rules.RoundPlan:
    if not 1 <= number <= len(sheet.plans):
        abort(404)
    return sheet.plans[number - 1]


def save(game: Game) -> bool:
    """Commit the game's changes, unless another phone changed the game since it was loaded."""
    game.changed()
    try:
        db.session.commit()
    except (StaleDataError, IntegrityError, OperationalError) as error:
        db.session.rollback()
        if isinstance(error, OperationalError) and "locked" not in str(error):
            raise
        return False
    return True


ATTEMPTS = 3
"""How often an entry is tried again when another phone changed the game at the same moment."""


@bp.post("/<game_id>/rounds/<int:number>/bids")
def enter_bids(game_id: str, number: int) -> Response | tuple[str, int]:
    """Store the round's bids (and the trump suit if noted) once the engine accepts them."""
    return enter_round(game_id, number, "bid")


@bp.post("/<game_id>/rounds/<int:number>/tricks")
def enter_tricks(game_id: str, number: int) -> Response | tuple[str, int]:
    """Store the round's tricks once they add up to the cards dealt."""
    return enter_round(game_id, number, "tricks")


def enter_round(game_id: str, number: int, kind: str) -> Response | tuple[str, int]:
    """One phase of a round ("bid" or "tricks"): checked by the engine, then stored; looked
    at again if another phone changed the game at that very moment."""
    bidding = kind == "bid"
    for _attempt in range(ATTEMPTS):
        game = scorers_game(game_id)
        sheet = game.sheet()
        plan = round_plan_or_404(sheet, number)
        record = pending_round(game)
        form = round_form(
            plan, game.names, bids=bidding, tricks=not bidding, trump=bidding and plan.trump_turned
        )
        if bidding:
            is_current = sheet.current == plan and record is None
        else:
            is_current = record is not None and record.number == number
        if not form.validate():
            return render_play(game, sheet, form, 422) if is_current else not_this_round(game)
        values = seat_values(form, kind, len(game.players))
        if not is_current:
            return entered_elsewhere(game, number, kind, values)
        check = rules.bid_errors if bidding else rules.trick_errors
        if attach_errors(form, kind, check(plan, game.names, values)):
            return render_play(game, sheet, form, 422)
        if bidding:
            trump = (form.trump.data or None) if plan.trump_turned else None
            game.rounds.append(RoundRecord(number=number, bids=values, trump=trump))
        elif record is not None:
            record.tricks = values
        if save(game):
            return redirect(url_for(".play", game_id=game.id))
    abort(409)


# --- Corrections ------------------------------------------------------------------------------


@bp.route("/<game_id>/rounds/<int:number>/edit", methods=["GET", "POST"])
def edit_round(game_id: str, number: int) -> Response | str | tuple[str, int]:
    """Correct a round already entered; every later round is re-scored from it."""
    for _attempt in range(ATTEMPTS):
        game = scorers_game(game_id)
        record = next((r for r in game.rounds if r.number == number), None)
        if record is None:
            abort(404)
        plan = game.sheet().plans[number - 1]
        has_tricks = record.tricks is not None
        data: dict[str, Any] = {"original": record.signature, "trump": record.trump or ""}
        for seat, bid in enumerate(record.bids):
            data[f"bid_{seat}"] = bid
            if record.tricks is not None:
                data[f"tricks_{seat}"] = record.tricks[seat]
        form = round_form(
            plan,
            game.names,
            bids=True,
            tricks=has_tricks,
            trump=plan.trump_turned,
            **({"data": data} if request.method == "GET" else {}),
        )
        changed_since = request.method == "POST" and form.original.data != record.signature
        if changed_since:
            form.original.data = record.signature  # one more tap puts these numbers instead
            form.form_errors.append(
                _(
                    "Round %(number)d was changed on another phone while you corrected it: it now "
                    "reads %(now)s. Your numbers are kept below; save again to put them instead.",
                    number=number,
                    now=round_text(record, game.names),
                )
            )
        elif request.method == "POST" and form.validate():
            bids = seat_values(form, "bid", len(game.players))
            tricks = seat_values(form, "tricks", len(game.players)) if has_tricks else None
            bad = attach_errors(form, "bid", rules.bid_errors(plan, game.names, bids))
            if tricks is not None:
                bad |= attach_errors(form, "tricks", rules.trick_errors(plan, game.names, tricks))
            if not bad:
                trump = (form.trump.data or None) if plan.trump_turned else None
                if not log_corrections(game, record, bids, tricks, trump):
                    continue  # another phone saved a change at this very moment: look again
                return redirect(url_for(".play", game_id=game.id))
        status = 409 if changed_since else (422 if request.method == "POST" else 200)
        return render_template(
            "ascenseur/edit.html", game=game, plan=plan, form=form, has_tricks=has_tricks
        ), status
    abort(409)


def round_text(record: RoundRecord, names: tuple[str, ...]) -> str:
    """A round's numbers in one line: "Anne 1/0, Bruno 2/2 ..." (bid/tricks)."""
    cells = []
    for seat, name in enumerate(names):
        tricks = "" if record.tricks is None else f"/{record.tricks[seat]}"
        cells.append(f"{name} {record.bids[seat]}{tricks}")
    return ", ".join(cells)


def log_corrections(
    game: Game, record: RoundRecord, bids: list[int], tricks: list[int] | None, trump: str | None
) -> bool:
    """Store the corrected round and one log line per changed value; False if another phone
    changed the game at the same moment."""
    changes: list[Correction] = []
    for seat, (old, new) in enumerate(zip(record.bids, bids, strict=True)):
        if old != new:
            changes.append(Correction(field="bid", seat=seat, old=str(old), new=str(new)))
    if tricks is not None and record.tricks is not None:
        for seat, (old, new) in enumerate(zip(record.tricks, tricks, strict=True)):
            if old != new:
                changes.append(Correction(field="tricks", seat=seat, old=str(old), new=str(new)))
    if trump != record.trump:
        changes.append(Correction(field="trump", old=record.trump, new=trump))
    if not changes:
        flash(_("Round %(number)d is unchanged.", number=record.number))
        return True
    for change in changes:
        change.round_number = record.number
        game.corrections.append(change)
    record.bids, record.tricks, record.trump = bids, tricks, trump
    if not save(game):
        return False
    flash(_("Round %(number)d corrected; the scores are updated.", number=record.number))
    return True


@bp.post("/<game_id>/undo")
def undo(game_id: str) -> Response:
    """Take back the last entry: the last tricks, or else the last bids."""
    game = get_game_or_404(game_id)
    require_scorer(game.id)
    form = ConfirmForm()
    if not form.validate() or form.version.data != str(game.version):
        flash(_("The game changed since this page was drawn; nothing was undone."), "error")
        return redirect(url_for(".play", game_id=game.id))
    if not game.rounds:
        flash(_("There is nothing to undo."), "error")
        return redirect(url_for(".play", game_id=game.id))
    record = game.rounds[-1]
    if record.tricks is not None:
        values, field = record.tricks, "undo-tricks"
        record.tricks = None
    else:
        values, field = record.bids, "undo-bids"
        game.rounds.remove(record)
        if record.trump:
            game.corrections.append(
                Correction(round_number=record.number, field="trump", old=record.trump)
            )
    undone = "/".join(map(str, values))
    game.corrections.append(Correction(round_number=record.number, field=field, old=undone))
    if not save(game):
        flash(_("The game changed since this page was drawn; nothing was undone."), "error")
        return redirect(url_for(".play", game_id=game.id))
    flash(
        _(
            "Round %(number)d: taken back. The numbers are filled in again below.",
            number=record.number,
        )
    )
    # The taken-back numbers come back in the form, to change one and confirm again.
    trump = record.trump if field == "undo-bids" else None
    return redirect(url_for(".play", game_id=game.id, again=undone, trump=trump))


# --- What the templates call --------------------------------------------------------------------


@bp.app_template_filter("suit_symbol")
def suit_symbol(value: str | None) -> str:
    return Suit(value).symbol if value else ""


bp.add_app_template_filter(signed, "signed")
bp.add_app_template_global(score, "score")
bp.add_app_template_filter(card_label, "card_label")
bp.add_app_template_global(choice_label, "choice_label")


@bp.app_template_global()
def standings_order(sheet: rules.GameSheet) -> list[int]:
    """The seats from first place down; equal places keep the seating order."""
    return sorted(range(len(sheet.players)), key=lambda seat: (sheet.places[seat], seat))


@bp.app_template_global()
def correction_text(change: Correction, names: tuple[str, ...]) -> str:
    """One line of the corrections log, in the reader's language."""
    details = {
        "number": change.round_number,
        "time": format_time(change.made_at, "short"),
        "name": names[change.seat] if change.seat is not None else "",
        "old": change.old,
        "new": change.new,
    }
    if change.field == "bid":
        return _(
            "Round %(number)d corrected at %(time)s: %(name)s's bid %(old)s → %(new)s", **details
        )
    if change.field == "tricks":
        return _(
            "Round %(number)d corrected at %(time)s: %(name)s's tricks %(old)s → %(new)s", **details
        )
    if change.field == "trump":
        details["old"] = suit_symbol(change.old) or _("not noted")
        details["new"] = suit_symbol(change.new) or _("not noted")
        return _("Round %(number)d corrected at %(time)s: trump %(old)s → %(new)s", **details)
    if change.field == "undo-tricks":
        return _("Round %(number)d at %(time)s: tricks taken back (%(old)s)", **details)
    return _("Round %(number)d at %(time)s: bids taken back (%(old)s)", **details)
