"""French Tarot's scoring against RULES.md §5: its worked deals, and properties over every deal a
table can enter, each held to a count written here."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.tarot import (
    Camp,
    Chelem,
    Contract,
    Poignee,
    TarotDeal,
    TarotError,
    TarotSheet,
    deal_marks,
    dealer,
    first_to_speak,
    score_deal,
    target,
)

MULTIPLIER = {"prise": 1, "garde": 2, "garde-sans": 4, "garde-contre": 6}
POIGNEE = {"simple": 20, "double": 30, "triple": 40}
CHELEM = {"announced-made": 400, "made": 200, "announced-failed": -200, "defence": -200}
NEEDED = {0: 56, 1: 51, 2: 41, 3: 36}


def test_the_worked_deals_of_the_rule_book() -> None:
    garde = TarotDeal(4, 0, Contract.GARDE, bouts=2, points=49)
    assert deal_marks(garde) == (198, -66, -66, -66)
    prise = TarotDeal(4, 0, Contract.PRISE, bouts=1, points=47, petit_au_bout=Camp.DEFENCE)
    assert deal_marks(prise) == (-117, 39, 39, 39)
    poignee = ((Camp.TAKER, Poignee.SIMPLE),)
    sans = TarotDeal(5, 0, Contract.GARDE_SANS, 3, 52, partner=1, poignees=poignee)
    assert deal_marks(sans) == (368, 184, -184, -184, -184)
    short = TarotDeal(3, 0, Contract.GARDE, 2, Fraction(81, 2))
    assert (score_deal(short).counted, deal_marks(short)) == (40, (-104, 52, 52))
    double = ((Camp.DEFENCE, Poignee.DOUBLE),)
    exactly = TarotDeal(4, 0, Contract.GARDE, 1, 51, poignees=double)
    assert deal_marks(exactly) == (240, -80, -80, -80)
    # The FFT's other half point: 41.5 with 2 bouts is 42, made by 1.
    assert score_deal(TarotDeal(5, 0, Contract.PRISE, 2, 41.5)).counted == 42


def test_what_cannot_have_happened_is_refused() -> None:
    for impossible in (
        {"players": 4, "bouts": 4, "points": 50},
        {"players": 4, "bouts": 1, "points": 92},
        {"players": 4, "bouts": 1, "points": 50, "partner": 2},
        {"players": 4, "bouts": 1, "points": Fraction(101, 2)},
        {"players": 4, "bouts": 1, "points": 50.5},
        {"players": 3, "bouts": 1, "points": Fraction(201, 4)},
        {"players": 6, "bouts": 1, "points": 50},
        {"players": 3, "bouts": 1, "points": -1},
    ):
        with pytest.raises(TarotError) as raised:
            TarotDeal(taker=0, contract=Contract.PRISE, **impossible)  # type: ignore[arg-type]
        assert isinstance(raised.value, ValueError) and str(raised.value)
    with pytest.raises(TarotError):
        TarotDeal(5, 5, Contract.PRISE, 1, 50)
    with pytest.raises(TarotError):
        TarotDeal(5, 0, "petite-garde", 1, 50)  # type: ignore[arg-type]
    with pytest.raises(TarotError):
        TarotDeal(5, 0, Contract.PRISE, 1, 50, poignees=(("taker", "quadruple"),))  # type: ignore[arg-type]
    assert [target(bouts) for bouts in range(4)] == [56, 51, 41, 36]


@st.composite
def deals(draw: st.DrawFn) -> TarotDeal:
    players = draw(st.sampled_from([3, 4, 5]))
    halves = players != 4
    points = draw(st.integers(0, 182 if halves else 91))
    return TarotDeal(
        players,
        taker=draw(st.integers(0, players - 1)),
        contract=draw(st.sampled_from(list(Contract))),
        bouts=draw(st.integers(0, 3)),
        points=Fraction(points, 2) if halves else points,
        partner=draw(st.none() | st.integers(0, players - 1)) if players == 5 else None,
        petit_au_bout=draw(st.none() | st.sampled_from(list(Camp))),
        poignees=tuple(
            draw(st.lists(st.tuples(st.sampled_from(list(Camp)), st.sampled_from(list(Poignee)))))
        ),
        chelem=draw(st.none() | st.sampled_from(list(Chelem))),
    )


@given(deals())
def test_every_deal_is_scored_as_the_rule_book_says(deal: TarotDeal) -> None:
    points = Fraction(deal.points)
    needed = NEEDED[deal.bouts]
    made = points >= needed
    # The half point goes to the side that wins the deal.
    counted = math.ceil(points) if made else math.floor(points)
    sign = 1 if made else -1
    multiplier = MULTIPLIER[deal.contract.value]
    value = sign * (25 + abs(counted - needed)) * multiplier
    if deal.petit_au_bout is not None:
        value += (10 if deal.petit_au_bout == "taker" else -10) * multiplier
    value += sign * sum(POIGNEE[poignee.value] for _camp, poignee in deal.poignees)
    value += CHELEM[deal.chelem.value] if deal.chelem is not None else 0
    scored = score_deal(deal)
    assert (scored.made, scored.counted, scored.value) == (made, counted, value)

    marks = deal_marks(deal)
    assert sum(marks) == 0
    assert len(marks) == deal.players
    partner = deal.partner if deal.partner != deal.taker else None
    defenders = [seat for seat in range(deal.players) if seat not in (deal.taker, partner)]
    assert all(marks[seat] == -value for seat in defenders)
    # The taker's mark, a multiple of a defender's: 2 at 3 players, 3 at 4, at 5 2 with a
    # partner (who has 1) and 4 alone.
    times = {3: 2, 4: 3}.get(deal.players, 2 if partner is not None else 4)
    assert marks[deal.taker] == -times * marks[defenders[0]]
    if partner is not None:
        assert marks[partner] == -marks[defenders[0]]


@given(
    st.sampled_from([3, 4, 5]).flatmap(
        lambda players: st.tuples(st.just(players), st.integers(0, players - 1))
    ),
    st.lists(deals(), max_size=12),
)
def test_a_sheet_adds_the_marks_up_and_passes_the_deal_to_the_right(
    table: tuple[int, int], played: list[TarotDeal]
) -> None:
    players, first = table
    entered: list[TarotDeal | None] = [
        TarotDeal(players, deal.taker % players, deal.contract, deal.bouts, int(deal.points))
        for deal in played
    ]
    entered[::3] = [None] * len(entered[::3])  # every third deal all passed
    sheet = TarotSheet(players, first=first, deals=tuple(entered))
    running = [0] * players
    for deal, totals in zip(entered, sheet.totals, strict=True):
        if deal is not None:
            running = [r + m for r, m in zip(running, deal_marks(deal), strict=True)]
        assert totals == tuple(running)
    assert sheet.standing == tuple(running)
    assert sheet.places == tuple(1 + sum(o > mine for o in running) for mine in running)
    seat = first
    for number in range(1, len(entered) + 2):
        assert dealer(first, number, players) == sheet.dealer_of(number) == seat
        assert first_to_speak(seat, players) == (seat - 1) % players
        seat = (seat - 1) % players  # the seat to the dealer's right deals next
    assert sheet.next_dealer == dealer(first, len(entered) + 1, players)
    # A game counts as it stood after its last whole turn of the deal.
    whole = len(entered) // players * players
    if whole == 0:
        assert sheet.after_last_turn is None
    else:
        at_turn = [0] * players
        for deal in entered[:whole]:
            if deal is not None:
                at_turn = [t + m for t, m in zip(at_turn, deal_marks(deal), strict=True)]
        places = tuple(1 + sum(o > mine for o in at_turn) for mine in at_turn)
        assert sheet.after_last_turn == (tuple(at_turn), places)
