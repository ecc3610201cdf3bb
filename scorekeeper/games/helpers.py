"""Template helpers every family's pages may use."""

from __future__ import annotations

from collections.abc import Iterable

from flask_babel import format_decimal
from flask_babel import gettext as _


def signed(points: int) -> str:
    """Points with their sign, a true minus sign for losses: +14, −4, 0."""
    if points > 0:
        return f"+{points}"
    return f"−{-points}" if points < 0 else "0"


def semicolon_list(items: Iterable[str]) -> str:
    """Items one after another, with the semicolon as the reader's language writes it: "a; b"
    in English, "a ; b" in French (a no-break space before it)."""
    text = ""
    for item in items:
        text = _("%(before)s; %(after)s", before=text, after=item) if text else item
    return text


def as_reader_writes(value: object) -> str:
    """A value a message names, as the reader writes it: a number with the reader's decimal
    mark and grouping (12.5 and 1,000,000 in English, 12,5 and 1 000 000 in French), anything
    else as it is."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(format_decimal(value))
    return str(value)
