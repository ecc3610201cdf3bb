"""What a results file published, how its program scored it, and Scorekeeper's check: sessions
written in each club program's way by tests/rules/club_programs.py (a count of its own), read
back, the way recognised from the file's own figures and every published figure borne out by
it; the files of tests/data/bridge as those programs write them; the FFB file's ranking of the
whole event still told apart."""

from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.common import Side
from scorekeeper.rules.duplicate import Pair, Ranking, Scoring
from scorekeeper.rules.pbn import read_pbn
from scorekeeper.rules.published import (
    Added,
    Convention,
    Figure,
    FileCheck,
    LargerEvent,
    OutOf,
    Reason,
    Verdict,
    check,
    convention_of,
)
from scorekeeper.rules.usebio import UsebioFile, read_usebio, write_usebio
from tests.rules import club_programs as programs
from tests.rules.club_programs import (
    BUTLER_ALL,
    COMPSCORE,
    CROSS_IMPS,
    MAGIC_CONTEST,
    NEUBERG_EXACT,
    NOT_SCALED,
    Line,
    Played,
    Way,
)
from tests.rules.test_pbn import TEXT, whole_event

DATA = Path(__file__).resolve().parents[1] / "data" / "bridge"


def read(name: str) -> UsebioFile:
    return read_usebio((DATA / name).read_bytes())


def checked(usebio: UsebioFile) -> FileCheck:
    return check(usebio.session, usebio.published)


def verdicts(found: FileCheck) -> Counter[Verdict]:
    return Counter(figure.verdict for figure in found.figures)


# --- The files of tests/data/bridge --------------------------------------------------------------


def test_the_data_files_are_the_programs_files() -> None:
    for name, (data, _line) in programs.files().items():
        assert (DATA / name).read_bytes() == data, name
        assert f"`{name}`" in (DATA / "README.md").read_text(encoding="utf-8")


def test_compscores_howell_whose_pairs_1_and_3_played_26_of_27_boards() -> None:
    usebio = read("compscore_howell_12_pairs.xml")
    session = usebio.session
    assert (session.ranking, session.scoring, session.club) == (
        Ranking.ONE_FIELD,
        Scoring.MATCHPOINTS,
        "Riverside Bridge Club",
    )
    played = Counter(pair for r in session.results for pair in (r.ns, r.ew))
    assert {pair for pair, boards in played.items() if boards == 26} == {1, 3}
    assert set(played.values()) == {26, 27}
    found = checked(usebio)
    # Its travellers are out of each board's own top, its totals Neuberg-scaled and factored.
    assert found.convention == Convention(tops={4: 5}, added=Added.NEUBERG, factored=True)
    assert found.differences == ()
    assert found.larger_event is None
    # Every ranking line is Scorekeeper's own but the two factored totals; every place too.
    totals = {pair: found.standings[Pair(pair), Figure.TOTAL] for pair in range(1, 13)}
    assert {p for p, c in totals.items() if c.verdict is Verdict.EXPLAINED} == {1, 3}
    # (Board 4 is the one they did not play: nothing else about their boards differs.)
    assert [dict(n.values) for n in totals[1].notes] == [{"pair": "1", "played": 26, "boards": 27}]
    assert totals[1].own is not None
    assert abs(totals[1].published - totals[1].own * 27 / 26) <= Decimal("0.01")
    for pair in range(1, 13):
        for figure in (Figure.PERCENTAGE, Figure.RANK):
            assert found.standings[Pair(pair), figure].verdict is Verdict.CONFIRMED
    # Board 4's five lines: the file's raw matchpoints out of 8, Scorekeeper's out of 10.
    board_4 = [c for c in found.figures if c.board == 4 and c.figure is Figure.MATCHPOINTS]
    assert len(board_4) == 10 and {c.verdict for c in board_4} == {Verdict.EXPLAINED}
    assert all(c.notes[0].reason is Reason.NOT_SCALED for c in board_4)
    assert {c.published for c in board_4} <= {Decimal(n) for n in range(9)}


def test_compscores_mitchell_of_19_tables_with_a_directors_award() -> None:
    usebio = read("compscore_mitchell_19_tables.xml")
    session = usebio.session
    assert session.ranking is Ranking.BY_DIRECTION
    results = Counter(r.board for r in session.results)
    assert set(results.values()) == {18, 19}
    found = checked(usebio)
    assert found.differences == ()
    short = {b for b, n in results.items() if n == 18}
    real = Counter(r.board for r in session.results if not r.is_artificial)
    assert found.convention.tops == {b: real[b] for b in short | {1}}
    assert (found.convention.added, found.convention.factored) == (Added.NEUBERG, True)
    # The A5050 line of board 1 keeps the 23 and 11 (of 34) the file gives it; Scorekeeper's
    # own count gives an average, 18 and 18 of 36.
    index = next(i for i, r in enumerate(session.results) if r.board == 1 and r.is_artificial)
    north, east = found.lines[index, Side.NS], found.lines[index, Side.EW]
    assert (north.published, east.published) == (Decimal(23), Decimal(11))
    assert (north.own, east.own) == (Decimal(18), Decimal(18))
    assert north.verdict is Verdict.EXPLAINED
    assert Reason.ARTIFICIAL in [note.reason for note in north.notes]
    artificial = [note for note in found.notes if note.reason is Reason.ARTIFICIAL]
    assert [dict(note.values) for note in artificial] == [
        {"board": 1, "table": 1, "ns": Decimal(23), "ew": Decimal(11)}
    ]
    assert verdicts(found)[Verdict.DIFFERS] == 0


def test_ebuscores_mitchell_of_6_tables_with_boards_of_4_to_6_results() -> None:
    usebio = read("ebuscore_mitchell_6_tables.xml")
    session = usebio.session
    assert set(Counter(r.board for r in session.results).values()) == {4, 5, 6}
    found = checked(usebio)
    assert found.differences == ()
    assert (found.convention.added, found.convention.factored) == (Added.NEUBERG, True)
    factored = {note.values["pair"] for note in found.notes if note.reason is Reason.FACTORED}
    assert len(factored) >= 4


def test_a_butler_howell_is_ranked_by_its_published_imps_and_each_datum_explained() -> None:
    usebio = read("ebuscore_butler_howell.xml")
    session = usebio.session
    assert session.scoring is Scoring.BUTLER
    found = checked(usebio)
    assert found.differences == ()
    assert len(found.convention.data) > 10
    own = session.score()
    # Scorekeeper's own datums give other IMPs, and another order, than the file's.
    own_order = [s.pair for s in own.standings()]
    published_order = [line.pair for line in usebio.published.standings]
    assert own_order != published_order
    explained = [c for c in found.figures if c.verdict is Verdict.EXPLAINED]
    assert {note.reason for c in explained for note in c.notes} <= {Reason.DATUM, Reason.PLACES}
    assert all(
        found.standings[line.pair, Figure.RANK].verdict is not Verdict.DIFFERS
        for line in usebio.published.standings
    )


def test_a_cross_imp_howell_is_read_as_cross_imps_and_borne_out() -> None:
    usebio = read("compscore_cross_imps_howell.xml")
    assert usebio.session.scoring is Scoring.CROSS_IMPS
    found = checked(usebio)
    assert found.differences == ()
    assert found.convention.rounding == 2
    first = usebio.published.results[0]
    assert first.imp_ns is not None and -first.imp_ns == first.imp_ew


@pytest.mark.parametrize("name", sorted(programs.files()))
def test_a_data_file_written_again_keeps_what_it_published(name: str) -> None:
    usebio = read(name)
    again = read_usebio(write_usebio(usebio.session, published=usebio.published))
    assert again.session == usebio.session
    assert again.published.results == usebio.published.results
    assert again.published.standings == usebio.published.standings
    assert checked(again) == checked(usebio)


def test_a_two_player_pair_reads_as_the_pairs_names() -> None:
    usebio = read("compscore_howell_12_pairs.xml")
    assert usebio.session.names[Pair(1)] == "Mary Walker - Frank Kowalski"
    written = write_usebio(usebio.session, published=usebio.published).decode()
    assert "<PLAYER_NAME>Mary Walker</PLAYER_NAME>" in written
    assert written.count("<PLAYER>") == 24


# --- Sessions of every shape, in every program's way ---------------------------------------------

CODES = [("60", "40"), ("40", "60"), ("50", "50"), ("60", "60"), ("40", "40")]


@st.composite
def played_sessions(draw: st.DrawFn) -> Played:
    """A Howell or a Mitchell of 2 to 6 tables whose boards have different numbers of results
    (pairs miss boards), a few of them artificial; some pairs named."""
    mitchell = draw(st.booleans())
    tables = draw(st.integers(2, 6))
    lines: list[Line] = []
    boards = draw(st.integers(2, 6))
    for board in range(1, boards + 1):
        played = draw(st.integers(2 if board == 1 else 1, tables))
        if mitchell:
            north = draw(st.permutations(range(1, tables + 1)))
            east = draw(st.permutations(range(1, tables + 1)))
            seats = list(zip(north, east, strict=True))
        else:
            order = draw(st.permutations(range(1, 2 * tables + 1)))
            seats = [(order[2 * i], order[2 * i + 1]) for i in range(tables)]
        for ns, ew in seats[:played]:
            if draw(st.integers(0, 9)) == 0:
                lines.append(Line(board, ns, ew, artificial=draw(st.sampled_from(CODES))))
                continue
            contract, tricks = draw(st.sampled_from(programs.CONTRACTS))
            if contract == "PASS":
                lines.append(Line(board, ns, ew, "PASS"))
                continue
            tricks = max(0, min(13, tricks + draw(st.integers(-2, 2))))
            declarer = draw(st.sampled_from("NESW"))
            lines.append(Line(board, ns, ew, contract, declarer, tricks))
    return Played(tuple(lines), mitchell=mitchell)


MATCHPOINT_WAYS = [COMPSCORE, MAGIC_CONTEST, NOT_SCALED, NEUBERG_EXACT]


def expected_tops(played: Played, way: Way) -> dict[int, int]:
    """The boards a file written ``way`` counts out of another top than the field's: with
    travellers out of their own top, each board with fewer real results than the busiest has
    lines (and at least one real result)."""
    if way.scoring != "mp" or way.travellers != "own":
        return {}
    lines = Counter(line.board for line in played.lines)
    real = Counter(line.board for line in played.lines if line.artificial is None)
    most = max(lines.values())
    return {board: real[board] for board in lines if 0 < real[board] < most}


def stated(played: Played, way: Way) -> Convention:
    """The way the file was written, as a :class:`Convention` states it."""
    tops = expected_tops(played, way)
    if way.scoring == "butler":
        boards: dict[int, list[int]] = defaultdict(list)
        for line in played.lines:
            if line.score is not None:
                boards[line.board].append(line.score)
        return Convention(data={board: programs.mean_datum(s) for board, s in boards.items()})
    return Convention(
        tops=tops,
        added=Added.NEUBERG if way.totals == "neuberg" and tops else Added.TRAVELLERS,
        rounding=way.added_places,
        factored=way.factored,
        out_of=OutOf.SESSION if way.percentage == "session" else OutOf.PLAYED,
    )


def assert_borne_out(found: FileCheck) -> None:
    """Every published figure is Scorekeeper's own, or the file's way of scoring gives it."""
    assert found.differences == ()
    assert all(c.verdict is not Verdict.DIFFERS for c in found.figures)
    for c in found.figures:
        if c.verdict is Verdict.EXPLAINED:
            assert c.counted is not None and c.own != c.published


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_sessions(), st.sampled_from(MATCHPOINT_WAYS))
def test_a_file_in_any_programs_way_is_recognised_and_borne_out(played: Played, way: Way) -> None:
    usebio = read_usebio(programs.usebio(played, way))
    found = checked(usebio)
    assert found.convention.tops == expected_tops(played, way)
    assert_borne_out(found)
    # Counted in the way the file was written, every figure is the file's.
    assert_borne_out(check(usebio.session, usebio.published, stated(played, way)))
    # Where the session has boards of another top, the way's totals are told apart.
    figures = programs.score(played, way)
    if found.convention.tops and way.totals == "neuberg":
        assert found.convention.added is Added.NEUBERG or all(
            c.verdict is Verdict.CONFIRMED for c in found.figures if c.pair is not None
        )
    # Published places are the file's own ranking, each borne out.
    assert [line.pair for line in usebio.published.standings] == [
        Pair(number, Side(direction) if direction else None)
        for (direction, number), *_rest in figures.ranking
    ]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_sessions(), st.sampled_from([BUTLER_ALL, CROSS_IMPS]))
def test_a_file_in_imps_is_recognised_and_borne_out(played: Played, way: Way) -> None:
    usebio = read_usebio(programs.usebio(played, way))
    assert usebio.session.scoring is (
        Scoring.BUTLER if way.scoring == "butler" else Scoring.CROSS_IMPS
    )
    found = checked(usebio)
    assert found.convention.tops == {}
    assert_borne_out(found)
    assert_borne_out(check(usebio.session, usebio.published, stated(played, way)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_sessions())
def test_a_compscore_file_factors_the_totals_of_pairs_that_played_fewer_boards(
    played: Played,
) -> None:
    usebio = read_usebio(programs.usebio(played, COMPSCORE))
    found = checked(usebio)
    fewer = Counter(pair for line in played.lines for pair in played.pairs_of(line))
    most = max(fewer.values())
    factored = {note.values["pair"] for note in found.notes if note.reason is Reason.FACTORED}
    if found.convention.factored:
        assert factored == {
            f"{direction}{number}" for (direction, number), boards in fewer.items() if boards < most
        }
    assert_borne_out(found)


# --- What the file says a ranking is -------------------------------------------------------------


def test_the_ffb_files_ranking_of_the_whole_event_is_still_told_apart() -> None:
    pbn = read_pbn(whole_event(TEXT))
    found = check(pbn.session, pbn.published)
    assert found.larger_event == LargerEvent(boards=180, session_boards=30)
    assert found.standings == {}
    assert found.differences == ()
    # The session's own figures are still checked, and Magic Contest's way recognised.
    assert convention_of(pbn.session, pbn.published) == Convention()
    assert verdicts(found)[Verdict.CONFIRMED] > 1300


def test_a_factored_total_is_not_taken_for_a_larger_event() -> None:
    usebio = read("compscore_howell_12_pairs.xml")
    line = usebio.published.standing_of(Pair(1))
    assert line is not None and line.boards == 26
    # Published a bigger total for 27 boards than the 26 it played: still this session's.
    assert checked(usebio).larger_event is None
    doubled = dataclasses.replace(
        usebio.published,
        standings=tuple(
            dataclasses.replace(s, total=(s.total or 0) * 2, boards=54)
            for s in usebio.published.standings
        ),
    )
    assert check(usebio.session, doubled).larger_event == LargerEvent(boards=54, session_boards=27)
