"""Rubber bridge and Chicago (RULES.md §2): whole rubbers and wheels, with the pad a player
would write worked out by hand beside each one."""

import pytest

from scorekeeper.rules.bridge import (
    BySide,
    Contract,
    ContractError,
    DealError,
    Honours,
    PadEntry,
    PadItem,
    Rounding,
    RubberDeal,
    RubberGame,
    RubberOverError,
    Seat,
    Side,
    Vulnerability,
    chicago_vulnerability,
    contract_score,
    score_chicago,
    score_rubber,
    settle_in_hundreds,
)


def deal(side: str, contract: str, tricks: int, honours: Honours | None = None) -> RubberDeal:
    return RubberDeal(Side(side), Contract.parse(contract), tricks, honours)


# A rubber won 2-1 by East-West, lost on points by North-South.
#
# deal  dealer vul   contract          result                    NS pad         EW pad
#  1    N      none  NS 2♥             9 tricks                  60 below, 30   -
#  2    E      none  EW 3NT            9 tricks: game 1, EW      -              100 below
#  3    S      EW    NS 1NT            7 tricks                  40 below       -
#  4    W      EW    NS 2♠             8: 40 + 60 = 100, game 2  60 below       -
#  5    N      all   EW 4♥X (South     8 tricks: down 2 vul X    500, 100       -
#                    holds A K Q 10♥)  (200 + 300); NS honours
#  6    E      all   passed out        -                         -              -
#  7    S      all   EW 4♠             11 tricks: game 3, EW     -              120 below, 30
#                                      wins 2-1                                 500 rubber
#
# NS: below 60 + 40 + 60 = 160; above 30 + 500 + 100 = 630; total 790.
# EW: below 100 + 120 = 220; above 30 + 500 = 530; total 750.
RUBBER_2_1 = [
    deal("NS", "2H", 9),
    deal("EW", "3NT", 9),
    deal("NS", "1NT", 7),
    deal("NS", "2S", 8),
    deal("EW", "4HX", 8, Honours(Side.NS, 100)),
    RubberDeal.passed_out(),
    deal("EW", "4S", 11),
]


def test_a_rubber_won_2_1_as_written_on_the_pad() -> None:
    rubber = score_rubber(RUBBER_2_1)
    assert rubber.finished
    assert rubber.games_won == BySide(1, 2)
    assert [(game.below, game.winner) for game in rubber.games] == [
        (BySide((60,), (100,)), Side.EW),
        (BySide((40, 60), ()), Side.NS),
        (BySide((), (120,)), Side.EW),
    ]
    assert [(entry.points, entry.item, entry.deal) for entry in rubber.above.ns] == [
        (30, PadItem.OVERTRICKS, 1),
        (500, PadItem.UNDERTRICKS, 5),
        (100, PadItem.HONOURS, 5),
    ]
    assert [(entry.points, entry.item, entry.deal) for entry in rubber.above.ew] == [
        (30, PadItem.OVERTRICKS, 7),
        (500, PadItem.RUBBER, 7),
    ]
    assert rubber.rubber_bonus == PadEntry(500, PadItem.RUBBER, 7)
    assert rubber.unfinished == BySide((), ())
    assert rubber.totals == BySide(790, 750)
    assert rubber.winner is Side.NS  # the larger total wins the rubber (Law 74)


def test_each_deal_of_the_rubber_knows_its_dealer_vulnerability_and_points() -> None:
    rubber = score_rubber(RUBBER_2_1)
    assert [d.dealer.value for d in rubber.deals] == ["N", "E", "S", "W", "N", "E", "S"]
    assert [d.vulnerability.value for d in rubber.deals] == [
        "None",
        "None",
        "EW",
        "EW",
        "All",
        "All",
        "All",
    ]
    assert [(d.points.ns, d.points.ew) for d in rubber.deals] == [
        (90, 0),
        (0, 100),
        (40, 0),
        (60, 0),
        (600, 0),
        (0, 0),
        (0, 650),
    ]
    assert [d.game_won_by for d in rubber.deals] == [
        None,
        Side.EW,
        None,
        Side.NS,
        None,
        None,
        Side.EW,
    ]
    assert rubber.next_dealer is Seat.WEST


def test_a_deal_after_the_rubber_ended_is_refused() -> None:
    with pytest.raises(RubberOverError, match="ended on deal 7; deal 8"):
        score_rubber([*RUBBER_2_1, deal("NS", "1C", 7)])
    with pytest.raises(ValueError):
        score_rubber([*RUBBER_2_1, RubberDeal.passed_out()])


def test_a_rubber_won_2_0_earns_700() -> None:
    # NS 4♠ making 10 (120 below), then NS, vulnerable now, 6♦X making 12: 240 below, insult
    # 50, small slam 750. NS: 120 + 240 + 50 + 750 + 700 = 1860.
    rubber = score_rubber([deal("NS", "4S", 10), deal("NS", "6DX", 12)])
    assert rubber.finished and rubber.games_won == BySide(2, 0)
    assert [(e.points, e.item) for e in rubber.above.ns] == [
        (50, PadItem.INSULT),
        (750, PadItem.SLAM),
        (700, PadItem.RUBBER),
    ]
    assert rubber.totals == BySide(1860, 0)
    assert rubber.winner is Side.NS


def test_an_unfinished_rubber_scores_300_for_the_only_game_and_100_per_part_score() -> None:
    # deal 1 NS 4♠ making 10: 120 below, game. Deal 2 EW 2♣ making 8: 40 below.
    # Deal 3 NS 1NT making 7: 40 below. Play stops: NS won the only game (300) and both
    # sides have a part-score in the game in progress (100 each).
    # NS 120 + 40 + 300 + 100 = 560; EW 40 + 100 = 140.
    rubber = score_rubber([deal("NS", "4S", 10), deal("EW", "2C", 8), deal("NS", "1NT", 7)])
    assert not rubber.finished and rubber.rubber_bonus is None
    assert rubber.games[-1] == RubberGame(BySide((40,), (40,)), None)
    assert rubber.vulnerable is Vulnerability.NS
    assert rubber.unfinished == BySide(
        (
            PadEntry(300, PadItem.UNFINISHED_GAME, None),
            PadEntry(100, PadItem.UNFINISHED_PART_SCORE, None),
        ),
        (PadEntry(100, PadItem.UNFINISHED_PART_SCORE, None),),
    )
    assert rubber.totals == BySide(560, 140)
    assert rubber.winner is Side.NS


def test_an_unfinished_rubber_at_one_game_all_has_no_300() -> None:
    rubber = score_rubber([deal("NS", "3NT", 9), deal("EW", "5C", 11)])
    assert rubber.games_won == BySide(1, 1) and not rubber.finished
    assert rubber.totals == BySide(100, 100)
    assert rubber.winner is None


def test_an_empty_rubber() -> None:
    rubber = score_rubber([])
    assert rubber.totals == BySide(0, 0) and not rubber.finished
    assert len(rubber.games) == 1 and rubber.vulnerable is Vulnerability.NONE


def test_a_part_score_is_wiped_for_game_purposes_by_the_other_side_s_game() -> None:
    # NS 2♠ (60), EW 4♥ (game), NS 2♠ again: 60, not 120, in the new game.
    rubber = score_rubber([deal("NS", "2S", 8), deal("EW", "4H", 10), deal("NS", "2S", 8)])
    assert rubber.games_won == BySide(0, 1)
    assert rubber.games[-1].below == BySide((60,), ())
    assert rubber.totals == BySide(60 + 60 + 100, 120 + 300)


def test_honours_count_for_the_defenders_and_the_four_aces_only_at_no_trump() -> None:
    rubber = score_rubber([deal("NS", "3NT", 8, Honours(Side.EW, 150))])
    assert [(e.points, e.item) for e in rubber.above.ew] == [
        (50, PadItem.UNDERTRICKS),
        (150, PadItem.HONOURS),
    ]
    with pytest.raises(DealError, match="four aces"):
        deal("NS", "3NT", 9, Honours(Side.NS, 100))


def test_bad_deals_are_refused() -> None:
    with pytest.raises(DealError, match="passed-out"):
        RubberDeal(Side.NS, None, 0)
    with pytest.raises(DealError, match="passed-out"):
        RubberDeal(None, None, 0, Honours(Side.NS, 100))
    with pytest.raises(DealError, match="NS or EW"):
        RubberDeal("N", Contract.parse("1C"), 7)  # type: ignore[arg-type]
    with pytest.raises(ContractError, match="from 0 to 13, not 14"):
        RubberDeal(Side.NS, Contract.parse("1C"), 14)
    with pytest.raises(DealError, match="100 or 150"):
        Honours(Side.NS, 120)
    with pytest.raises(DealError, match="Contract"):
        RubberDeal(Side.NS, "4S", 10)  # type: ignore[arg-type]


# --- Chicago ---


def test_chicago_vulnerability_deals_2_and_3_are_the_dealer_s_side() -> None:
    # North deals first: deal 2 is East's (EW vulnerable), deal 3 South's (NS vulnerable).
    by_number = {n: chicago_vulnerability(n, Seat.NORTH.after(n - 1)) for n in range(1, 9)}
    assert [v.value for v in by_number.values()] == [
        "None",
        "EW",
        "NS",
        "All",
        "None",
        "EW",
        "NS",
        "All",
    ]
    assert chicago_vulnerability(2, Seat.SOUTH) is Vulnerability.NS  # East dealt first


# A wheel of four deals, North dealing first.
#
# deal  dealer vul   contract   result                                     NS     EW
#  1    N      none  NS 2♠      8 tricks: 60, part-score 60                 60     -
#  2    E      EW    NS 2♦      9 tricks: 40 + 20; 60 + 40 = 100 completes 360     -
#                               a game, NS not vulnerable: + 300
#  3    S      NS    EW 1NT     8 tricks: 40 + 30; part-score EW 40         -      70
#  4    W      all   NS 3♣      9 tricks: 60, part-score without game:     160     -
#                               + 100
# Totals: NS 580, EW 70.
WHEEL = [deal("NS", "2S", 8), deal("NS", "2D", 9), deal("EW", "1NT", 8), deal("NS", "3C", 9)]


def test_a_chicago_wheel_carries_a_part_score_into_a_game_and_pays_100_on_deal_4() -> None:
    chicago = score_chicago(WHEEL)
    assert [(d.points.ns, d.points.ew) for d in chicago.deals] == [
        (60, 0),
        (360, 0),
        (0, 70),
        (160, 0),
    ]
    assert [d.game_won_by for d in chicago.deals] == [None, Side.NS, None, None]
    assert [(d.part_scores.ns, d.part_scores.ew) for d in chicago.deals] == [
        (60, 0),
        (0, 0),
        (0, 40),
        (0, 0),  # the wheel is over: nothing carries into the next one
    ]
    assert [d.vulnerability.value for d in chicago.deals] == ["None", "EW", "NS", "All"]
    assert chicago.totals == BySide(580, 70)
    assert chicago.wheel_complete
    assert (chicago.next_number, chicago.next_dealer) == (5, Seat.NORTH)
    assert chicago.next_vulnerability is Vulnerability.NONE


def test_a_chicago_game_wipes_both_part_scores_and_a_passed_out_deal_is_dealt_again() -> None:
    # 1 N none: NS 2♠ 8 tricks, 60.           2 E EW: EW 4♥ 10 tricks, 120 + 500 = 620.
    # 3 S NS: NS 2♠ 8 tricks, 60 (not 120: EW's game wiped the first 60), honours NS 100.
    # passed out, West deals again, all vulnerable.
    # 4 W all: EW 1NT 7 tricks, 40 + 100 (part-score on deal 4).
    # 5 N none: NS 2♠ 8 tricks, 60, a new wheel: the 60 of deal 3 is gone.
    # NS 60 + 160 + 60 = 280; EW 620 + 140 = 760.
    chicago = score_chicago(
        [
            deal("NS", "2S", 8),
            deal("EW", "4H", 10),
            deal("NS", "2S", 8, Honours(Side.NS, 100)),
            RubberDeal.passed_out(),
            deal("EW", "1NT", 7),
            deal("NS", "2S", 8),
        ]
    )
    assert [(d.number, d.dealer.value, d.vulnerability.value) for d in chicago.deals] == [
        (1, "N", "None"),
        (2, "E", "EW"),
        (3, "S", "NS"),
        (4, "W", "All"),
        (4, "W", "All"),
        (5, "N", "None"),
    ]
    assert [(d.points.ns, d.points.ew) for d in chicago.deals] == [
        (60, 0),
        (0, 620),
        (160, 0),
        (0, 0),
        (0, 140),
        (60, 0),
    ]
    assert chicago.deals[2].part_scores == BySide(60, 0)
    assert chicago.deals[-1].part_scores == BySide(60, 0)
    assert chicago.totals == BySide(280, 760)
    assert not chicago.wheel_complete and chicago.next_vulnerability is Vulnerability.EW


def test_chicago_undertricks_and_slams_follow_the_deal_s_vulnerability() -> None:
    # Deal 1 none: EW 4♠X down 2 not vulnerable, NS 300. Deal 2 (East, EW vulnerable):
    # EW 6♥ making 12: 180 + 750 slam + 500 game = 1430.
    chicago = score_chicago([deal("EW", "4SX", 8), deal("EW", "6H", 12)])
    assert chicago.totals == BySide(300, 1430)


def test_chicago_scored_as_duplicate_scores_each_deal_alone() -> None:
    # 2♠ 8 nv 110; 2♦ 9 nv 40 + 20 + 50 = 110; EW 1NT 8 nv 120; 3♣ 9 vul 110.
    chicago = score_chicago(WHEEL, as_duplicate=True)
    assert [(d.points.ns, d.points.ew) for d in chicago.deals] == [
        (110, 0),
        (110, 0),
        (0, 120),
        (110, 0),
    ]
    assert chicago.totals == BySide(330, 120)
    assert all(d.part_scores == BySide(0, 0) for d in chicago.deals)
    assert chicago.deals[0].points.ns == contract_score(2, "S", 0, False, 8)


def test_chicago_with_another_first_dealer() -> None:
    chicago = score_chicago(WHEEL, first_dealer=Seat.EAST)
    assert [d.vulnerability.value for d in chicago.deals] == ["None", "NS", "EW", "All"]
    # Deal 2 dealt by South: NS vulnerable complete their game for 500.
    assert chicago.deals[1].points.ns == 40 + 20 + 500


# Deal 4 completes a game carried from deal 2: the game bonus, and no 100 for the part-score.
#
# deal  dealer vul   contract   result                                     NS     EW
#  1    N      none  EW 3NT     9 tricks: 100 + 300 game                    -     400
#  2    E      EW    NS 2♥      8 tricks: part-score 60                     60     -
#  3    S      NS    EW 2♣      7 tricks: down 1, EW not vulnerable         50     -
#  4    W      all   NS 2♠      8 tricks: 60 + 60 = 120 completes a game,  560     -
#                               vulnerable: 60 + 500, no 100
# Totals: NS 670, EW 400.
def test_a_game_completed_on_deal_4_earns_the_game_bonus_and_not_the_100() -> None:
    wheel = [deal("EW", "3NT", 9), deal("NS", "2H", 8), deal("EW", "2C", 7), deal("NS", "2S", 8)]
    chicago = score_chicago(wheel)
    assert [(d.points.ns, d.points.ew) for d in chicago.deals] == [
        (0, 400),
        (60, 0),
        (50, 0),
        (560, 0),
    ]
    assert chicago.totals == BySide(670, 400)
    # The same deal 4 one trick short: 100 to EW (all vulnerable), and no 100 to anyone.
    defeated = score_chicago([*wheel[:3], deal("NS", "2S", 7)])
    assert defeated.deals[3].points == BySide(0, 100)


def test_a_doubled_part_score_that_makes_game_is_a_game() -> None:
    # 2♥ doubled, 8 tricks: 2 × 60 = 120 trick points, a game; 50 for the insult.
    rubber = score_rubber([deal("NS", "2HX", 8)])
    assert rubber.games == (
        RubberGame(BySide((120,), ()), Side.NS),
        RubberGame(BySide((), ()), None),
    )
    assert rubber.above.ns == (PadEntry(50, PadItem.INSULT, 1),)
    # Chicago, deal 1 none vulnerable: 120 + 50 + 300 = 470, as duplicate.
    assert score_chicago([deal("NS", "2HX", 8)]).deals[0].points == BySide(470, 0)
    assert contract_score(2, "H", 1, False, 8) == 470


@pytest.mark.parametrize("number", [0, -3, 1.0, True])
def test_chicago_deals_are_numbered_from_1(number: object) -> None:
    with pytest.raises(DealError):
        chicago_vulnerability(number, Seat.NORTH)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("margin", "fifty_up", "fifty_down"),
    [(950, 10, 9), (-950, -10, -9), (50, 1, 0), (-50, -1, 0), (951, 10, 10), (949, 9, 9)],
)
def test_an_exact_fifty_settles_as_the_table_chose(
    margin: int, fifty_up: int, fifty_down: int
) -> None:
    # RULES.md §4: to the nearest hundred, an exact 50 up or down as the evening chose.
    assert settle_in_hundreds(margin, Rounding.FIFTY_UP) == fifty_up
    assert settle_in_hundreds(margin, Rounding.FIFTY_DOWN) == fifty_down
    assert settle_in_hundreds(margin) == fifty_up  # unless the table says otherwise
