"""What every bridge page calls seats, strains, contracts, results and vulnerability, and the
engine's errors, in the reader's language: shared by the bridge families (at home, the club,
a teams match)."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from scorekeeper.games.helpers import as_reader_writes
from scorekeeper.rules.bridge import BridgeRule, Seat, Side, Strain, Vulnerability
from scorekeeper.rules.common import RuleError
from scorekeeper.rules.field import FieldRule

SEAT_NAMES = {
    Seat.NORTH: _l("North"),
    Seat.EAST: _l("East"),
    Seat.SOUTH: _l("South"),
    Seat.WEST: _l("West"),
}
SEAT_LETTERS = {Seat.NORTH: _l("N"), Seat.EAST: _l("E"), Seat.SOUTH: _l("S"), Seat.WEST: _l("W")}


def strain_label(strain: Strain | str) -> str:
    """♣ ♦ ♥ ♠, and NT (SA in French)."""
    strain = Strain(strain)
    return _("NT") if strain is Strain.NOTRUMP else strain.symbol


def contract_label(level: int, strain: Strain | str, doubled: int) -> str:
    return f"{level}{strain_label(strain)}{'X' * doubled}"


def result_label(result: int) -> str:
    """The result as players say it: made, +1, −2."""
    if result == 0:
        return _("made")
    return f"+{result}" if result > 0 else f"−{-result}"


def vulnerability_label(vulnerability: Vulnerability) -> str:
    return {
        Vulnerability.NONE: _("Nobody vulnerable"),
        Vulnerability.NS: _("North-South vulnerable"),
        Vulnerability.EW: _("East-West vulnerable"),
        Vulnerability.ALL: _("Both sides vulnerable"),
    }[vulnerability]


VULNERABLE_SIDES = {
    Vulnerability.NONE: "–",
    Vulnerability.NS: _l("N-S"),
    Vulnerability.EW: _l("E-W"),
    Vulnerability.ALL: _l("all"),
}
"""Who is vulnerable, in a few letters for a table's cell."""


def side_label(side: Side) -> str:
    return _("North-South") if side is Side.NS else _("East-West")


RULE_MESSAGES = {
    BridgeRule.STRAIN: _l("The strain must be one of ♣ ♦ ♥ ♠ NT, not %(value)s."),
    BridgeRule.DOUBLED: _l("A contract is doubled or redoubled at most, not %(value)s."),
    BridgeRule.CONTRACT_TEXT: _l("A contract is written like 4S or 3NTX, not %(value)s."),
    BridgeRule.LEVEL: _l("The level must be from 1 to 7, not %(value)s."),
    BridgeRule.TRICKS: _l("The tricks taken must be from 0 to 13, not %(value)s."),
    BridgeRule.VULNERABLE: _l("Vulnerable must be yes or no, not %(value)s."),
    BridgeRule.BOARD_NUMBER: _l("Boards are numbered from 1, not %(value)s."),
    BridgeRule.SEATING_NUMBER: _l("Tables, rounds and pairs are numbered from 1, not %(value)s."),
    BridgeRule.DECLARER: _l("The declarer sits North, East, South or West, not %(value)s."),
    BridgeRule.SCORE_DIFFERENCE: _l("A score difference is a whole number, not %(value)s."),
    BridgeRule.IMP_MARGIN: _l("An IMP margin is a whole number, not %(value)s."),
    BridgeRule.MATCH_BOARDS: _l("A match has 1 board or more, not %(value)s."),
    BridgeRule.TEAM_MATCH_EMPTY: _l("A team match needs at least one board."),
    BridgeRule.DATUM_EMPTY: _l("A board needs at least one result to have a datum."),
    BridgeRule.SCORE: _l("A score is a whole number, not %(value)s."),
    BridgeRule.NEUBERG_COUNTS: _l(
        "Neuberg scales 1 to %(expected)s results obtained to the %(expected)s expected, "
        "not %(value)s."
    ),
    BridgeRule.MATCHPOINTS_TYPE: _l("Matchpoints are a number, not %(value)s."),
    BridgeRule.MATCHPOINTS_RANGE: _l(
        "Among %(obtained)s results a score earns 0 to %(most)s matchpoints, not %(value)s."
    ),
    BridgeRule.ARTIFICIAL: _l("An artificial score is A+, A= or A-, not %(value)s."),
    BridgeRule.REAL_AND_ARTIFICIAL: _l("A board has a real score or artificial scores, not both."),
    BridgeRule.ARTIFICIAL_ONE_SIDE: _l("An artificial result gives a score to both sides."),
    BridgeRule.RESULT_TYPE: _l("A board's result is a score, not %(value)s."),
    BridgeRule.EXPECTED_RESULTS: _l(
        "A board with %(results)s results expects %(least)s or more, not %(value)s."
    ),
    BridgeRule.TOP: _l("A session's top is 1 matchpoint or more, not %(value)s."),
    BridgeRule.PAIR_MISSING: _l("Pair %(pair)s has no result in this session."),
    BridgeRule.PAIR_TWICE: _l("Pair %(pair)s has two results on board %(board)s."),
    BridgeRule.DECLARER_SIDE: _l("The declaring side is North-South or East-West."),
    BridgeRule.HONOURS_SIDE: _l("The side holding the honours is North-South or East-West."),
    BridgeRule.HONOURS_POINTS: _l("Honours are worth 100 or 150, not %(value)s."),
    BridgeRule.PASSED_OUT: _l(
        "A passed-out deal has no declarer, contract, tricks or honours; "
        "a played deal needs both a declarer and a contract."
    ),
    BridgeRule.CONTRACT_TYPE: _l("The contract is not one bridge knows."),
    BridgeRule.HONOURS_TYPE: _l("The honours are not ones bridge knows."),
    BridgeRule.NOTRUMP_HONOURS: _l("At no trump only the four aces in one hand count: 150."),
    BridgeRule.RUBBER_OVER: _l(
        "The rubber ended on deal %(ended)s; deal %(value)s belongs to a new rubber."
    ),
    BridgeRule.DEAL_NUMBER: _l("Deals are numbered from 1, not %(value)s."),
    BridgeRule.ROUNDS_ORDER: _l(
        "The deals come rubber after rubber: rubber %(value)s comes too late."
    ),
    BridgeRule.ROUND_SEATS: _l("Rubber %(value)s has deals but nobody sitting at the table."),
    BridgeRule.ROUND_UNFINISHED: _l(
        "Rubber %(value)s would not be over any more, and the next one has begun: "
        "take back the next one's deals first."
    ),
    BridgeRule.WHEEL_OVER: _l("Chicago wheel %(value)s has four deals already."),
    FieldRule.SECTION_TWICE: _l("Two sections of the field are named %(section)s."),
}


def rule_message(error: RuleError) -> str:
    """The engine's error, in the reader's language."""
    template = RULE_MESSAGES.get(error.rule)
    if template is None:
        return str(error)
    values = {name: as_reader_writes(value) for name, value in error.values.items()}
    return str(template) % values if values else str(template)


def dealer_label(seat: Seat, name: str) -> str:
    return _("%(seat)s (%(name)s)", seat=SEAT_NAMES[seat], name=name)
