"""Contract bridge as every bridge page shows it (at home, at the club, in a teams match): the
words for seats, strains, contracts, results and vulnerability, the engine's errors, and the deal
form. Shared by the bridge families; no family of its own."""

from __future__ import annotations

from typing import Any

from scorekeeper.contract.labels import (
    SEAT_LETTERS,
    SEAT_NAMES,
    VULNERABLE_SIDES,
    contract_label,
    result_label,
    side_label,
    strain_label,
    vulnerability_label,
)
from scorekeeper.rules.bridge import Seat, Side


def template_helpers() -> dict[str, Any]:
    """What the deal form (templates/contract/_deal_form.html) and the bridge pages call."""
    return {
        "seats": tuple(Seat),
        "sides": tuple(Side),
        "seat_names": SEAT_NAMES,
        "seat_letters": SEAT_LETTERS,
        "strain_label": strain_label,
        "contract_label": contract_label,
        "result_label": result_label,
        "side_label": side_label,
        "vulnerability_label": vulnerability_label,
        "vulnerable_sides": VULNERABLE_SIDES,
    }
