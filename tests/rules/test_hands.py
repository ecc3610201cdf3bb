"""Hand records: deals read and written in PBN's notation, the double-dummy table, par, and
the opening lead checked against the hands.

Par is checked against two other programs: Bo Haglund's DDS (through endplay's own par, in
tests/data/hands/dds_par.json: 120 deals, each vulnerability and dealer), and Magic Contest,
whose FFB results file carries each board's double-dummy table and par (tests/data/bridge).
"""

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.bridge import Contract, Strain, Vulnerability
from scorekeeper.rules.cards import Card, Suit
from scorekeeper.rules.common import Seat
from scorekeeper.rules.hands import (
    Deal,
    DoubleDummyTable,
    HandError,
    HandRule,
    Par,
    ParContract,
    card_text,
    check_lead,
    deck,
    double_dummy,
    double_dummy_tables,
    opening_leader,
    par,
    parse_card,
    solver_available,
)

DATA = Path(__file__).parent.parent / "data"
EXAMPLE = "N:KQT6.AJT.T984.65 A2.K9876.72.9742 J543.43.AQ5.AKJ3 987.Q52.KJ63.QT8"
SEATS = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)


def strain_of(letter: str) -> Strain:
    return Strain.NOTRUMP if letter in ("N", "NT") else Strain(letter)


def written(contract: ParContract) -> str:
    """A par contract as the reference files write it: "4SX E 8"."""
    strain = contract.contract.strain.value[0]
    doubled = "X" * contract.contract.doubled
    return f"{contract.contract.level}{strain}{doubled} {contract.declarer.value} {contract.tricks}"


# --- Deals -----------------------------------------------------------------------------------


def test_the_issue_example_deal() -> None:
    deal = Deal.from_pbn(EXAMPLE)
    assert deal.hand(Seat.NORTH) == ("KQT6", "AJT", "T984", "65")
    assert deal.hand(Seat.WEST) == ("987", "Q52", "KJ63", "QT8")
    assert deal.to_pbn() == EXAMPLE
    assert sum(deal.high_card_points(seat) for seat in SEATS) == 40


def test_a_deal_written_from_another_seat_is_the_same_deal() -> None:
    text = "E:Q3.A92.A863.AQ97 T7.KT6.T94.KJT83 A9652.J5.KQJ5.52 KJ84.Q8743.72.64"
    deal = Deal.from_pbn(text)
    assert deal.first is Seat.EAST and deal.to_pbn() == text
    assert deal.hand(Seat.EAST) == ("Q3", "A92", "A863", "AQ97")
    assert deal.hand(Seat.NORTH) == ("KJ84", "Q8743", "72", "64")
    from_north = Deal.from_pbn(
        "N:KJ84.Q8743.72.64 Q3.A92.A863.AQ97 T7.KT6.T94.KJT83 A9652.J5.KQJ5.52"
    )
    assert from_north.hands == deal.hands


def test_case_spaces_and_rank_order_do_not_matter() -> None:
    messy = "  n:qkt6.ajt.8t94.65   A2.K9876.72.9742 J543.43.AQ5.AKJ3   987.Q52.KJ63.QT8 "
    assert Deal.from_pbn(messy).to_pbn() == EXAMPLE


@pytest.mark.parametrize(
    ("text", "rule", "values"),
    [
        ("", HandRule.DEAL_TEXT, {"value": ""}),
        (
            "KQT6.AJT.T984.65 A2.K9876.72.9742 J543.43.AQ5.AKJ3 987.Q52.KJ63.QT8",
            HandRule.DEAL_TEXT,
            None,
        ),
        (
            "X:KQT6.AJT.T984.65 A2.K9876.72.9742 J543.43.AQ5.AKJ3 987.Q52.KJ63.QT8",
            HandRule.DEAL_TEXT,
            None,
        ),
        ("N:KQT6.AJT.T984.65 A2.K9876.72.9742 J543.43.AQ5.AKJ3", HandRule.DEAL_TEXT, None),
        (
            "N:KQT6.AJT.T984 A2.K9876.72.9742 J543.43.AQ5.AKJ3 987.Q52.KJ63.QT8",
            HandRule.DEAL_TEXT,
            None,
        ),
        (
            "N:KQT6.AJT.T984.65 - J543.43.AQ5.AKJ3 987.Q52.KJ63.QT8",
            HandRule.HAND_MISSING,
            {"seat": "East"},
        ),
        (
            "N:KQ106.AJT.T984.65 A2.K9876.72.9742 J543.43.AQ5.AKJ3 987.Q52.KJ63.QT8",
            HandRule.RANK,
            {"seat": "North", "suit": "spades", "value": "KQ106"},
        ),
        (
            "N:KQT6.AJT.T984.652 A2.K9876.72.974 J543.43.AQ5.AKJ3 987.Q52.KJ63.QT8",
            HandRule.HAND_SIZE,
            {"seat": "North", "count": 14},
        ),
        (
            "N:KQT6.AJT.T984.65 A2.K9876.72.9742 J543.43.AQ5.AKJ3 987.Q52.KJ63.QT5",
            HandRule.CARD_TWICE,
            {"card": "5♣"},
        ),
        (
            "N:KQT6.AJT.T984.65 A2.K9876.72.9742 J543.43.AQ5.AKJ3 987.Q52.KJ63.QTT",
            HandRule.CARD_TWICE,
            None,
        ),
    ],
)
def test_a_deal_that_cannot_be_says_why(
    text: str, rule: HandRule, values: dict[str, object] | None
) -> None:
    with pytest.raises(HandError) as caught:
        Deal.from_pbn(text)
    assert caught.value.rule is rule
    assert isinstance(caught.value, ValueError) and str(caught.value)
    if values is not None:
        assert dict(caught.value.values) == values


@given(st.randoms(use_true_random=False), st.sampled_from(SEATS))
def test_any_deal_reads_back_what_it_writes(chance: random.Random, first: Seat) -> None:
    deal = Deal.at_random(chance, first)
    again = Deal.from_pbn(deal.to_pbn())
    assert again == deal
    cards = [
        (suit, rank)
        for seat in SEATS
        for suit, ranks in enumerate(deal.hand(seat))
        for rank in ranks
    ]
    assert len(cards) == len(set(cards)) == 52
    assert sum(deal.high_card_points(seat) for seat in SEATS) == 40


def test_the_same_seed_deals_the_same() -> None:
    first = [Deal.at_random(random.Random(9)) for _ in range(2)]
    assert first[0] == first[1]
    assert Deal.at_random(random.Random(10)) != first[0]


# --- The opening lead ---------------------------------------------------------------------------

LEFT_HAND_OPPONENT = {"N": "E", "E": "S", "S": "W", "W": "N"}
"""Who leads against each declarer: the next seat clockwise (Law 41A)."""


def held_in_text(pbn: str, seat: str, card: Card) -> bool:
    """Whether the deal's PBN text gives ``card`` to ``seat``: read from the text itself, the
    hands clockwise from the seat named first, each spades.hearts.diamonds.clubs."""
    first, hands = pbn.split(":")
    order = "NESW"
    position = (order.index(seat) - order.index(first)) % 4
    suits = hands.split()[position].split(".")
    rank = {14: "A", 13: "K", 12: "Q", 11: "J", 10: "T"}.get(card.rank, str(card.rank))
    return rank in suits["SHDC".index(card.suit.value)]


def test_the_issue_example_lead_from_the_wrong_hand() -> None:
    deal = Deal.from_pbn(EXAMPLE)
    with pytest.raises(HandError) as caught:
        check_lead(deal, Seat.SOUTH, Card(3, Suit.SPADES))  # South's own spade: J543
    assert caught.value.rule is HandRule.LEAD_NOT_HELD
    assert str(caught.value) == "The 3♠ lead is not in West's hand: check the declarer."
    assert caught.value.values["leader"] is Seat.WEST
    assert caught.value.values["holder"] is Seat.SOUTH
    check_lead(deal, Seat.SOUTH, Card(9, Suit.SPADES))  # West's 987
    # Against North, East leads: its spades are A2.
    check_lead(deal, Seat.NORTH, Card(14, Suit.SPADES))
    with pytest.raises(HandError, match="not in East's hand"):
        check_lead(deal, Seat.NORTH, Card(3, Suit.SPADES))


@given(
    st.randoms(use_true_random=False),
    st.sampled_from(SEATS),
    st.sampled_from(SEATS),
    st.sampled_from(deck()),
)
def test_a_lead_is_refused_exactly_when_the_left_hand_opponent_does_not_hold_it(
    chance: random.Random, first: Seat, declarer: Seat, card: Card
) -> None:
    deal = Deal.at_random(chance, first)
    pbn = deal.to_pbn()
    leader = LEFT_HAND_OPPONENT[declarer.value]
    assert opening_leader(declarer).value == leader
    if held_in_text(pbn, leader, card):
        check_lead(deal, declarer, card)
    else:
        with pytest.raises(HandError) as caught:
            check_lead(deal, declarer, card)
        assert caught.value.rule is HandRule.LEAD_NOT_HELD
        assert caught.value.values["card"] == str(card)
        assert caught.value.values["leader"].value == leader
        holder = caught.value.values["holder"]
        assert holder.value != leader and held_in_text(pbn, holder.value, card)
    # Each declarer's lead is one of the 13 cards of one hand, and the four hands share the
    # deck between them.
    accepted = {seat: {lead for lead in deck() if not _refused(deal, seat, lead)} for seat in SEATS}
    assert all(len(cards) == 13 for cards in accepted.values())
    assert set().union(*accepted.values()) == set(deck())


def _refused(deal: Deal, declarer: Seat, lead: Card) -> bool:
    try:
        check_lead(deal, declarer, lead)
    except HandError:
        return True
    return False


def test_the_deck_is_52_cards_spades_first_aces_high() -> None:
    cards = deck()
    assert len(set(cards)) == 52
    assert [str(card) for card in cards[:3]] == ["A♠", "K♠", "Q♠"]
    assert str(cards[-1]) == "2♣"


@pytest.mark.parametrize("card", deck())
def test_a_card_reads_back_as_results_files_write_it(card: Card) -> None:
    text = card_text(card)
    assert len(text) == 2 and text[0] in "SHDC" and text[1] in "AKQJT98765432"
    assert parse_card(text) == card
    assert parse_card(text.lower()) == card
    assert parse_card(card.suit.symbol + text[1]) == card


@pytest.mark.parametrize("text", ["S10", "s10", " ♠10 ", "ST"])
def test_the_ten_is_read_either_way(text: str) -> None:
    assert parse_card(text) == Card(10, Suit.SPADES)


@pytest.mark.parametrize("text", ["", "S", "S1", "X3", "3S", "S11", "SAK", "10", None])
def test_a_card_that_cannot_be_says_why(text: object) -> None:
    with pytest.raises(HandError) as caught:
        parse_card(text)  # type: ignore[arg-type]
    assert caught.value.rule is HandRule.CARD_TEXT


# --- The double-dummy table ----------------------------------------------------------------------


def test_a_table_is_kept_in_twenty_figures() -> None:
    table = DoubleDummyTable.from_text("796a844634797a844634")
    assert table.tricks(Seat.NORTH, Strain.SPADES) == 10
    assert table.tricks(Seat.EAST, Strain.HEARTS) == 6
    assert table.tricks(Seat.WEST, Strain.NOTRUMP) == 4
    assert DoubleDummyTable.from_text(table.to_text()) == table


@pytest.mark.parametrize("text", ["", "796a844634797a84463", "796a844634797a84463e", 20, "x" * 20])
def test_a_table_that_cannot_be_is_refused(text: object) -> None:
    with pytest.raises(HandError) as caught:
        DoubleDummyTable.from_text(text)  # type: ignore[arg-type]
    assert caught.value.rule is HandRule.TABLE_TEXT


def test_the_solver_is_installed_with_the_test_extras() -> None:
    assert solver_available()


def test_the_issue_example_solved() -> None:
    table = double_dummy(Deal.from_pbn(EXAMPLE))
    assert table.tricks(Seat.NORTH, Strain.SPADES) == 10
    result = par(table, Vulnerability.NONE, dealer=Seat.NORTH)
    assert result == Par(
        420,
        (
            ParContract(Contract(4, Strain.SPADES), Seat.NORTH, 10),
            ParContract(Contract(4, Strain.SPADES), Seat.SOUTH, 10),
        ),
    )


def test_no_deal_no_work() -> None:
    assert double_dummy_tables([]) == []


# --- Par against DDS ------------------------------------------------------------------------


REFERENCE = json.loads((DATA / "hands" / "dds_par.json").read_text())["deals"]


def reference_table(record: dict[str, Any]) -> DoubleDummyTable:
    return DoubleDummyTable.from_tricks(
        {
            (Seat(seat), strain_of(strain)): tricks
            for seat, row in record["tricks"].items()
            for strain, tricks in row.items()
        }
    )


@pytest.mark.parametrize("number", range(len(REFERENCE)))
def test_par_agrees_with_dds_for_every_vulnerability_and_dealer(number: int) -> None:
    record = REFERENCE[number]
    table = reference_table(record)
    for key, expected in record["par"].items():
        vulnerability, dealer = key.split()
        found = par(table, Vulnerability(vulnerability), dealer=Seat(dealer))
        assert found.score == expected["score"], key
        assert sorted(map(written, found.contracts)) == expected["contracts"], key


def test_the_solver_agrees_with_dds_own_tables() -> None:
    sample = REFERENCE[:12]
    tables = double_dummy_tables(Deal.from_pbn(record["deal"]) for record in sample)
    assert tables == [reference_table(record) for record in sample]


def test_a_passed_out_board_has_par_zero_and_no_contract() -> None:
    # Every declarer takes six tricks in every strain: nothing makes, for either side.
    table = DoubleDummyTable(((6,) * 5,) * 4)
    assert par(table, Vulnerability.ALL, dealer=Seat.SOUTH) == Par(0, ())


# --- Par against Magic Contest (the FFB session) -----------------------------------------------


def ffb_boards() -> list[dict[str, str]]:
    text = (DATA / "bridge" / "ffb_2022_dn1_s1.pbn").read_text(encoding="latin-1")
    boards = []
    for block in re.split(r'\n(?=\[Board ")', text)[1:]:
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', block, re.MULTILINE))
        rows = re.search(r"\[OptimumResultTable[^\n]*\n((?:[NESW] +\w+ +\d+(?:\n|$))+)", block)
        assert rows is not None
        tags["rows"] = rows.group(1)
        boards.append(tags)
    return boards


FFB = ffb_boards()


def ffb_table(board: dict[str, str]) -> DoubleDummyTable:
    tricks = {}
    for row in board["rows"].splitlines():
        seat, strain, n = row.split()
        tricks[Seat(seat), strain_of(strain)] = int(n)
    return DoubleDummyTable.from_tricks(tricks)


def test_the_ffb_file_has_thirty_analysed_boards() -> None:
    assert len(FFB) == 30
    assert all("OptimumScore" in board and "Deal" in board for board in FFB)


def test_the_solver_gives_magic_contests_tables() -> None:
    tables = double_dummy_tables(Deal.from_pbn(board["Deal"]) for board in FFB)
    assert tables == [ffb_table(board) for board in FFB]


@pytest.mark.parametrize("index", range(30))
def test_par_gives_magic_contests_optimum(index: int) -> None:
    board = FFB[index]
    found = par(ffb_table(board), Vulnerability(board["Vulnerable"]), dealer=Seat(board["Dealer"]))
    side, points = board["OptimumScore"].split()
    assert found.score == (int(points) if side == "NS" else -int(points))
    # Magic Contest names one par contract, at a level of its own choosing ("5S W 11" where
    # DDS says 4S+1): its strain, declarer, doubling and tricks are among ours.
    contract, declarer, tricks = board["OptimumContract"].split()
    named = (strain_of(contract[1:].rstrip("X")), Seat(declarer), "X" in contract, int(tricks))
    ours = {
        (c.contract.strain, c.declarer, c.contract.doubled == 1, c.tricks) for c in found.contracts
    }
    assert named in ours
