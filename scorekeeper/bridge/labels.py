"""What the bridge-at-home pages call the pad's figures and a deal, in the reader's language;
the words every bridge page shares are in scorekeeper.contract.labels."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from scorekeeper.bridge.models import DealRecord
from scorekeeper.contract.labels import (
    RULE_MESSAGES,
    SEAT_LETTERS,
    SEAT_NAMES,
    VULNERABLE_SIDES,
    contract_label,
    dealer_label,
    result_label,
    rule_message,
    side_label,
    strain_label,
    vulnerability_label,
)
from scorekeeper.rules import bridge
from scorekeeper.rules.bridge import PadItem, Rounding, Side

__all__ = [
    "PAD_ITEMS",
    "ROUNDING",
    "RULE_MESSAGES",
    "SEAT_LETTERS",
    "SEAT_NAMES",
    "VULNERABLE_SIDES",
    "contract_label",
    "deal_text",
    "dealer_label",
    "result_label",
    "rule_message",
    "side_label",
    "strain_label",
    "vulnerability_label",
]

PAD_ITEMS = {
    PadItem.OVERTRICKS: _l("overtricks"),
    PadItem.INSULT: _l("insult"),
    PadItem.SLAM: _l("slam"),
    PadItem.UNDERTRICKS: _l("undertricks"),
    PadItem.HONOURS: _l("honours"),
    PadItem.RUBBER: _l("rubber"),
    PadItem.UNFINISHED_GAME: _l("game, unfinished rubber"),
    PadItem.UNFINISHED_PART_SCORE: _l("part-score, unfinished rubber"),
}

ROUNDING = {
    Rounding.FIFTY_UP: _l("In hundreds: each player's net rounded to the nearest hundred, 50 up."),
    Rounding.FIFTY_DOWN: _l(
        "In hundreds: each player's net rounded to the nearest hundred, 50 down."
    ),
}
"""The settlement's rule, said beside the settled figures."""


def deal_text(record: DealRecord) -> str:
    """A deal in a line: "4♠X by S, −1", "3NT by N, made, honours 150 N-S", or "passed out"."""
    if record.level is None or record.strain is None or record.declarer is None:
        return _("passed out")
    result = (record.tricks or 0) - 6 - record.level
    text = _(
        "%(contract)s by %(seat)s, %(result)s",
        contract=contract_label(record.level, record.strain, record.doubled),
        seat=SEAT_LETTERS[bridge.Seat(record.declarer)],
        result=result_label(result),
    )
    if record.honours and record.honours_side:
        honours = _(
            "honours %(points)d %(side)s",
            points=record.honours,
            side=side_label(Side(record.honours_side)),
        )
        text = f"{text}, {honours}"
    return text
