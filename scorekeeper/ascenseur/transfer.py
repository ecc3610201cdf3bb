"""A whole game as a JSON document, and back: every entry, checked by the engine on the way in."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from flask_babel import gettext as _

from scorekeeper.ascenseur.forms import MAX_NAME
from scorekeeper.ascenseur.labels import error_message
from scorekeeper.models import VALUES_LENGTH, Correction, Game, Player, RoundRecord, utcnow
from scorekeeper.rules import ascenseur as rules
from scorekeeper.rules.cards import Suit

FORMAT = "scorekeeper-game"
VERSION = 1
CORRECTION_FIELDS = {"bid", "tricks", "trump", "undo-tricks", "undo-bids"}


class TransferError(ValueError):
    """A file that cannot become a game; the message says why, for the page."""


def game_to_json(game: Game) -> dict[str, Any]:
    """The game as stored: players, preset, house rules, every round's entries, the log."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "family": "ascenseur",
        "preset": game.preset,
        "house_rules": game.house_rules,
        "players": list(game.names),
        "first_dealer": game.first_dealer,
        "created_at": game.created_at.isoformat(timespec="seconds"),
        "rounds": [
            {"number": r.number, "bids": r.bids, "tricks": r.tricks, "trump": r.trump}
            for r in game.rounds
        ],
        "corrections": [
            {
                "round": c.round_number,
                "at": c.made_at.isoformat(timespec="seconds"),
                "field": c.field,
                "seat": c.seat,
                "old": c.old,
                "new": c.new,
            }
            for c in game.corrections
        ],
    }


def _whole_numbers(value: Any) -> bool:
    return isinstance(value, list) and all(type(item) is int for item in value)


def _text(value: Any, longest: int) -> bool:
    return value is None or (isinstance(value, str) and len(value) <= longest)


def _when(value: Any) -> datetime:
    try:
        return datetime.fromisoformat(value).replace(tzinfo=None)
    except (TypeError, ValueError):
        raise TransferError(_("A date in the file is not a date: %(value)s", value=value)) from None


def game_from_json(raw: bytes) -> Game:
    """A new game from an exported file, or :class:`TransferError` saying what is wrong."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise TransferError(
            _("This file is not a Scorekeeper game: it is not JSON, or it was cut short.")
        ) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TransferError(_("This file is not a Scorekeeper game."))
    if data.get("version") != VERSION:
        raise TransferError(
            _(
                "This game file is of version %(version)s; "
                "this Scorekeeper reads version %(ours)d.",
                version=data.get("version"),
                ours=VERSION,
            )
        )
    preset = data.get("preset")
    if data.get("family") != "ascenseur" or preset not in rules.PRESETS:
        raise TransferError(
            _("This file is of a game Scorekeeper does not know: %(name)s", name=preset)
        )
    house_rules = data.get("house_rules")
    try:
        if not isinstance(house_rules, dict):
            raise ValueError(house_rules)
        variant = rules.with_house_rules(rules.PRESETS[preset], house_rules)
    except ValueError as error:
        raise TransferError(
            _("The file's house rules are not valid: %(error)s", error=error)
        ) from None
    names = data.get("players")
    if not isinstance(names, list) or not all(
        isinstance(name, str) and 0 < len(name.strip()) <= MAX_NAME and name.isprintable()
        for name in names
    ):
        raise TransferError(
            _("The file's players must be names of 1 to %(most)d characters.", most=MAX_NAME)
        )
    names = [name.strip() for name in names]
    first_dealer = data.get("first_dealer")
    if type(first_dealer) is not int:
        raise TransferError(_("The file does not say who dealt first."))
    records = data.get("rounds")
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        raise TransferError(_("The file's rounds are not a list of rounds."))
    entries = []
    for number, record in enumerate(records, start=1):
        tricks, trump = record.get("tricks"), record.get("trump")
        if (
            record.get("number") != number
            or not _whole_numbers(record.get("bids"))
            or not (tricks is None or _whole_numbers(tricks))
            or trump not in (None, *(suit.value for suit in Suit))
        ):
            raise TransferError(_("Round %(number)d of the file is not readable.", number=number))
        entries.append(
            rules.RoundEntry(
                tuple(record["bids"]),
                None if tricks is None else tuple(tricks),
                None if trump is None else Suit(trump),
            )
        )
    try:
        rules.score_game(variant, names, first_dealer, entries)
    except rules.RoundError as error:
        raise TransferError(
            _(
                "Round %(number)d: %(problem)s",
                number=error.round_number,
                problem=error_message(error),
            )
        ) from None
    except ValueError as error:
        raise TransferError(_("The file's game cannot be played: %(error)s", error=error)) from None
    corrections = []
    log = data.get("corrections") or []
    if not isinstance(log, list):
        raise TransferError(_("The file's corrections log is not readable."))
    for change in log:
        if not (
            isinstance(change, dict)
            and type(change.get("round")) is int
            and 1 <= change["round"] <= len(entries) + 1
            and change.get("field") in CORRECTION_FIELDS
            and (change.get("seat") is None or change.get("seat") in range(len(names)))
            and _text(change.get("old"), VALUES_LENGTH)
            and _text(change.get("new"), VALUES_LENGTH)
        ):
            raise TransferError(_("The file's corrections log is not readable."))
        corrections.append(
            Correction(
                round_number=change["round"],
                made_at=_when(change.get("at")),
                field=change["field"],
                seat=change.get("seat"),
                old=change.get("old"),
                new=change.get("new"),
            )
        )
    created = _when(data["created_at"]) if "created_at" in data else utcnow()
    return Game(
        preset=preset,
        house_rules=rules.house_rules(variant, rules.PRESETS[preset]),
        first_dealer=first_dealer,
        created_at=created,
        players=[Player(seat=seat, name=name) for seat, name in enumerate(names)],
        rounds=RoundRecord.from_entries(entries),
        corrections=corrections,
    )
