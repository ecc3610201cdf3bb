"""A club's duplicate session as the table core knows it: its games, how one reads in the list
of games, its game file, how its last result is taken back, its log's lines; and the helpers
its own pages use (registered for its blueprint alone)."""

from __future__ import annotations

import functools
import hashlib
import hmac
from collections.abc import Mapping, Sequence
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any

from babel import Locale
from babel.numbers import format_decimal
from flask import g, has_app_context, url_for
from flask_babel import format_datetime, get_locale, ngettext
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from scorekeeper import contract
from scorekeeper.club import bp
from scorekeeper.club.hands import HandRecord
from scorekeeper.club.history import IN_CIRCLES
from scorekeeper.club.models import ClubSession
from scorekeeper.club.rows import ClubResult, ClubTable
from scorekeeper.club.transfer import game_from_json, game_to_json
from scorekeeper.contract.labels import (
    SEAT_LETTERS,
    SEAT_NAMES,
    contract_label,
    result_label,
    strain_label,
    vulnerability_label,
)
from scorekeeper.games.entries import describer
from scorekeeper.games.models import Correction, Game
from scorekeeper.games.registry import Family, NewGame, Summary, TakenBack, register
from scorekeeper.games.rights import is_scorer
from scorekeeper.rules.bridge import (
    Contract,
    Seat,
    Strain,
    board_dealer,
    board_vulnerability,
    rounded,
)
from scorekeeper.rules.common import Side
from scorekeeper.rules.duplicate import (
    Pair,
    Ranking,
    ScoredResult,
    Scoring,
    TableResult,
    pairs_of,
)
from scorekeeper.rules.hands import HandError, Par, parse_card
from scorekeeper.rules.movements import Movement, Seating
from scorekeeper.rules.published import Figure


class CorrectionKind(StrEnum):
    """What a line of a session's corrections log records."""

    RESULT = "result"
    """A result corrected by the director (old and new: the result's code)."""
    DELETED = "result-deleted"
    """A result deleted by the director."""
    ARTIFICIAL = "artificial"
    """Artificial scores given by the director."""
    UNDO = "undo-result"
    """The last result entered taken back."""
    LATE_PAIR = "late-pair"
    """A late pair took the sit-out's place (number: the round it came in; new: the pair)."""
    MOVED = "result-moved"
    """A result moved by the director to the board it was played on (old: the result's code;
    new: the board's number)."""
    ARROW_SWITCH = "arrow-switch"
    """The rounds of the arrow switch chosen (new: the rounds, "5, 6"; "–" for none)."""
    SEATS = "seats-switched"
    """A result whose pairs sat the other way round (old: the result's code; new: the pair
    that sat North-South)."""
    LEFT = "pair-left"
    """A pair left before the end (number: the first round it did not play; new: the pair)."""
    ADDED_TABLE = "added-table"
    """A table added for late pairs (number: the round it plays from; seat: the table; new:
    the late pairs)."""


def table_token(game: ClubSession, table: int) -> str:
    """The secret of a table's link: derived from the scorer's, so nothing more is stored and
    each table's phone can enter that table's results only."""
    return derived_token(game.scorer_token, table)


@functools.lru_cache(maxsize=4096)
def derived_token(scorer_token: str, table: int) -> str:
    """Worked out once per table in a server process: every request of a table's phone names it
    (to check its link, and in the links of the page it gets)."""
    mac = hmac.new(scorer_token.encode(), f"table-{table}".encode(), hashlib.sha256)
    return mac.hexdigest()[:20]


def new_games() -> list[NewGame]:
    return [
        NewGame(
            url_for("club.setup"),
            str(_l("Duplicate bridge at the club")),
            str(
                _l(
                    "A pairs session: the movement and its table cards, a phone at each table, "
                    "matchpoints and the ranking as the boards come in."
                )
            ),
        )
    ]


def summary(game: Game) -> Summary:
    assert isinstance(game, ClubSession)
    title = game.event or _("Pairs session")
    detail = " · ".join(
        [
            ngettext("%(num)d table", "%(num)d tables", len(game.tables)),
            ngettext("%(num)d result", "%(num)d results", len(game.results)),
            _("last change %(when)s", when=format_datetime(game.last_change, "short")),
        ]
    )
    return Summary(title, detail, finished=game.closed)


def last_entered(game: ClubSession) -> ClubResult | None:
    return max(game.results, key=lambda r: (r.entered_at, r.id or 0), default=None)


def take_back(game: Game) -> TakenBack | None:
    """The result entered last, at whichever table."""
    assert isinstance(game, ClubSession)
    record = last_entered(game)
    if record is None:
        return None
    game.results.remove(record)
    table = game.table(record.table)
    if table is not None:
        table.changed()
    logged = [
        Correction(
            number=record.board, kind=CorrectionKind.UNDO, seat=record.table, old=record.code
        )
    ]
    message = _(
        "Board %(board)d at table %(table)d: taken back (%(result)s).",
        board=record.board,
        table=record.table,
        result=code_text(record.code),
    )
    return TakenBack(logged, message)


def undo_refused(game: Game) -> str | None:
    """A closed session's results are published: none is taken back in one tap."""
    assert isinstance(game, ClubSession)
    if game.closed:
        return _("The session is closed: open it again to take a result back.")
    return None


def code_text(code: str | None) -> str:
    """A result's code from the log, in the reader's language."""
    if not code:
        return _("no result")
    if code == "pass":
        return _("passed out")
    if "/" in code:
        ns, ew = code.split("/", 1)
        return _("artificial: %(ns)s to North-South, %(ew)s to East-West", ns=ns, ew=ew)
    try:
        contract_text, declarer, tricks, *lead = code.split(" ", 3)
        contract = Contract.parse(contract_text)
        made = int(tricks) - contract.tricks_needed
        label = contract_label(contract.level, contract.strain, contract.doubled)
    except (ValueError, KeyError):
        return code
    played = f"{label} {declarer} {result_label(made)}"
    return (
        _("%(result)s, %(card)s led", result=played, card=lead_label(lead[0])) if lead else played
    )


describe = describer(
    {
        CorrectionKind.RESULT: _l(
            "Board %(board)d, table %(table)d, corrected at %(time)s: %(old)s → %(new)s"
        ),
        CorrectionKind.DELETED: _l(
            "Board %(board)d, table %(table)d, deleted at %(time)s (%(old)s)"
        ),
        CorrectionKind.ARTIFICIAL: _l(
            "Board %(board)d, table %(table)d, at %(time)s: %(old)s → %(new)s"
        ),
        CorrectionKind.UNDO: _l(
            "Board %(board)d, table %(table)d, at %(time)s: taken back (%(old)s)"
        ),
        CorrectionKind.LATE_PAIR: _l(
            "At %(time)s: a late pair, %(to)s, takes the sit-out's place from round %(board)d"
        ),
        CorrectionKind.MOVED: _l(
            "Board %(board)d, table %(table)d, at %(time)s: %(old)s moved to board %(to)s, "
            "where it was played"
        ),
        CorrectionKind.ARROW_SWITCH: _l("At %(time)s: the arrow switch rounds are now: %(to)s"),
        CorrectionKind.SEATS: _l(
            "Board %(board)d, table %(table)d, at %(time)s: %(old)s, %(to)s sat North-South"
        ),
        CorrectionKind.LEFT: _l(
            "At %(time)s: %(to)s leaves; from round %(board)d the pairs it would have met sit out"
        ),
        CorrectionKind.ADDED_TABLE: _l(
            "At %(time)s: table %(table)d added from round %(board)d for %(to)s"
        ),
    },
    lambda game, change, code: code_text(code),
    lambda game, change: {"board": change.number, "table": change.seat or 0, "to": change.new},
)


def file_kind(game: Game) -> str:
    return "club-pairs"


FAMILY: Family = register(
    Family(
        key="club",
        name=lambda: str(_l("Duplicate bridge at the club")),
        game=ClubSession,
        entries=(ClubResult,),
        page="club.session",
        start="club.setup",
        new_games=new_games,
        summary=summary,
        export=game_to_json,
        read_file=game_from_json,
        take_back=take_back,
        undo_refused=undo_refused,
        describe=describe,
        file_kind=file_kind,
        file_for_everyone=lambda game: (
            isinstance(game, ClubSession) and game.game_file_for_everyone()
        ),
        every_phone_scores_at_home=False,
        parts=ClubTable,
        in_circles=IN_CIRCLES,
    )
)


# --- What the family's templates call ------------------------------------------------------------


def pair_label(pair: Pair) -> str:
    """A pair as the room calls it: "NS 3", "EW 3", or "Pair 7". Kept for the request in its
    language: a field's ranking names two thousand pairs."""
    if not has_app_context():
        return _pair_label(pair)
    labels: dict[tuple[Locale | None, Pair], str] = g.setdefault("pair_labels", {})
    key = (get_locale(), pair)
    found = labels.get(key)
    if found is None:
        found = labels[key] = _pair_label(pair)
    return found


def _pair_label(pair: Pair) -> str:
    if pair.direction is Side.NS:
        return _("NS %(number)d", number=pair.number)
    if pair.direction is Side.EW:
        return _("EW %(number)d", number=pair.number)
    return _("Pair %(number)d", number=pair.number)


def short_pair(number: int, direction: Side, ranking: Ranking) -> str:
    return pair_label(Pair(number, direction if ranking.numbered_by_direction else None))


def seated_label(seating: Seating, side: Side, ranking: Ranking) -> str:
    """The pair in ``side``'s seats of a table, as the room calls it."""
    return short_pair(*seating.at(side), ranking)


def sits_out_text(movement: Movement, seating: Seating) -> str:
    """What the movement's grid and a table card say of a place where nobody plays."""
    sitting = sitting_out_label(movement, seating)
    return _("%(pair)s sits out", pair=sitting) if sitting else _("not there yet")


def sitting_out_label(movement: Movement, seating: Seating) -> str:
    """The pair that sits out at this place, as the room calls it ("NS 7", "Pair 3"); empty
    at a table added later, in a round before it was there."""
    sitting = movement.sitting_out(seating)
    return "" if sitting is None else short_pair(*sitting, movement.ranking)


def table_result_label(result: TableResult) -> str:
    """A result as travellers write it: "4♠X S +1", "passed out", "A+ / A−"."""
    if result.artificial_ns is not None:
        return f"{result.artificial_ns} / {result.artificial_ew}"
    if result.contract is None or result.declarer is None or result.tricks is None:
        return _("passed out")
    contract = result.contract
    made = result.tricks - contract.tricks_needed
    label = contract_label(contract.level, contract.strain, contract.doubled)
    return f"{label} {result.declarer.value} {result_label(made)}"


def lead_label(written: str) -> str:
    """A lead as players write it ("3♠", "10♥"), from the way results files keep it ("S3",
    "HT"); one that is no card as it was written."""
    try:
        return str(parse_card(written))
    except HandError:
        return written


def wrong_lead_text(error: HandError) -> str:
    """Why a lead is refused: the card is not in the hand of declarer's left-hand opponent
    (:func:`scorekeeper.rules.hands.check_lead`)."""
    return _(
        "The %(card)s lead is not in %(seat)s's hand: check the declarer.",
        card=error.values["card"],
        seat=SEAT_NAMES[Seat(str(error.values["leader"]))],
    )


def figure(
    value: Fraction | None, scoring: Scoring | None = None, locale: Locale | None = None
) -> str:
    """Matchpoints to 0.1, Butler IMPs whole and signed, cross-IMPs (averages) to 0.01 and
    signed: only what is shown is rounded (in ``locale``, the page's by default)."""
    if value is None:
        return "–"
    locale = locale or get_locale()
    if scoring is Scoring.BUTLER:
        return shown_figure(value, 0, "+0;−0", locale)
    if scoring is Scoring.CROSS_IMPS:
        return shown_figure(value, 2, "+0.00;−0.00", locale)
    return shown_figure(value, 1, "0.0", locale)


def published_figure(value: Decimal | None, scoring: Scoring | None = None) -> str:
    """A figure as a results file published it, with the decimals it wrote, in the reader's
    language; IMPs signed."""
    if value is None:
        return "–"
    exponent = value.as_tuple().exponent
    places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    digits = "0." + "0" * places if places else "0"
    pattern = f"+{digits};−{digits}" if scoring is not None and scoring.in_imps else digits
    return shown_figure(Fraction(value), places, pattern, get_locale())


def percentage(value: Fraction | None, locale: Locale | None = None) -> str:
    return "–" if value is None else shown_figure(value, 2, "0.00", locale or get_locale())


@functools.lru_cache(maxsize=8192)
def shown_figure(value: Fraction, places: int, pattern: str, locale: Locale | None) -> str:
    """``value`` rounded to ``places`` and written in ``locale``: a session's ranking and
    score cards show the same few hundred figures on each of its pages, drawn anew at each
    result entered."""
    return str(format_decimal(rounded(value, places), pattern, locale=locale))


def board_facts(board: int) -> dict[str, Any]:
    return {"dealer": board_dealer(board), "vulnerability": board_vulnerability(board)}


def signed(score: int) -> str:
    """A score as the pad writes it: +420, −50, 0."""
    return f"{score:+d}".replace("-", "−") if score else "0"


def score_text(scored: ScoredResult | None) -> str:
    if scored is None or scored.result.score_ns is None:
        return ""
    return signed(scored.result.score_ns)


def directions(ranking: Ranking) -> Sequence[Side | None]:
    return ranking.fields


HAND_SEATS = (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)
"""The declarers of a double-dummy table as hand records list them."""
HAND_STRAINS = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
HAND_SUITS = (_l("spades"), _l("hearts"), _l("diamonds"), _l("clubs"))
"""A hand's suits in the order hand records write them, for those who listen to the page."""


def holding_text(ranks: str) -> str:
    """A suit's cards as players read them ("AQ105"), or a dash for a void."""
    return ranks.replace("T", "10") or "—"


def par_text(found: Par) -> str:
    """Par in words, from North-South's side as travellers and par tables are read (RULES.md
    §4): "4♠ N/S =, NS +420", "4♥ E/W +1, NS −450", or a board to pass out."""
    if not found.contracts:
        return _("pass it out, 0")
    declarers: dict[tuple[str, int], list[str]] = {}
    for played in found.contracts:
        contract = played.contract
        key = (contract_label(contract.level, contract.strain, contract.doubled), played.difference)
        declarers.setdefault(key, []).append(str(SEAT_LETTERS[played.declarer]))
    contracts = ", ".join(
        f"{name} {'/'.join(seats)} {signed(difference) if difference else '='}"
        for (name, difference), seats in declarers.items()
    )
    return _("%(contracts)s, NS %(score)s", contracts=contracts, score=signed(found.score))


def shown_name(game: ClubSession, pair: Pair) -> str:
    """A pair's names on a page: for the director, or where the director shows them."""
    return game.public_name_of(pair, is_scorer(game.id, game.family))


def boards_text(boards: Sequence[int]) -> str:
    """A round's boards as a table card writes them: "4–6", or "1, 5, 9"."""
    consecutive = list(boards) == list(range(boards[0], boards[0] + len(boards)))
    if len(boards) > 1 and consecutive:
        return f"{boards[0]}–{boards[-1]}"
    return ", ".join(map(str, boards))


def boards_move_text(movement: Movement, seating: Seating) -> str | None:
    """Where the boards of a table's round go next; ``None`` after the last round."""
    going = movement.boards_go_to(seating)
    if going is None:
        return None
    boards = boards_text(seating.boards)
    if not going:
        return _("Boards %(boards)s then wait on the relay stand.", boards=boards)
    if going == (seating.table,):
        return _("Boards %(boards)s stay at this table.", boards=boards)
    return ngettext(
        "Boards %(boards)s then go to table %(tables)s.",
        "Boards %(boards)s then go to tables %(tables)s.",
        len(going),
        boards=boards,
        tables=", ".join(map(str, going)),
    )


def improbable_text(records: Mapping[int, HandRecord], result: TableResult) -> str | None:
    """A result far from what the cards make, said; ``None`` for a likely one."""
    record = records.get(result.board)
    makes = record.improbable(result) if record is not None else None
    if makes is None or result.contract is None or result.declarer is None:
        return None
    return _(
        "Double dummy, %(declarer)s takes %(makes)d tricks in %(strain)s, and %(taken)d are "
        "entered: check this result.",
        declarer=SEAT_NAMES[result.declarer],
        makes=makes,
        strain=strain_label(result.contract.strain),
        taken=result.tricks,
    )


@bp.context_processor
def template_helpers() -> dict[str, Any]:
    return {
        **contract.template_helpers(),
        "pair_label": pair_label,
        "short_pair": short_pair,
        "pairs_of": pairs_of,
        "seated_label": seated_label,
        "sitting_out_label": sitting_out_label,
        "sits_out_text": sits_out_text,
        "table_result_label": table_result_label,
        "lead_label": lead_label,
        "figure": figure,
        "published_figure": published_figure,
        "percentage": percentage,
        "board_facts": board_facts,
        "score_text": score_text,
        "signed": signed,
        "vulnerability_label": vulnerability_label,
        "Seat": Seat,
        "Side": Side,
        "Scoring": Scoring,
        "Ranking": Ranking,
        "Figure": Figure,
        "directions": directions,
        "boards_move_text": boards_move_text,
        "shown_name": shown_name,
        "hand_seats": HAND_SEATS,
        "hand_strains": HAND_STRAINS,
        "suit_names": HAND_SUITS,
        "holding_text": holding_text,
        "par_text": par_text,
    }
