"""PBN 2.0 results files: the FFB session read as Magic Contest exported it (every published
figure reproduced by the engine), written back and read again, hand-made files of other
shapes (a Mitchell, comments, wrapped rows), and anything else refused with a PbnError.

The file is in tests/data/bridge (see the README there).
"""

import csv
import dataclasses
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.bridge import Artificial, Contract, Strain, board_dealer, rounded
from scorekeeper.rules.common import Seat, Side
from scorekeeper.rules.duplicate import (
    Pair,
    Ranking,
    Scoring,
    SessionRecord,
    TableResult,
)
from scorekeeper.rules.files import MAX_BYTES, MAX_RESULTS, FileRule, figure_text
from scorekeeper.rules.pbn import PbnError, PbnFile, differences, read_pbn, write_pbn
from scorekeeper.rules.published import (
    Convention,
    Difference,
    Figure,
    LargerEvent,
    PublishedResult,
    PublishedStanding,
    Verdict,
    check,
    convention_of,
    count,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "bridge"
SESSION = "ffb_2022_dn1_s1"
STORED = (DATA / f"{SESSION}.pbn").read_bytes()
TEXT = STORED.decode("latin-1")


def crlf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


ENCODINGS: dict[str, bytes] = {
    "latin-1 as stored": STORED,
    "latin-1 crlf": crlf(TEXT).encode("latin-1"),
    "utf-8 lf": TEXT.encode("utf-8"),
    "utf-8 bom crlf": b"\xef\xbb\xbf" + crlf(TEXT).encode("utf-8"),
    "utf-16 bom crlf": crlf(TEXT).encode("utf-16"),
    "utf-16 big-endian lf": TEXT.encode("utf-16-be"),
    "utf-16 little-endian crlf": crlf(TEXT).encode("utf-16-le"),
}


@pytest.fixture(scope="module")
def ffb() -> PbnFile:
    return read_pbn(STORED)


def csv_rows(name: str) -> list[dict[str, str]]:
    with (DATA / f"{SESSION}_{name}.csv").open(encoding="utf-8", newline="") as file:
        return list(csv.DictReader(file))


# --- The FFB session ----------------------------------------------------------------------------


@pytest.mark.parametrize("data", ENCODINGS.values(), ids=ENCODINGS.keys())
def test_the_ffb_file_reads_whatever_its_encoding_and_line_ends(data: bytes) -> None:
    pbn = read_pbn(data)
    session = pbn.session
    assert len(session.results) == 660
    assert sorted({result.board for result in session.results}) == list(range(1, 31))
    pairs = {pair for result in session.results for pair in (result.ns, result.ew)}
    assert pairs == set(range(1, 45))
    assert session.ranking is Ranking.ONE_FIELD
    assert session.scoring is Scoring.MATCHPOINTS
    assert session.event == "Open /2 DN1 National Finale directe 21-22 - Séance 1"
    assert session.date == date(2022, 2, 6)
    assert sorted(session.deals) == list(range(1, 31))
    assert session.deals[1] == (
        "N:KQT6.AJT.T984.65 A2.K9876.72.9742 J543.43.AQ5.AKJ3 987.Q52.KJ63.QT8"
    )
    assert session.names == {}  # blanked in the stored file
    assert session.tiebreaks == {Pair(44): 2, Pair(1): 0}
    assert session.expected is None
    assert len(pbn.published.results) == 660
    assert len(pbn.published.standings) == 44
    assert differences(pbn) == []


def test_the_engine_reproduces_every_published_figure(ffb: PbnFile) -> None:
    assert differences(ffb) == []
    published = ffb.published
    # The comparison is not empty-handed: every row publishes a score and both matchpoints.
    assert all(
        (figures.score_ns is None) != (figures.score_ew is None)
        for figures, result in zip(published.results, ffb.session.results, strict=True)
        if not result.is_artificial
    )
    assert all(f.mp_ns is not None and f.mp_ew is not None for f in published.results)
    assert all(
        line.total is not None and line.percentage is not None and line.rank is not None
        for line in published.standings
    )


def test_the_published_figures_are_the_files_and_the_derived_csvs(ffb: PbnFile) -> None:
    by_place = {
        (result.board, result.table): figures
        for result, figures in zip(ffb.session.results, ffb.published.results, strict=True)
    }
    for row in csv_rows("results"):
        figures = by_place[int(row["board"]), int(row["table"])]
        assert (figures.mp_ns, figures.mp_ew) == (Decimal(row["mp_ns"]), Decimal(row["mp_ew"]))
    totals = {line.pair.number: line for line in ffb.published.standings}
    for row in csv_rows("totals"):
        line = totals[int(row["pair"])]
        assert (line.total, line.percentage) == (
            Decimal(row["total_mp"]),
            Decimal(row["total_pct"]),
        )


def test_pair_7_wins_and_the_tie_on_593_2_goes_by_the_tiebreak(ffb: PbnFile) -> None:
    # Magic Contest adds each board's figure as published (to 0.1): its figures show it.
    convention = convention_of(ffb.session, ffb.published)
    assert convention == Convention(rounding=1)
    counted = count(ffb.session, ffb.published, convention)
    ((_field, ranking),) = counted.rankings
    winner = ranking[0]
    assert winner.percentage is not None
    assert (winner.pair, winner.rank, winner.total, rounded(winner.percentage, 2)) == (
        Pair(7),
        1,
        Fraction("771.2"),
        Decimal("61.21"),
    )
    assert ffb.published.standings[0] == PublishedStanding(
        Pair(7), 1, Decimal("771.2"), Decimal("61.21"), None, "", boards=30
    )
    tied = [counted.pairs[Pair(44)], counted.pairs[Pair(1)]]
    assert [(s.rank, s.total, s.tied) for s in tied] == [
        (31, Fraction("593.2"), False),
        (32, Fraction("593.2"), False),
    ]
    assert [line.tiebreak for line in ffb.published.standings[30:32]] == [2, 0]


def test_totals_of_tenths_are_explained_beside_scorekeepers_exact_ones(ffb: PbnFile) -> None:
    checked = check(ffb.session, ffb.published)
    totals = [c for c in checked.figures if c.figure is Figure.TOTAL]
    assert len(totals) == 44
    explained = [c for c in totals if c.verdict is Verdict.EXPLAINED]
    # Adding exact figures moves some totals by 0.1 (see the data's README).
    assert explained and all(abs(c.published - c.own) == Decimal("0.1") for c in explained if c.own)
    assert all(c.notes and c.notes[-1].reason.value == "rounded" for c in explained)
    assert checked.differences == ()


def test_the_four_artificial_rows(ffb: PbnFile) -> None:
    rows = [
        (result, figures)
        for result, figures in zip(ffb.session.results, ffb.published.results, strict=True)
        if result.is_artificial
    ]
    assert [(r.board, r.table, r.ns, r.ew, r.artificial_ns, r.artificial_ew) for r, _ in rows] == [
        (1, 16, 29, 16, Artificial.AVERAGE_PLUS, Artificial.AVERAGE_PLUS),
        (2, 16, 29, 16, Artificial.AVERAGE_PLUS, Artificial.AVERAGE_PLUS),
        (9, 5, 1, 9, Artificial.AVERAGE_MINUS, Artificial.AVERAGE_PLUS),
        (14, 11, 40, 17, Artificial.AVERAGE_PLUS, Artificial.AVERAGE_PLUS),
    ]
    assert all(r.contract is None and r.score_ns is None for r, _ in rows)
    a60, a40 = Decimal("25.2"), Decimal("16.8")
    assert [(f.score_ns, f.score_ew, f.mp_ns, f.mp_ew) for _, f in rows] == [
        (None, None, a60, a60),
        (None, None, a60, a60),
        (None, None, a40, a60),
        (None, None, a60, a60),
    ]


def test_the_neuberg_boards_and_a_plain_one(ffb: PbnFile) -> None:
    score = ffb.session.score()
    board_1 = score.board(1)
    made = [s for s in board_1 if s.result.score_ns == 420]
    assert [(s.ns, s.shown_ns, s.shown_ew) for s in made] == [
        (Fraction(85, 3), Fraction("28.3"), Fraction("13.7"))
    ] * 14
    assert {s.top for s in board_1} == {42}
    # Board 9: 21 real results for 22 expected, so Neuberg-scaled: fractions of 21sts.
    board_9 = [s for s in score.board(9) if not s.result.is_artificial]
    assert len(board_9) == 21
    assert not all(s.ns.denominator == 1 for s in board_9)
    # Board 3 has every result: whole matchpoints, the top 42.
    board_3 = score.board(3)
    assert all(s.ns.denominator == 1 for s in board_3) and board_3[0].ns == 42
    first = ffb.session.results[0]
    assert (first.board, first.table, first.ns, first.ew) == (1, 3, 3, 42)
    assert (first.contract, first.declarer, first.tricks, first.lead) == (
        Contract(4, "S"),
        Seat.SOUTH,
        10,
        "S9",
    )
    assert ffb.published.results[0] == PublishedResult(
        score_ns=420, mp_ns=Decimal("28.3"), mp_ew=Decimal("13.7")
    )


def test_a_figure_changed_in_the_file_is_reported(ffb: PbnFile) -> None:
    row = ' 3  1  3 42 4S  S 10 S9   "420"      - 28.3 13.7  67  33'
    assert TEXT.count(row) == 1
    changed = TEXT.replace(row, row.replace("28.3 13.7", "28.4 13.7"))
    changed = changed.replace('1 7 7 "E-W" 771.2', '1 7 7 "E-W" 771.3')
    found = differences(read_pbn(changed))
    assert found == [
        Difference(
            Figure.MATCHPOINTS, Decimal("28.4"), Decimal("28.3"), board=1, table=3, side=Side.NS
        ),
        Difference(Figure.TOTAL, Decimal("771.3"), Decimal("771.2"), pair=Pair(7)),
    ]


def test_a_contract_scored_otherwise_is_reported() -> None:
    row = ' 3  1  3 42 4S  S 10 S9   "420"      - 28.3 13.7  67  33'
    found = differences(read_pbn(TEXT.replace(row, row.replace('"420"', '"450"'))))
    assert found == [
        Difference(Figure.SCORE, Decimal(450), Decimal(420), board=1, table=3, side=Side.NS)
    ]


def whole_event(text: str) -> str:
    """The FFB file as a later session of the six-session event would publish it: the same
    session, but a ranking of the event so far, its totals and percentages out of 180 boards
    a pair (pair 44 on 3,383), places by them; NrBoards still says 30, as in the session's."""
    header, rest = text.split("[TotalScoreTable ", 1)
    tag, rest = rest.split("\n", 1)
    rows, after = rest.split("\n[", 1)
    event: dict[int, Fraction] = {}
    lines = {}
    for row in rows.splitlines():
        cells = row.split()
        pair, total = int(cells[1]), Fraction(cells[4])
        event[pair] = Fraction(3383) if pair == 44 else total + 2700 + pair * Fraction(73, 10)
        lines[pair] = cells
    top = 180 * 42
    ranked = sorted(event, key=lambda pair: -event[pair])
    written = []
    for pair in ranked:
        cells = lines[pair]
        cells[0] = str(1 + sum(event[other] > event[pair] for other in event))
        cells[4] = figure_text(event[pair], 1)
        cells[5] = figure_text(event[pair] * 100 / top, 2)
        written.append(" ".join(cells))
    return f"{header}[TotalScoreTable {tag}\n" + "\n".join(written) + "\n[" + after


def test_the_ranking_of_the_whole_event_is_told_apart_from_the_session() -> None:
    pbn = read_pbn(whole_event(TEXT))
    line_44 = next(line for line in pbn.published.standings if line.pair == Pair(44))
    assert (line_44.total, line_44.boards) == (Decimal("3383.0"), 30)
    # Every figure of the session agrees; the event's are not differences.
    assert differences(pbn) == []
    checked = check(pbn.session, pbn.published)
    assert checked.larger_event == LargerEvent(boards=180, session_boards=30)
    # A figure of the session that does not agree still is one.
    row = ' 3  1  3 42 4S  S 10 S9   "420"      - 28.3 13.7  67  33'
    changed = read_pbn(whole_event(TEXT.replace(row, row.replace("28.3", "28.4"))))
    assert differences(changed) == [
        Difference(
            Figure.MATCHPOINTS, Decimal("28.4"), Decimal("28.3"), board=1, table=3, side=Side.NS
        )
    ]


def test_a_ranking_that_fits_the_session_is_checked_line_by_line(ffb: PbnFile) -> None:
    assert check(ffb.session, ffb.published).larger_event is None
    # One total out of the session's reach among totals that fit it: a difference.
    changed = read_pbn(TEXT.replace('1 7 7 "E-W" 771.2', '1 7 7 "E-W" 7712.0'))
    assert check(changed.session, changed.published).larger_event is None
    assert differences(changed) == [
        Difference(Figure.TOTAL, Decimal("7712.0"), Decimal("771.2"), pair=Pair(7))
    ]


def test_the_ffb_session_is_written_and_read_back(ffb: PbnFile) -> None:
    text = write_pbn(ffb.session)
    again = read_pbn(text)
    assert again.session == ffb.session
    assert differences(again) == []
    assert [line.pair for line in again.published.standings] == [
        line.pair for line in ffb.published.standings
    ]
    assert write_pbn(again.session) == text
    assert text.startswith("% PBN 2.0\n% EXPORT\n[Event ")
    first_game = text.split("\n\n")[0]
    assert first_game.index("[TotalScoreTable") < first_game.index("[ScoreTable")
    assert text.count("[TotalScoreTable") == 1
    assert text.count("[Board ") == 30
    assert '[Vulnerable "All"]' in text.split("\n\n")[3]  # board 4
    assert '[Deal "N:KQT6.AJT.T984.65' in first_game


MANDATORY = [
    "Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
    "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result",
]  # fmt: skip


def test_each_written_game_has_the_15_mandatory_tags_in_order(ffb: PbnFile) -> None:
    games = write_pbn(ffb.session).split("\n\n")
    assert len(games) == 30
    for number, game in enumerate(games, 1):
        tags = [line[1:].split(" ")[0] for line in game.splitlines() if line.startswith("[")]
        assert tags[:15] == MANDATORY
        assert tags[15:] == (["TotalScoreTable", "ScoreTable"] if number == 1 else ["ScoreTable"])
        assert f'[Board "{number}"]' in game
        assert f'[Dealer "{board_dealer(number).value}"]' in game


def test_a_butler_session_is_written_with_imps() -> None:
    session = SessionRecord(
        (
            TableResult(1, 1, 1, 1, 2, Contract(4, "S"), Seat.NORTH, 10),
            TableResult(1, 2, 1, 3, 4, Contract(4, "S"), Seat.NORTH, 9),
            TableResult(
                1,
                3,
                1,
                5,
                6,
                artificial_ns=Artificial.AVERAGE_PLUS,
                artificial_ew=Artificial.AVERAGE_MINUS,
            ),
        ),
        scoring=Scoring.BUTLER,
        date=date(2025, 1, 31),
    )
    text = write_pbn(session)
    assert '[Scoring "IMP;Butler"]' in text and '[Date "2025.01.31"]' in text
    assert ";IMP_NS" in text and ";MP_NS" not in text and "TotalScoreIMP" in text
    pbn = read_pbn(text)
    assert pbn.session == session
    assert [(f.imp_ns, f.imp_ew) for f in pbn.published.results] == [
        (Decimal(6), Decimal(-6)),
        (Decimal(-6), Decimal(6)),
        (Decimal(3), Decimal(-3)),
    ]
    assert differences(pbn) == []


def test_the_written_file_encodes_in_utf8_and_reads_back(ffb: PbnFile) -> None:
    data = write_pbn(ffb.session).encode("utf-8")
    assert read_pbn(data).session == ffb.session


# --- Sessions of every shape, written and read back ----------------------------------------------

CARDS = [suit + rank for suit in "SHDC" for rank in "AKQJT98765432"]
name_text = st.text(
    st.characters(categories=("L", "M", "N", "P", "S", "Zs")) | st.sampled_from("\"'\\;{}[]%#-"),
    min_size=1,
    max_size=24,
)


@st.composite
def deals(draw: st.DrawFn, board: int) -> str:
    """A deal in PBN, the dealer's hand first, hands the file does not give written "-"."""
    order = draw(st.permutations(range(52)))
    known = draw(st.lists(st.booleans(), min_size=4, max_size=4).filter(any))
    dealer = board_dealer(board)
    hands = []
    for offset in range(4):
        cards = sorted(order[offset * 13 : offset * 13 + 13])
        suits = [
            "".join(CARDS[card][1] for card in cards if CARDS[card][0] == suit) for suit in "SHDC"
        ]
        hands.append(".".join(suits) if known[offset] else "-")
    return f"{dealer.value}:{' '.join(hands)}"


@st.composite
def table_results(draw: st.DrawFn, board: int, table: int, ns: int, ew: int) -> TableResult:
    kind = draw(st.sampled_from(["played", "played", "played", "passed", "artificial"]))
    round_ = draw(st.integers(1, 99))
    lead = draw(st.sampled_from(["", *CARDS]))
    if kind == "played":
        contract = Contract(
            draw(st.integers(1, 7)), draw(st.sampled_from(list(Strain))), draw(st.integers(0, 2))
        )
        seat = draw(st.sampled_from(list(Seat)))
        return TableResult(board, table, round_, ns, ew, contract, seat, draw(st.integers(0, 13)))
    if kind == "passed":
        return TableResult(board, table, round_, ns, ew, lead=lead)
    sides = st.sampled_from(list(Artificial))
    return TableResult(
        board, table, round_, ns, ew, artificial_ns=draw(sides), artificial_ew=draw(sides)
    )


@st.composite
def sessions(draw: st.DrawFn) -> SessionRecord:
    """A small session that can be scored: each board's tables seat every pair once."""
    ranking = draw(st.sampled_from(list(Ranking)))
    tables = draw(st.integers(1, 4))
    boards = draw(st.lists(st.integers(1, 40), min_size=1, max_size=4, unique=True))
    numbers = st.integers(1, 60)
    by_direction = ranking.numbered_by_direction
    if by_direction:
        north_south = draw(st.lists(numbers, min_size=tables, max_size=tables, unique=True))
        east_west = draw(st.lists(numbers, min_size=tables, max_size=tables, unique=True))
    else:
        field = draw(st.lists(numbers, min_size=2 * tables, max_size=2 * tables, unique=True))
        north_south, east_west = field[:tables], field[tables:]
    results: list[TableResult] = []
    pairs: set[Pair] = set()
    for board in boards:
        if by_direction:
            seats = list(
                zip(
                    draw(st.permutations(north_south)),
                    draw(st.permutations(east_west)),
                    strict=True,
                )
            )
        else:
            order = draw(st.permutations(north_south + east_west))
            seats = [(order[2 * index], order[2 * index + 1]) for index in range(tables)]
        for table, (ns, ew) in enumerate(seats[: draw(st.integers(1, tables))], 1):
            pairs.add(Pair(ns, Side.NS if by_direction else None))
            pairs.add(Pair(ew, Side.EW if by_direction else None))
            # An arrow switch: the East-West pair sits North-South.
            if ranking is Ranking.ARROW_SWITCHED and draw(st.booleans()):
                switched = draw(table_results(board, table, ew, ns))
                results.append(dataclasses.replace(switched, switched=True))
            else:
                results.append(draw(table_results(board, table, ns, ew)))
    known = sorted(pairs)
    named = draw(st.lists(st.sampled_from(known), unique=True)) if known else []
    dealt = draw(st.lists(st.integers(1, 40), max_size=3, unique=True))
    return SessionRecord(
        tuple(results),
        ranking=ranking,
        scoring=draw(st.sampled_from(list(Scoring))),
        event=draw(st.just("") | name_text.filter(lambda text: text.strip() not in ("?", "#"))),
        date=draw(st.none() | st.dates(date(1900, 1, 1), date(2100, 12, 31))),
        names={pair: draw(name_text) for pair in named},
        deals={board: draw(deals(board)) for board in sorted(set(dealt) | set(boards[:1]))},
        tiebreaks={
            pair: draw(st.integers(0, 9))
            for pair in draw(st.lists(st.sampled_from(known), unique=True, max_size=3))
        },
    )


def board_by_board(session: SessionRecord) -> SessionRecord:
    """The session as a file gives it back: its results board by board, each board's in the
    order given; an arrow-switched room numbered across."""
    session = session.as_one_field()
    results = tuple(sorted(session.results, key=lambda result: result.board))
    return SessionRecord(
        results,
        ranking=session.ranking,
        scoring=session.scoring,
        event=session.event,
        date=session.date,
        names=session.names,
        deals=session.deals,
        tiebreaks=session.tiebreaks,
        numbers=session.numbers,
    )


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions())
def test_any_session_is_written_and_read_back(session: SessionRecord) -> None:
    text = write_pbn(session)
    again = read_pbn(text)
    assert again.session == board_by_board(session)
    assert differences(again) == []
    assert read_pbn(text.encode("utf-8")).session == again.session


# --- Files of other shapes ----------------------------------------------------------------------

MITCHELL = """\
% PBN 2.0
% EXPORT
[Event "Club \\"Mitchell\\" night"]
[Date "2024.03.??"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:- - - -"]
[Scoring "MP"]
[TotalScoreTable "Rank;PairId;Direction;TotalScoreMP;TotalPercentage;Names"]
1 1 "N-S" 2.0 100.00 "Anne Martin - Bruno Petit"
2 2 "N-S" 0.0 0.00 -
1 2 "E-W" 2.0 100.00 "Chloé d'Arc - Denis \\"Le Grand\\" Roy"
2 1 "E-W" 0.0 0.00 -
[ScoreTable "PairId_NS\\2R;PairId_EW;Contract\\4L;Declarer;Result;Score_NS;Score_EW;MP_NS;MP_EW"]
 1  1 4S   N 10 420   - 2 0
 2  2 3NTX W  9 -   550 0 2
"""


def test_a_mitchell_numbered_within_each_direction_reads_by_direction() -> None:
    pbn = read_pbn(MITCHELL)
    session = pbn.session
    assert session.ranking is Ranking.BY_DIRECTION
    assert session.event == 'Club "Mitchell" night'
    assert session.date is None
    assert session.deals == {}
    assert session.names == {
        Pair(1, Side.NS): "Anne Martin - Bruno Petit",
        Pair(2, Side.EW): 'Chloé d\'Arc - Denis "Le Grand" Roy',
    }
    assert session.results[1].contract == Contract(3, "NT", 1)
    assert session.results[1].declarer is Seat.WEST
    assert [line.pair for line in pbn.published.standings] == [
        Pair(1, Side.NS),
        Pair(2, Side.NS),
        Pair(2, Side.EW),
        Pair(1, Side.EW),
    ]
    assert differences(pbn) == []
    again = read_pbn(write_pbn(session))
    assert again.session == session
    assert "Direction" in write_pbn(session)


# Board 1 at all three tables (NS 420, 170, -50: 4, 2 and 0 of a top of 4); board 2 at two, table
# 3 having missed it: 420 and 140 beat and lose to each other, M = 2 and 0, scaled to the three
# results of board 1, (M + 1) × 3 / 2 − 1: 3.5 and 0.5.
SHORT_BOARD = """\
% PBN 2.0
% EXPORT
[Event "Neuberg"]
[Board "1"]
[Scoring "MatchPoints"]
[TotalScoreTable "Rank;PairId;Direction;TotalScoreMP;TotalPercentage"]
1 1 "N-S" 7.50 93.75
2 2 "N-S" 2.50 31.25
3 3 "N-S" 0.00 0.00
1 3 "E-W" 7.50 93.75
2 2 "E-W" 2.50 31.25
3 1 "E-W" 0.00 0.00
[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;Score_EW;MP_NS;MP_EW"]
1 1 4S N 10 420 - 4.00 0.00
2 2 2S N 10 170 - 2.00 2.00
3 3 4S N 9 - 50 0.00 4.00

[Board "2"]
[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;Score_EW;MP_NS;MP_EW"]
1 2 4S N 10 620 - 3.50 0.50
2 3 2S N 9 140 - 0.50 3.50
"""


def test_a_board_played_fewer_times_is_neuberg_scaled() -> None:
    pbn = read_pbn(SHORT_BOARD)
    assert pbn.session.ranking is Ranking.BY_DIRECTION
    assert differences(pbn) == []
    north_south = pbn.session.score().standings(Side.NS)
    assert [(s.pair.number, s.total, s.top) for s in north_south] == [
        (1, Fraction(15, 2), 8),
        (2, Fraction(5, 2), 8),
        (3, 0, 4),
    ]
    # From a program that does not scale, board 2 is out of a top of 2: it is scored so.
    unscaled = SHORT_BOARD.replace("3.50 0.50", "2.00 0.00").replace("0.50 3.50", "0.00 2.00")
    unscaled = unscaled.replace("7.50 93.75", "6.00 100.00").replace("2.50 31.25", "2.00 33.33")
    again = read_pbn(unscaled)
    convention = convention_of(again.session, again.published)
    assert convention == Convention(tops={2: 2})
    assert differences(again) == []
    # Scorekeeper's own count still scales it: the file's figures are explained, not its.
    checked = check(again.session, again.published)
    board_2 = [c for c in checked.figures if c.board == 2 and c.figure is Figure.MATCHPOINTS]
    assert {c.verdict for c in board_2} == {Verdict.EXPLAINED}
    assert {c.own for c in board_2} == {Decimal("3.5"), Decimal("0.5")}
    assert board_2[0].notes[0].reason.value == "not-scaled"
    assert checked.standings[Pair(1, Side.NS), Figure.TOTAL].counted == Decimal("6.0")


def test_ranks_that_start_again_in_each_direction_make_a_mitchell() -> None:
    # North-South pairs 1-2, East-West 3-4: no number sits both ways, but two rankings.
    text = MITCHELL.replace('1 2 "E-W"', '1 4 "E-W"').replace('2 1 "E-W"', '2 3 "E-W"')
    text = text.replace("\n 1  1 4S", "\n 1  3 4S").replace("\n 2  2 3NTX", "\n 2  4 3NTX")
    session = read_pbn(text).session
    assert session.ranking is Ranking.BY_DIRECTION
    assert set(session.names) == {Pair(1, Side.NS), Pair(4, Side.EW)}


def test_a_howell_numbered_across_the_room_reads_as_one_field() -> None:
    text = MITCHELL.replace("\n 1  1 4S", "\n 1  3 4S").replace("\n 2  2 3NTX", "\n 2  4 3NTX")
    text = text.split("[TotalScoreTable")[0] + "[ScoreTable" + text.split("[ScoreTable")[1]
    assert read_pbn(text).session.ranking is Ranking.ONE_FIELD


LOOSE = """\
; a comment before anything
% <META name=Generator content="hand">
[Event "Loose"] [Site "x"]
[Date "2023.11.05"] { a brace comment
over two lines }
[Board "7"]
[Scoring "IMP;Butler"]
[ScoreTable "PairId_EW;PairId_NS;Contract;Declarer;Result;Lead;Score_NS;Score_EW;IMP_NS;IMP_EW"]
2 1 3NTXX
 S 9 "S 10" -
  "-1" ? ?
4 3 Pass - - - 0 - ? ?
6 5 AP - - - 0 - ? ?
8 7 - - - - ^A+ ^A- ? ?

[Event "#"]
[Board "8"]
[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS"]
1 2 1c w 7 -
"""


def test_comments_wrapped_rows_any_column_order_and_tag_inheritance() -> None:
    pbn = read_pbn(LOOSE)
    session = pbn.session
    assert (session.event, session.date, session.scoring) == (
        "Loose",
        date(2023, 11, 5),
        Scoring.BUTLER,
    )
    first, passed, all_pass, artificial, clubs = session.results
    assert (first.ns, first.ew, first.table, first.round) == (1, 2, 1, 1)
    assert (first.contract, first.declarer, first.tricks, first.lead) == (
        Contract(3, "NT", 2),
        Seat.SOUTH,
        9,
        "S 10",
    )
    assert passed.passed_out and all_pass.passed_out and passed.table == 2
    assert (artificial.artificial_ns, artificial.artificial_ew) == (
        Artificial.AVERAGE_PLUS,
        Artificial.AVERAGE_MINUS,
    )
    assert (clubs.board, clubs.contract, clubs.declarer) == (8, Contract(1, "C"), Seat.WEST)
    assert pbn.published.results[0] == PublishedResult(score_ew=-1)
    assert [d.figure for d in differences(pbn)] == [Figure.SCORE]


# --- Bad files: a PbnError, never anything else ---------------------------------------------------

GOOD = write_pbn(
    SessionRecord(
        (
            TableResult(1, 1, 1, 1, 2, Contract(4, "S"), Seat.NORTH, 10),
            TableResult(1, 2, 1, 3, 4, Contract(2, "H"), Seat.EAST, 8),
        )
    )
)


def broken(old: str, new: str) -> str:
    assert old in GOOD, old
    return GOOD.replace(old, new, 1)


@pytest.mark.parametrize(
    ("text", "rule", "line"),
    [
        ("", FileRule.EMPTY, None),
        ("% only a comment\n", FileRule.EMPTY, None),
        ("garbage", FileRule.STRAY, 1),
        ('[Event "x"', FileRule.TAG, 1),
        ("[Event x]", FileRule.TAG, 1),
        ('[Event "x]\n', FileRule.STRING, 1),
        ('[Board "1"] { never closed\n', FileRule.COMMENT, 1),
        ('[Board "0"]', FileRule.NUMBER, 1),
        ('[Board "1000"]', FileRule.NUMBER, 1),
        ('[Board "1"]\n[Date "2023.02.30"]', FileRule.DATE, 2),
        ('[Board "1"]\n[Deal "N:AKQ"]', FileRule.DEAL, 2),
        ('[Board "1"]\n[Scoring "Rubber"]', FileRule.SCORING, 2),
        ('[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Contract"]\n1 2', FileRule.ROW, 3),
        ('[Board "1"]\n[ScoreTable "PairId_NS;Contract"]\n1 Pass', FileRule.MISSING, 3),
        ('[ScoreTable "PairId_NS;PairId_EW;Contract"]\n1 2 Pass', FileRule.MISSING, 1),
        ("x" * 20_000, FileRule.LINE_TOO_LONG, 1),
        (broken(" 4S ", " 8S "), FileRule.CONTRACT, None),
        (broken(" 4S ", " 4Z "), FileRule.CONTRACT, None),
        (broken("4S N", "4S Q"), FileRule.DECLARER, None),
        (broken("N 10", "N 14"), FileRule.NUMBER, None),
        (broken("2 1 3 4 2H", "2 1 1 4 2H"), FileRule.PAIR_TWICE, None),
        (broken(" 420 ", " 42O "), FileRule.SCORE, None),
        (broken(" 420 ", " 9999 "), FileRule.SCORE, None),
        (broken("2.0 0.0", "2,0.0 0.0"), FileRule.FIGURE, None),
        (broken("420   -", "A+   -"), FileRule.ARTIFICIAL_ONE_SIDE, None),
        (broken("4S N 10", "- - -"), FileRule.NOT_PLAYED, None),
    ],
)
def test_a_bad_file_says_which_rule_and_which_line(
    text: str, rule: FileRule, line: int | None
) -> None:
    with pytest.raises(PbnError) as raised:
        read_pbn(text)
    assert raised.value.rule is rule
    if line is not None:
        assert raised.value.values["line"] == line
        assert str(raised.value).startswith(f"Line {line}")


def test_an_artificial_score_beside_a_contract_is_refused_with_the_engines_reason() -> None:
    with pytest.raises(PbnError) as raised:
        read_pbn(broken("420   -", "A+ A-"))
    assert raised.value.rule is FileRule.RESULT
    assert raised.value.values["broken"] == "real-and-artificial"


def test_a_file_with_too_many_results_is_refused() -> None:
    # Reading stops at the row too many, before it looks at who played what.
    rows = "1 1 2 Pass\n" * (MAX_RESULTS + 1)
    text = f'[Board "1"]\n[ScoreTable "Table;PairId_NS;PairId_EW;Contract"]\n{rows}'
    with pytest.raises(PbnError) as raised:
        read_pbn(text)
    assert raised.value.rule is FileRule.TOO_MANY_RESULTS


def test_a_file_too_large_is_refused_before_it_is_read() -> None:
    with pytest.raises(PbnError) as raised:
        read_pbn(b" " * (MAX_BYTES + 1))
    assert raised.value.rule is FileRule.TOO_LARGE


def check_reads_or_refuses(read: Callable[[], PbnFile]) -> None:
    """Reading gives a PbnError, or a file whose session scores and compares."""
    try:
        pbn = read()
    except PbnError as error:
        assert str(error)
        return
    differences(pbn)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=3000))
def test_random_bytes_are_refused_or_read(data: bytes) -> None:
    check_reads_or_refuses(lambda: read_pbn(data))


@settings(max_examples=100, deadline=None)
@given(st.text(st.sampled_from('[]"{};%\\ \n\r\t-?#ABNSEWPass0123456789.:^+='), max_size=400))
def test_text_made_of_pbn_pieces_is_refused_or_read(text: str) -> None:
    check_reads_or_refuses(lambda: read_pbn(text))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, len(STORED)))
def test_the_ffb_file_cut_anywhere_is_refused_or_read(end: int) -> None:
    check_reads_or_refuses(lambda: read_pbn(STORED[:end]))


ROW_LINES = [
    number
    for number, line in enumerate(TEXT.split("\n"))
    if line[:2].strip().isdigit() and '"' in line
]
tokens = st.sampled_from(
    ["-", "?", "0", "-1", "99", "100", "14", "A+", "A", "^A-", "7NTXX", "8S", "Pass", "X",
     '"', '"a b"', "N", "Q", "28.3", "1e9", "nan", "[", "]", ";", "{", "}", "é", ""]
)  # fmt: skip


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(ROW_LINES), st.integers(0, 13), tokens)
def test_the_ffb_file_with_a_row_value_changed_is_refused_or_read(
    number: int, column: int, token: str
) -> None:
    lines = TEXT.split("\n")
    values = lines[number].split()
    values[column % len(values)] = token
    lines[number] = " ".join(values)
    check_reads_or_refuses(lambda: read_pbn("\n".join(lines)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions(), st.data())
def test_a_written_file_with_a_character_changed_is_refused_or_read(
    session: SessionRecord, data: st.DataObject
) -> None:
    text = write_pbn(session)
    at = data.draw(st.integers(0, len(text) - 1))
    char = data.draw(st.sampled_from('[]"{};%\\ \n-?0129AX.'))
    check_reads_or_refuses(lambda: read_pbn(text[:at] + char + text[at + 1 :]))


def test_every_rule_a_file_can_break_has_its_sentence() -> None:
    for rule in FileRule:
        assert rule.english.endswith((".", "}")), rule


def test_hand_records_leave_out_the_boards_whose_hands_are_not_all_known() -> None:
    from scorekeeper.rules.pbn import read_hand_records

    full = "N:KQT6.AJT.T984.65 A2.K9876.72.9742 J543.43.AQ5.AKJ3 987.Q52.KJ63.QT8"
    text = (
        f'[Board "1"]\n[Deal "{full}"]\n\n'
        '[Board "2"]\n[Deal "E:- - - -"]\n\n'
        '[Board "3"]\n[Deal "N:KQT6.AJT.T984.65 - J543.43.AQ5.AKJ3 -"]\n\n'
        f'[Board "1"]\n[Deal "E:{full[2:]}"]\n'
    )
    deals = read_hand_records(text)
    assert list(deals) == [1] and deals[1].to_pbn() == full
    with pytest.raises(PbnError) as raised:
        read_hand_records('[Board "4"]\n[Deal "N:AKQ"]\n')
    assert raised.value.rule is FileRule.HANDS and raised.value.values["line"] == 2


@pytest.mark.parametrize(
    ("tag", "scoring"),
    [
        ("IMP;Cross", Scoring.CROSS_IMPS),
        ("IMP;Butler", Scoring.BUTLER),
        ("IMP", Scoring.CROSS_IMPS),  # the figures say which: ±10 IMPs, not Butler's ±6
    ],
)
def test_imps_are_read_as_the_scoring_tag_or_the_figures_say(tag: str, scoring: Scoring) -> None:
    text = f"""\
[Event "IMP pairs"]
[Board "1"]
[Scoring "{tag}"]
[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;Score_EW;IMP_NS;IMP_EW"]
1 2 4S N 10 420 - 10.00 -10.00
3 4 4S N 9 - 50 -10.00 10.00
"""
    pbn = read_pbn(text)
    assert pbn.session.scoring is scoring
    if scoring is Scoring.BUTLER:
        # Butler's datum gives ±6: the file's ±10 are not borne out.
        assert {d.figure for d in differences(pbn)} == {Figure.IMPS}
    else:
        assert differences(pbn) == []
