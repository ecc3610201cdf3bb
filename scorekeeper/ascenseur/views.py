"""The pages of an Ascenseur game: new game, the round page, corrections. Links, the live
version, undo and the game file come from the table core (scorekeeper.games)."""

from __future__ import annotations

import re
from typing import Any

from flask import abort, flash, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from scorekeeper.ascenseur import bp
from scorekeeper.ascenseur.family import FAMILY, round_text
from scorekeeper.ascenseur.forms import RoundForm, SetupForm, options, round_form
from scorekeeper.ascenseur.labels import (
    PRESET_DESCRIPTIONS,
    PRESET_NAMES,
    card_label,
    error_message,
    house_rule_texts,
)
from scorekeeper.ascenseur.models import AscenseurGame, CorrectionKind, RoundRecord
from scorekeeper.ascenseur.setup import name_errors, preview, rearrange_players, variant_from_form
from scorekeeper.games.entries import Outcome, game_page, start_new_game, write_entry
from scorekeeper.games.forms import ConfirmForm
from scorekeeper.games.links import share_links
from scorekeeper.games.lookup import get_game_or_404, scorers_game
from scorekeeper.games.models import Correction, Player
from scorekeeper.games.page_cache import drawing_for_both_roles
from scorekeeper.games.rights import is_scorer
from scorekeeper.games.routes import kept_game_page
from scorekeeper.games.views import new_nonce
from scorekeeper.limits import redrawn_setup_limit
from scorekeeper.rules import ascenseur as rules
from scorekeeper.rules.cards import Suit


def ascenseur_game(game_id: str) -> AscenseurGame:
    return get_game_or_404(game_id, AscenseurGame)


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
@redrawn_setup_limit
def setup(preset: str) -> str | Response | tuple[str, int]:
    """Players, first dealer and house rules; the game's preview; then start it."""
    base = get_preset_or_404(preset)
    if request.method == "GET":
        rows = [""] * max(base.min_players, min(4, base.max_players))
        data = {**SetupForm.defaults(base), "players": rows, "nonce": new_nonce()}
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
            game = AscenseurGame(
                preset=preset,
                house_rules=rules.house_rules(variant, base),
                first_dealer=form.first_dealer.data,
                players=[Player(seat=seat, name=name) for seat, name in enumerate(form.names())],
            )
            return start_new_game(game, form.nonce.data)
    status = 200 if action == "preview" and valid and names_ok and not errors else 422
    return render_setup(preset, base, form, game_preview, errors), status


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


def pending_round(game: AscenseurGame) -> RoundRecord | None:
    """The round whose bids are in and whose tricks are not."""
    if game.rounds and game.rounds[-1].tricks is None:
        return game.rounds[-1]
    return None


def render_play(
    game: AscenseurGame,
    sheet: rules.GameSheet,
    form: RoundForm | None = None,
    status: int = 200,
    conflict: dict[str, Any] | None = None,
) -> tuple[str, int]:
    plan = sheet.current
    pending = pending_round(game)
    kind = "tricks" if pending else "bids"
    scorer = is_scorer(game.id, game.family)
    both_roles = drawing_for_both_roles()
    sees_forms = scorer or both_roles
    if form is None and plan is not None and sees_forms:
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
        undo_form=ConfirmForm(data={"version": game.version}) if sees_forms else None,
        scorer=scorer,
        both_roles=both_roles,
        here=url_for(".play", game_id=game.id),
        links=share_links(game) if sees_forms else None,
        conflict=conflict,
        conflict_form=ConfirmForm() if conflict else None,
        house_rules=house_rule_texts(variant, rules.PRESETS[game.preset]),
        preset_name=PRESET_NAMES[game.preset],
        removed=[card_label(card) for card in rules.removed_cards(variant, len(game.players))],
        last_played=next((r for r in reversed(sheet.rounds) if r.is_played), None),
        live_game=game,
        keep_awake=plan is not None,
    ), status


@bp.get("/<game_id>")
def play(game_id: str) -> Response | str:
    """The round being played: who deals, how many cards, bids then tricks; the standings."""

    def draw() -> str:
        game = ascenseur_game(game_id)
        return render_play(game, game.sheet())[0]

    if request.args:  # numbers handed back by "take back": this page is drawn for them alone
        return draw()
    return kept_game_page(FAMILY, game_id, draw, for_both_roles=True)


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
    game: AscenseurGame, number: int, kind: str, mine: list[int]
) -> Response | tuple[str, int]:
    """A round already entered. The same numbers again (a double tap, the back button, a retry)
    change nothing and land on the game; other numbers were someone else's entry: both are
    shown, and one tap puts ours in their place."""
    record = next((r for r in game.rounds if r.number == number), None)
    theirs = None if record is None else (record.bids if kind == "bid" else record.tricks)
    if theirs == mine:
        return game_page(game)
    if record is None or theirs is None:
        return not_this_round(game)
    replacement = {"bid": list(record.bids), "tricks": list(record.tricks or [])}
    replacement[kind] = mine
    names = game.names
    hidden = {f"bid_{seat}": str(bid) for seat, bid in enumerate(replacement["bid"])}
    if record.tricks is not None:
        hidden.update({f"tricks_{seat}": str(t) for seat, t in enumerate(replacement["tricks"])})
    conflict = {
        "title": _("Round %(number)d was entered on another phone", number=number),
        "theirs": [(names[seat], value) for seat, value in enumerate(theirs)],
        "mine": [(names[seat], value) for seat, value in enumerate(mine)],
        "action": url_for(".edit_round", game_id=game.id, number=number),
        "hidden": {"original": record.signature, **hidden, "trump": record.trump or ""},
    }
    return render_play(game, game.sheet(), status=409, conflict=conflict)


def not_this_round(game: AscenseurGame) -> Response:
    flash(_("That round is not the one being played; nothing was changed."), "error")
    return game_page(game)


@bp.get("/<game_id>/rounds/<int:number>/<any(bids, tricks):kind>")
def round_entry_page(game_id: str, number: int, kind: str) -> Response:
    """The address a form was sent to, opened again (a reload, a language switch): the game."""
    return game_page(ascenseur_game(game_id))


def round_plan_or_404(sheet: rules.GameSheet, number: int) -> rules.RoundPlan:
    if not 1 <= number <= len(sheet.plans):
        abort(404)
    return sheet.plans[number - 1]


@bp.post("/<game_id>/rounds/<int:number>/bids")
def enter_bids(game_id: str, number: int) -> Outcome:
    """Store the round's bids (and the trump suit if noted) once the engine accepts them."""
    return enter_round(game_id, number, "bid")


@bp.post("/<game_id>/rounds/<int:number>/tricks")
def enter_tricks(game_id: str, number: int) -> Outcome:
    """Store the round's tricks once they add up to the cards dealt."""
    return enter_round(game_id, number, "tricks")


def enter_round(game_id: str, number: int, kind: str) -> Outcome:
    """One phase of a round ("bid" or "tricks"): checked by the engine, then stored."""
    bidding = kind == "bid"

    def change(game: AscenseurGame) -> Outcome | None:
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
        return None

    return write_entry(lambda: scorers_game(game_id, AscenseurGame), change)


# --- Corrections ------------------------------------------------------------------------------


@bp.route("/<game_id>/rounds/<int:number>/edit", methods=["GET", "POST"])
def edit_round(game_id: str, number: int) -> Outcome:
    """Correct a round already entered; every later round is re-scored from it."""

    def change(game: AscenseurGame) -> Outcome | None:
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
                return correct_round(game, record, bids, tricks, trump)
        status = 409 if changed_since else (422 if request.method == "POST" else 200)
        return render_template(
            "ascenseur/edit.html", game=game, plan=plan, form=form, has_tricks=has_tricks
        ), status

    def corrected(game: AscenseurGame) -> None:
        flash(_("Round %(number)d corrected; the scores are updated.", number=number))

    return write_entry(lambda: scorers_game(game_id, AscenseurGame), change, corrected)


def correct_round(
    game: AscenseurGame,
    record: RoundRecord,
    bids: list[int],
    tricks: list[int] | None,
    trump: str | None,
) -> Outcome | None:
    """Put the corrected numbers in the round and one log line per changed value (``None``:
    to be saved); a round unchanged goes back to the game as it is."""
    changes: list[Correction] = []
    for seat, (old, new) in enumerate(zip(record.bids, bids, strict=True)):
        if old != new:
            changes.append(
                Correction(kind=CorrectionKind.BID, seat=seat, old=str(old), new=str(new))
            )
    if tricks is not None and record.tricks is not None:
        for seat, (old, new) in enumerate(zip(record.tricks, tricks, strict=True)):
            if old != new:
                changes.append(
                    Correction(kind=CorrectionKind.TRICKS, seat=seat, old=str(old), new=str(new))
                )
    if trump != record.trump:
        changes.append(Correction(kind=CorrectionKind.TRUMP, old=record.trump, new=trump))
    if not changes:
        flash(_("Round %(number)d is unchanged.", number=record.number))
        return game_page(game)
    for correction in changes:
        correction.number = record.number
        game.corrections.append(correction)
    record.bids, record.tricks, record.trump = bids, tricks, trump
    return None
