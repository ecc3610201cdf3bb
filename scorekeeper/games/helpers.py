"""Template helpers every family's pages may use."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from flask_babel import format_decimal
from flask_babel import gettext as _

MINUS = "−"
"""The minus sign (U+2212) every figure below zero is written with, in every language: Babel
writes the hyphen-minus its locale data gives (French's and English's alike)."""


def signed(points: int) -> str:
    """Points with their sign, a true minus sign for losses: +14, −4, 0."""
    if points > 0:
        return f"+{points}"
    return f"{MINUS}{-points}" if points < 0 else "0"


def figure(value: float | Decimal, pattern: str | None = None) -> str:
    """A figure as the reader writes it, with their decimal mark and grouping (−7.5 and
    1,000 in English, −7,5 and 1 000 in French), in Babel's ``pattern`` if one is given, and
    the minus sign below zero."""
    return str(format_decimal(value, pattern)).replace("-", MINUS)


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
        return figure(value)
    return str(value)
