"""The pages of an Ascenseur game: new game, the round page, corrections. Links, the live
version, undo and the game file come from the table core (scorekeeper.games)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from flask import abort, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response

from scorekeeper.ascenseur import bp
from scorekeeper.ascenseur.family import FAMILY, round_text, suit_symbol
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
from scorekeeper.games.entries import EntryKind, EntryWords, page_context
from scorekeeper.games.lookup import get_game_or_404
from scorekeeper.games.models import Correction, Player
from scorekeeper.games.rights import is_scorer
from scorekeeper.games.routes import add_entry_routes
from scorekeeper.games.views import new_game_data
from scorekeeper.games.writes import Outcome, start_new_game
from scorekeeper.limits import redrawn_setup_limit
from scorekeeper.rules import ascenseur as rules
from scorekeeper.rules.cards import Suit
from scorekeeper.serving import drawing_for_both_roles, kept_offline, kept_page


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
    if request.method in ("GET", "HEAD"):
        rows = [""] * max(base.min_players, min(4, base.max_players))
        data = {**SetupForm.defaults(base), "players": rows, **new_game_data()}
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
            return start_new_game(game, form.nonce.data, form.circle.data)
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


STEPS = ("bids", "tricks")


def steps_after(sheet: rules.GameSheet, number: int, step: str) -> list[tuple[int, str]]:
    """The steps of the game after this one, to the end of the next round: what a phone
    enters of a whole round with the network down, from wherever it is when the network goes."""
    steps = [(plan.number, each) for plan in sheet.plans for each in STEPS]
    at = steps.index((number, step))
    return steps[at + 1 : at + 1 + (3 if step == "bids" else 2)]


def offline_steps(
    game: AscenseurGame, sheet: rules.GameSheet, number: int, step: str
) -> list[tuple[str, str]]:
    """The pages drawn ahead for the steps after this one, each with the address its form
    is sent to (see static/scorekeeper.js: data-offline-next)."""
    return [
        (
            url_for(".ahead", game_id=game.id, number=later, step=kind),
            url_for(f".{kind}", game_id=game.id, number=later),
        )
        for later, kind in steps_after(sheet, number, step)
    ]


def render_play(
    game: AscenseurGame,
    form: RoundForm | None = None,
    status: int = 200,
    conflict: dict[str, Any] | None = None,
    ahead: tuple[int, str] | None = None,
    sheet: rules.GameSheet | None = None,
) -> tuple[str, int]:
    """The round page; or, ``ahead`` (a round's number and step), a step after the one being
    played as the phone will enter it with the network down (its bids unknown yet to the
    server, the standings as they stand now). ``sheet``: the game scored already."""
    sheet = sheet or game.sheet()
    if ahead is None:
        plan, pending = sheet.current, pending_round(game)
        kind = "tricks" if pending else "bids"
    else:
        plan, pending, kind = round_plan_or_404(sheet, ahead[0]), None, ahead[1]
    scorer = is_scorer(game.id, game.family)
    both_roles = drawing_for_both_roles()
    sees_forms = scorer or both_roles
    if form is None and plan is not None and sees_forms:
        data: dict[str, Any] = {"drawn_from": game.version}
        again = request.args.get("again", "").split("/")
        if len(again) == len(game.players) and all(re.fullmatch("[0-9]{1,3}", v) for v in again):
            prefix = "bid" if kind == "bids" else "tricks"
            data.update({f"{prefix}_{seat}": int(value) for seat, value in enumerate(again)})
            if kind == "bids" and request.args.get("trump") in set(Suit):
                data["trump"] = request.args["trump"]
        form = round_form(
            plan,
            game.names,
            bids=kind == "bids",
            tricks=kind == "tricks",
            trump=kind == "bids" and plan.trump_turned,
            formdata=None,
            data=data,
        )
    variant = sheet.variant
    context = page_context(
        game, url_for(".play", game_id=game.id), scorer=sees_forms, conflict=conflict
    )
    if ahead is not None:
        context.update(live_game=None, links=None, undo_form=None)  # drawn for a while ahead
    return render_template(
        "ascenseur/play.html",
        game=game,
        sheet=sheet,
        plan=plan,
        pending=pending,
        kind=kind,
        form=form,
        scorer=scorer,
        both_roles=both_roles,
        **context,
        ahead=ahead is not None,
        offline_next=[] if plan is None else offline_steps(game, sheet, plan.number, kind),
        house_rules=house_rule_texts(variant, rules.PRESETS[game.preset]),
        preset_name=PRESET_NAMES[game.preset],
        removed=[card_label(card) for card in rules.removed_cards(variant, len(game.players))],
        last_played=next((r for r in reversed(sheet.rounds) if r.is_played), None),
        keep_awake=plan is not None,
    ), status


@bp.get("/<game_id>")
def play(game_id: str) -> Response | str:
    """The round being played: who deals, how many cards, bids then tricks; the standings."""

    def draw() -> str:
        game = ascenseur_game(game_id)
        return render_play(game)[0]

    if request.args:  # numbers handed back by "take back": this page is drawn for them alone
        return draw()
    return kept_offline(kept_page(FAMILY, game_id, draw, for_both_roles=True))


@bp.get("/<game_id>/ahead/<int:number>/<any(bids, tricks):step>")
def ahead(game_id: str, number: int, step: str) -> Response:
    """A step after the one being played, drawn for the scorer's phone to keep: with the
    network down, the phone goes on to it once the step before is kept, and enters a whole
    round there (RULES.md §1: who deals and how many cards are known from the start). What it
    enters is sent, in order, once the network is back, and the server checks each step as it
    arrives."""
    game = ascenseur_game(game_id)
    if not is_scorer(game.id, game.family):
        abort(403)
    # Only the steps ahead of the one being played: a round played, or one further on, is
    # no page to keep (and its kept copy, answered so, is let go).
    sheet = game.sheet()
    now = sheet.current
    step_now = "tricks" if pending_round(game) else "bids"
    if now is not None and (number, step) == (now.number, step_now):
        # The phone's entry before it arrived, its answer lost: the step is the live page's.
        return redirect(url_for(".play", game_id=game.id), 303)
    if now is None or (number, step) not in steps_after(sheet, now.number, step_now):
        abort(404)
    return kept_offline(render_play(game, ahead=(number, step), sheet=sheet)[0])


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


def round_plan_or_404(sheet: rules.GameSheet, number: int) -> rules.RoundPlan:
    if not 1 <= number <= len(sheet.plans):
        abort(404)
    return sheet.plans[number - 1]


ROUND_WORDS = EntryWords(
    label=_l("Round %(number)d"),
    not_now=_l("That round is not the one being played; nothing was changed."),
    corrected=_l("Round %(number)d corrected; the scores are updated."),
    unchanged=_l("Round %(number)d is unchanged."),
    changed_meanwhile=_l(
        "Round %(number)d was changed on another phone while you corrected it: it now reads "
        "%(now)s. Your numbers are kept below; save again to put them instead."
    ),
)


class Rounds(EntryKind[AscenseurGame, RoundRecord]):
    """A round as its correction page has it: every bid, every trick count, the trump suit;
    checked by the engine, and logged value by value. Bids and tricks are entered in two
    steps, each a kind of its own (below)."""

    game = AscenseurGame
    endpoint = "round"
    listed = "rounds"
    words = ROUND_WORDS
    corrected = CorrectionKind.BID
    draw = staticmethod(render_play)

    def plan(self, game: AscenseurGame, key: int) -> rules.RoundPlan:
        return round_plan_or_404(game.sheet(), key)

    def form(self, game: AscenseurGame, key: int, **kwargs: Any) -> RoundForm:
        plan = self.plan(game, key)
        record = self.find(game, key)
        return round_form(
            plan,
            game.names,
            bids=True,
            tricks=record is not None and record.tricks is not None,
            trump=plan.trump_turned,
            **kwargs,
        )

    def form_data(self, game: AscenseurGame, entry: RoundRecord) -> dict[str, Any]:
        data: dict[str, Any] = {"trump": entry.trump or ""}
        for seat, bid in enumerate(entry.bids):
            data[f"bid_{seat}"] = bid
            if entry.tricks is not None:
                data[f"tricks_{seat}"] = entry.tricks[seat]
        return data

    def valid(self, game: AscenseurGame, key: int, form: Any) -> bool:
        return bool(form.validate())

    def check(self, game: AscenseurGame, key: int, form: Any) -> bool:
        """The form's numbers, then the engine's word on each player's."""
        if not self.valid(game, key, form):
            return False
        plan, seats = self.plan(game, key), len(game.players)
        bad = False
        for kind, errors in (("bid", rules.bid_errors), ("tricks", rules.trick_errors)):
            if f"{kind}_0" in form:
                values = seat_values(form, kind, seats)
                bad |= attach_errors(form, kind, errors(plan, game.names, values))
        return not bad

    def put(self, game: AscenseurGame, entry: RoundRecord, form: Any) -> None:
        seats = len(game.players)
        if "bid_0" in form:
            entry.bids = seat_values(form, "bid", seats)
            trump = form.trump.data if "trump" in form else None
            entry.trump = trump or None
        if "tricks_0" in form:
            entry.tricks = seat_values(form, "tricks", seats)

    def code(self, entry: RoundRecord) -> str:
        return entry.signature

    def text(self, game: AscenseurGame, entry: RoundRecord) -> str:
        return round_text(entry, game.names)

    def logged(
        self,
        game: AscenseurGame,
        key: int,
        old: str,
        before: Mapping[str, Any],
        entry: RoundRecord,
    ) -> list[Correction]:
        """A line for each value that changed: a player's bid or tricks, the trump suit."""
        lines = []
        for kind, was, now in (
            (CorrectionKind.BID, before["bids"], entry.bids),
            (CorrectionKind.TRICKS, before["tricks"] or [], entry.tricks or []),
        ):
            for seat, (old_value, new_value) in enumerate(zip(was, now, strict=False)):
                if old_value != new_value:
                    line = self.log_line(key, kind, str(old_value), str(new_value))
                    line.seat = seat
                    lines.append(line)
        if before["trump"] != entry.trump:
            lines.append(self.log_line(key, CorrectionKind.TRUMP, before["trump"], entry.trump))
        return lines

    def render_correction(
        self, game: AscenseurGame, key: int, entry: RoundRecord, form: Any, status: int = 200
    ) -> tuple[str, int]:
        return render_template(
            "ascenseur/edit.html",
            game=game,
            plan=self.plan(game, key),
            form=form,
            has_tricks=entry.tricks is not None,
        ), status


class Bids(Rounds):
    """A round's first step: its bids (and the trump suit, where one is turned)."""

    endpoint = "bids"

    def refuse(self, game: AscenseurGame, key: int) -> Outcome | None:
        sheet = game.sheet()
        if sheet.current != round_plan_or_404(sheet, key) or pending_round(game) is not None:
            return self.not_now(game, key)
        return None

    def form(self, game: AscenseurGame, key: int, **kwargs: Any) -> RoundForm:
        plan = self.plan(game, key)
        return round_form(
            plan, game.names, bids=True, tricks=False, trump=plan.trump_turned, **kwargs
        )

    def new(self, game: AscenseurGame, key: int) -> RoundRecord:
        return RoundRecord(number=key)

    def code(self, entry: RoundRecord) -> str:
        """The bids, and the trump suit noted with them: the same bids under another trump are
        another entry."""
        bids = "/".join(map(str, entry.bids))
        return f"{bids} {entry.trump}" if entry.trump else bids

    def shown(self, game: AscenseurGame, key: int, entry: RoundRecord) -> list[tuple[str, str]]:
        bids = [(name, str(value)) for name, value in zip(game.names, entry.bids, strict=True)]
        trump = suit_symbol(entry.trump)
        return [*bids, (_("Trump"), trump)] if trump else bids

    def corrects(self) -> EntryKind[AscenseurGame, Any]:
        return ROUNDS

    def replacement(
        self, game: AscenseurGame, key: int, theirs: RoundRecord, mine: RoundRecord
    ) -> dict[str, str]:
        """The round as stored, with this phone's bids and trump suit."""
        both = RoundRecord(bids=mine.bids, tricks=theirs.tricks, trump=mine.trump)
        return {name: str(value) for name, value in ROUNDS.form_data(game, both).items()}


class Tricks(Bids):
    """A round's second step: the tricks each player took."""

    endpoint = "tricks"

    def find(self, game: AscenseurGame, key: int) -> RoundRecord | None:
        record = super().find(game, key)
        return record if record is not None and record.tricks is not None else None

    def refuse(self, game: AscenseurGame, key: int) -> Outcome | None:
        round_plan_or_404(game.sheet(), key)
        pending = pending_round(game)
        if pending is None or pending.number != key:
            return self.not_now(game, key)
        return None

    def form(self, game: AscenseurGame, key: int, **kwargs: Any) -> RoundForm:
        plan = self.plan(game, key)
        return round_form(plan, game.names, bids=False, tricks=True, trump=False, **kwargs)

    def new(self, game: AscenseurGame, key: int) -> RoundRecord:
        stored = Rounds.find(self, game, key)
        assert stored is not None
        return RoundRecord(number=key, bids=list(stored.bids), trump=stored.trump)

    def code(self, entry: RoundRecord) -> str:
        return "/".join(map(str, entry.tricks or []))

    def shown(self, game: AscenseurGame, key: int, entry: RoundRecord) -> list[tuple[str, str]]:
        tricks = entry.tricks or []
        return [(name, str(value)) for name, value in zip(game.names, tricks, strict=True)]

    def add(self, game: AscenseurGame, entry: RoundRecord) -> None:
        stored = Rounds.find(self, game, entry.number)
        assert stored is not None
        stored.tricks = entry.tricks

    def remove(self, game: AscenseurGame, entry: RoundRecord) -> None:
        stored = Rounds.find(self, game, entry.number)
        assert stored is not None
        stored.tricks = None

    def replacement(
        self, game: AscenseurGame, key: int, theirs: RoundRecord, mine: RoundRecord
    ) -> dict[str, str]:
        both = RoundRecord(bids=theirs.bids, tricks=mine.tricks, trump=theirs.trump)
        return {name: str(value) for name, value in ROUNDS.form_data(game, both).items()}


ROUNDS = Rounds()
add_entry_routes(bp, Bids(), "/rounds/<int:number>/bids", corrected=False)
add_entry_routes(bp, Tricks(), "/rounds/<int:number>/tricks", corrected=False)
add_entry_routes(bp, ROUNDS, "/rounds/<int:number>", entered=False)
