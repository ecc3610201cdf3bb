"""Game files: the envelope every exported game shares, and reading a file through a declared
schema (pydantic), with a message that names the field at fault in the reader's language."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Annotated, Any, Literal, TypeVar

from flask_babel import gettext as _
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
)

from scorekeeper.games.models import VALUES_LENGTH, Correction, Game
from scorekeeper.games.registry import FAMILIES
from scorekeeper.rules.text import clean_text, text_encoding

FORMAT = "scorekeeper-game"
VERSION = 1
EARLIEST = datetime(2000, 1, 1)
LATEST = datetime(2100, 1, 1)
"""Dates a game file may hold: any real game's, and none that a time zone cannot shift."""


class TransferError(ValueError):
    """A file that cannot become a game; the message says why, for the page."""


class Schema(BaseModel):
    """A part of a game file: exactly these fields, each of exactly its type (no "1" for 1)."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


def _cleaned(value: Any) -> Any:
    return clean_text(value) if isinstance(value, str) else value


def _in_range(when: datetime) -> datetime:
    if when.tzinfo is not None:
        try:
            when = when.astimezone(UTC).replace(tzinfo=None)
        except OverflowError:  # year 1 or 9999, shifted out of the calendar
            raise ValueError("date out of range") from None
    if not EARLIEST <= when < LATEST:
        raise ValueError("date out of range")
    return when


def Text(longest: int, *, shortest: int = 0) -> Any:
    """Text of at most ``longest`` characters, cleaned as every file's text is (a tab or a
    line break made a space, other control characters such as a NUL dropped: see
    :func:`scorekeeper.rules.text.clean_text`), spaces around it removed."""
    return Annotated[
        str,
        StringConstraints(strip_whitespace=True, min_length=shortest, max_length=longest),
        BeforeValidator(_cleaned),  # the last given runs first: cleaned, then measured
    ]


When = Annotated[datetime, AfterValidator(_in_range)]
"""A moment of a game, stored as UTC without a zone."""


T = TypeVar("T", bound=Schema)


class CorrectionFile(Schema):
    """A line of a game's corrections log, as the families other than Ascenseur export it; a
    family narrows ``kind`` to its own kinds."""

    number: Annotated[int, Field(ge=1, le=100_000)]
    at: When
    kind: str
    seat: Annotated[int, Field(ge=0, le=1_000)] | None = None
    """The seat or the table the line is about, where the family names one."""
    old: Text(VALUES_LENGTH) | None = None  # type: ignore[valid-type]
    new: Text(VALUES_LENGTH) | None = None  # type: ignore[valid-type]


class GameFile(Schema):
    """What every game file holds; a family's schema narrows ``family`` and ``corrections``
    and adds its own fields."""

    format: Literal["scorekeeper-game"]
    version: Literal[1]
    family: str
    created_at: When | None = None
    corrections: Annotated[tuple[CorrectionFile, ...], Field(max_length=10_000)] = ()


def game_file(game: Game, **own: Any) -> dict[str, Any]:
    """A game as its file: the envelope, the family's ``own`` fields, when it was started and
    its corrections log."""
    return {
        **envelope(game.family),
        **own,
        "created_at": game.created_at.isoformat(timespec="seconds"),
        "corrections": corrections_to_json(game),
    }


def kept_from(document: GameFile) -> dict[str, Any]:
    """What a game read from a file keeps of what every file holds: when it was started, if
    the file says, and its log."""
    started = {"created_at": document.created_at} if document.created_at else {}
    return {**started, "corrections": corrections_from_file(document.corrections)}


def envelope(family: str) -> dict[str, Any]:
    """What every game file starts with."""
    return {"format": FORMAT, "version": VERSION, "family": family}


def corrections_to_json(game: Game) -> list[dict[str, Any]]:
    return [
        {
            "number": change.number,
            "at": change.made_at.isoformat(timespec="seconds"),
            "kind": change.kind,
            **({"seat": change.seat} if change.seat is not None else {}),
            "old": change.old,
            "new": change.new,
        }
        for change in game.corrections
    ]


def corrections_from_file(changes: Iterable[CorrectionFile]) -> list[Correction]:
    return [
        Correction(number=c.number, made_at=c.at, kind=c.kind, seat=c.seat, old=c.old, new=c.new)
        for c in changes
    ]


class Envelope(BaseModel):
    """What every game file starts with, read before its family's schema."""

    model_config = ConfigDict(extra="allow")
    format: Any = None
    version: Any = None
    family: Any = None


def json_text(raw: bytes) -> bytes:
    """A JSON file's bytes in UTF-8, without the byte order mark some editors put first (RFC
    8259 lets a reader ignore it); a file an editor saved in UTF-16 is read too."""
    encoding = text_encoding(raw)
    if encoding is None:
        return raw
    try:
        return raw.decode(encoding).removeprefix("\ufeff").encode()
    except UnicodeError:  # not UTF-16 after all: the JSON reader says what it is not
        return raw


def read_envelope(raw: bytes) -> Envelope:
    """The file's envelope, or :class:`TransferError` if it is not a game file of ours."""
    try:
        envelope = Envelope.model_validate_json(json_text(raw))
    except ValidationError as error:
        raise TransferError(file_problem(error)) from None
    if envelope.format != FORMAT:
        raise TransferError(_("This file is not a Scorekeeper game."))
    if envelope.version != VERSION:
        raise TransferError(
            _(
                "This game file is of version %(version)s; "
                "this Scorekeeper reads version %(ours)d.",
                version=str(envelope.version)[:20],
                ours=VERSION,
            )
        )
    return envelope


def read_game_file(raw: bytes) -> Game:
    """A new game from a file of any family the registry holds."""
    envelope = read_envelope(raw)
    family = FAMILIES.get(envelope.family) if isinstance(envelope.family, str) else None
    if family is None:
        raise TransferError(
            _(
                "This file is of a game Scorekeeper does not know: %(name)s",
                name=str(envelope.family)[:40],
            )
        )
    return family.read_file(raw)


def read_schema(schema: type[T], raw: bytes) -> T:
    """The file read through ``schema``, or :class:`TransferError` naming the field at fault."""
    try:
        return schema.model_validate_json(json_text(raw))
    except ValidationError as error:
        raise TransferError(file_problem(error)) from None


def file_problem(error: ValidationError) -> str:
    """The first problem of a file, in words: where in the file, and what is expected."""
    problem = error.errors(include_url=False)[0]
    kind, context = problem["type"], problem.get("ctx") or {}
    if kind == "json_invalid":
        return _("This file is not a Scorekeeper game: it is not JSON, or it was cut short.")
    if kind == "model_type" and not problem["loc"]:
        return _("This file is not a Scorekeeper game.")
    where = " › ".join(str(part + 1 if isinstance(part, int) else part) for part in problem["loc"])
    return _("In the file, %(field)s: %(problem)s", field=where, problem=expected(kind, context))


def expected(kind: str, context: dict[str, Any]) -> str:
    """What a value of the file should have been, for a pydantic error type."""
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return _("a whole number is expected.")
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        bound = next(iter(context.values()), "")
        if kind.startswith("greater"):
            return _("the number must be at least %(bound)s.", bound=bound)
        return _("the number must be at most %(bound)s.", bound=bound)
    if kind in ("string_type", "str_type"):
        return _("text is expected.")
    if kind == "string_too_short":
        return _("this must not be empty.")
    if kind == "string_too_long":
        return _("at most %(most)s characters.", most=context.get("max_length", ""))
    if kind in ("list_type", "tuple_type"):
        return _("a list is expected.")
    if kind == "too_long":
        return _("the list is too long.")
    if kind == "too_short":
        return _("the list is too short.")
    if kind in ("bool_type", "bool_parsing"):
        return _("true or false is expected.")
    if kind in ("literal_error", "enum"):
        return _("one of %(choices)s is expected.", choices=context.get("expected", ""))
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        return _("a group of named values is expected.")
    if kind == "missing":
        return _("this is missing.")
    if kind == "extra_forbidden":
        return _("Scorekeeper does not know this field.")
    if kind.startswith("date_"):
        return _("a date (2026-11-23) is expected.")
    if kind.startswith(("datetime", "date")):
        return _("a date and time (2026-11-23T20:30:00) is expected.")
    if kind == "value_error" and "date out of range" in str(context.get("error", "")):
        return _("the date must be between 2000 and 2099.")
    return _("this value cannot be read.")
