"""A club member's number at their bridge federation, checked for its form where the
federation's is known, and written as the federation writes it.

- **FFB** (Fédération française de bridge), the licence: up to 8 digits, leading zeros not
  counting, the last a check digit: the digits in odd places from the right (the check digit
  the first) plus twice those in even places make a multiple of 10.
- **ACBL**, the player number: 7 characters, digits, where a Life Master's first digit is a
  letter, J for 1 to R for 9.
- **EBU** and any other federation: letters, digits and hyphens, as the federation gives it.

>>> federation_number(Federation.FFB, " 0490 714 ")
'490714'
>>> federation_number(Federation.ACBL, "k123456")
'K123456'
>>> try:
...     federation_number(Federation.FFB, "490715")
... except RuleError as error:
...     print(error)
490715 is not an FFB licence number: its last digit does not check.
"""

from __future__ import annotations

import re
from enum import StrEnum

from scorekeeper.rules.common import Rule, RuleError

__all__ = ["Federation", "MemberRule", "federation_number", "ffb_check_digit"]


class Federation(StrEnum):
    """A bridge federation whose player numbers a club writes beside its members' names."""

    FFB = "FFB"
    EBU = "EBU"
    ACBL = "ACBL"
    OTHER = "other"


class MemberRule(Rule):
    """What a federation number typed for a member can break."""

    FFB_DIGITS = "ffb-digits"
    FFB_CHECK = "ffb-check"
    ACBL_FORM = "acbl-form"
    NUMBER_FORM = "number-form"

    @property
    def english(self) -> str:
        return _ENGLISH[self]


_ENGLISH = {
    MemberRule.FFB_DIGITS: "An FFB licence number is 1 to 8 digits, not {value!r}.",
    MemberRule.FFB_CHECK: "{value} is not an FFB licence number: its last digit does not check.",
    MemberRule.ACBL_FORM: "An ACBL player number is 7 characters, digits, the first perhaps a "
    "letter from J to R, not {value!r}.",
    MemberRule.NUMBER_FORM: "A federation number is up to 20 letters, digits and hyphens, "
    "not {value!r}.",
}

MAX_NUMBER = 20
_ACBL = re.compile(r"[0-9J-R][0-9]{6}")
_OTHER = re.compile(r"[0-9A-Z][0-9A-Z-]*")


def ffb_check_digit(body: str) -> int:
    """The check digit that ends an FFB licence number whose other digits are ``body``.

    >>> ffb_check_digit("49071"), ffb_check_digit("209411")
    (4, 8)
    """
    total = sum(
        int(digit) * (2 if place % 2 == 0 else 1) for place, digit in enumerate(reversed(body))
    )
    return -total % 10


def federation_number(federation: Federation, typed: str) -> str:
    """The number typed for a member of ``federation``, written as the federation writes it
    (spaces left out; an FFB licence without its leading zeros; letters in capitals); a
    number not of the federation's form raises :class:`RuleError`."""
    number = "".join(typed.split()).upper()
    if federation is Federation.FFB:
        significant = number.lstrip("0")
        if not (number.isascii() and number.isdigit() and 0 < len(significant) <= 8):
            raise RuleError(MemberRule.FFB_DIGITS, value=typed.strip())
        number = significant
        if ffb_check_digit(number[:-1]) != int(number[-1]):
            raise RuleError(MemberRule.FFB_CHECK, value=number)
        return number
    if federation is Federation.ACBL:
        if not _ACBL.fullmatch(number):
            raise RuleError(MemberRule.ACBL_FORM, value=typed.strip())
        return number
    if len(number) > MAX_NUMBER or not _OTHER.fullmatch(number):
        raise RuleError(MemberRule.NUMBER_FORM, value=typed.strip())
    return number
