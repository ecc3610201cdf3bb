"""The bridge engine against Law 77, the IMP scale, the 16-board cycle and the examples of
RULES.md §2; the tables below are written out from the Laws, not from the engine."""

import re
from dataclasses import FrozenInstanceError

import pytest

from scorekeeper.rules.bridge import (
    Artificial,
    BoardError,
    BoardResult,
    Contract,
    ContractError,
    ContractPoints,
    PairsResult,
    Seat,
    Side,
    Strain,
    Vulnerability,
    board_dealer,
    board_vulnerability,
    butler_datum,
    butler_imps,
    contract_points,
    contract_score,
    imps,
    matchpoints,
    neuberg,
    score_board,
    score_pairs_session,
    score_team_match,
    session_percentage,
    session_total,
    team_board_imps,
    victory_points,
)

STRAINS = ("C", "D", "H", "S", "NT")

# --- Law 77, written out ---

# Trick score of the contract, undoubled, by level 1..7.
TRICK_SCORE = {
    "C": [20, 40, 60, 80, 100, 120, 140],
    "D": [20, 40, 60, 80, 100, 120, 140],
    "H": [30, 60, 90, 120, 150, 180, 210],
    "S": [30, 60, 90, 120, 150, 180, 210],
    "NT": [40, 70, 100, 130, 160, 190, 220],
}
TRICK_MULTIPLIER = {0: 1, 1: 2, 2: 4}  # doubled ×2, redoubled ×4
OVERTRICK = {  # (doubled, vulnerable) -> points per overtrick; undoubled is the trick value
    (1, False): 100,
    (1, True): 200,
    (2, False): 200,
    (2, True): 400,
}
UNDOUBLED_OVERTRICK = {"C": 20, "D": 20, "H": 30, "S": 30, "NT": 30}
PART_SCORE = 50
GAME = {False: 300, True: 500}
SMALL_SLAM = {False: 500, True: 750}
GRAND_SLAM = {False: 1000, True: 1500}
INSULT = {0: 0, 1: 50, 2: 100}
# Total penalty for 1, 2, ... 13 undertricks, by (doubled, vulnerable).
UNDERTRICKS = {
    (0, False): [50, 100, 150, 200, 250, 300, 350, 400, 450, 500, 550, 600, 650],
    (1, False): [100, 300, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500],
    (2, False): [200, 600, 1000, 1600, 2200, 2800, 3400, 4000, 4600, 5200, 5800, 6400, 7000],
    (0, True): [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300],
    (1, True): [200, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500, 3800],
    (2, True): [400, 1000, 1600, 2200, 2800, 3400, 4000, 4600, 5200, 5800, 6400, 7000, 7600],
}


def law_77(level: int, strain: str, doubled: int, vulnerable: bool, tricks: int) -> int:
    """The duplicate score read off the tables above."""
    needed = 6 + level
    if tricks < needed:
        return -UNDERTRICKS[(doubled, vulnerable)][needed - tricks - 1]
    trick_score = TRICK_SCORE[strain][level - 1] * TRICK_MULTIPLIER[doubled]
    score = trick_score + (GAME[vulnerable] if trick_score >= 100 else PART_SCORE)
    score += {6: SMALL_SLAM[vulnerable], 7: GRAND_SLAM[vulnerable]}.get(level, 0)
    score += INSULT[doubled]
    per_overtrick = OVERTRICK.get((doubled, vulnerable), UNDOUBLED_OVERTRICK[strain])
    return score + (tricks - needed) * per_overtrick


@pytest.mark.parametrize(
    ("level", "strain", "doubled", "vulnerable", "tricks", "score"),
    [
        (4, "S", 0, True, 10, 620),
        (3, "NT", 0, False, 9, 400),
        (3, "NT", 1, False, 6, -500),
        (7, "NT", 2, True, 13, 2980),
        (1, "NT", 0, False, 7, 90),
        (2, "H", 1, False, 8, 470),
        (1, "C", 2, False, 7, 230),
        (1, "C", 2, True, 7, 230),
        (6, "S", 0, True, 12, 1430),
        (4, "H", 1, True, 9, -200),
        (3, "NT", 0, False, 8, -50),
        (3, "NT", 0, True, 8, -100),
        (4, "S", 1, False, 6, -800),
        (4, "S", 2, True, 8, -1000),
        (2, "S", 0, False, 9, 140),
        (3, "H", 0, True, 10, 170),
        (5, "D", 0, False, 11, 400),
        (6, "NT", 0, False, 12, 990),
        (7, "S", 0, True, 13, 2210),
        (7, "NT", 0, False, 13, 1520),
        (1, "NT", 1, False, 8, 280),
        (2, "C", 1, False, 8, 180),
        (3, "C", 1, False, 9, 470),
        (1, "S", 2, True, 8, 1120),
        (4, "S", 0, False, 11, 450),
        (3, "NT", 0, True, 11, 660),
        (7, "NT", 2, True, 0, -7600),
    ],
)
def test_published_contract_scores(
    level: int, strain: str, doubled: int, vulnerable: bool, tricks: int, score: int
) -> None:
    assert contract_score(level, strain, doubled, vulnerable, tricks) == score


@pytest.mark.parametrize("strain", STRAINS)
@pytest.mark.parametrize("doubled", [0, 1, 2])
@pytest.mark.parametrize("vulnerable", [False, True], ids=["nv", "vul"])
def test_every_cell_of_the_law_77_table(strain: str, doubled: int, vulnerable: bool) -> None:
    for level in range(1, 8):
        for tricks in range(14):
            expected = law_77(level, strain, doubled, vulnerable, tricks)
            got = contract_score(level, strain, doubled, vulnerable, tricks)
            assert got == expected, (level, strain, doubled, vulnerable, tricks)


@pytest.mark.parametrize("strain", STRAINS)
def test_trick_score_table(strain: str) -> None:
    for level in range(1, 8):
        for doubled, multiplier in TRICK_MULTIPLIER.items():
            contract = Contract(level, Strain(strain), doubled)
            assert contract.trick_points == TRICK_SCORE[strain][level - 1] * multiplier


def test_games_are_3nt_4_of_a_major_5_of_a_minor_or_a_doubled_part_score() -> None:
    contracts = [Contract(level, Strain(s)) for s in STRAINS for level in range(1, 8)]
    games = {str(contract) for contract in contracts if contract.is_game}
    assert {"3NT", "4♥", "4♠", "5♣", "5♦"} <= games
    assert "2NT" not in games and "3♠" not in games and "4♦" not in games
    assert Contract(2, Strain.HEARTS, 1).is_game and not Contract(1, Strain.CLUBS, 2).is_game


def test_contract_points_split_a_made_contract_into_its_items() -> None:
    assert contract_points(Contract(4, Strain.SPADES, 1), vulnerable=False, tricks=11) == (
        ContractPoints(trick_points=240, overtricks=100, insult=50)
    )
    assert contract_points(Contract(7, Strain.NOTRUMP), vulnerable=True, tricks=13).slam == 1500
    defeated = contract_points(Contract(3, Strain.NOTRUMP), vulnerable=True, tricks=7)
    assert not defeated.made and defeated.undertricks == 200 and defeated.bonuses == 0


def test_contracts_parse_as_players_write_them() -> None:
    assert Contract.parse("3NX") == Contract(3, Strain.NOTRUMP, 1)
    assert Contract.parse(" 7 nt xx ") == Contract(7, Strain.NOTRUMP, 2)
    assert Contract.parse("4♠") == Contract(4, Strain.SPADES)
    assert Contract.parse("3SA") == Contract(3, Strain.NOTRUMP)
    assert str(Contract(5, Strain.DIAMONDS, 2)) == "5♦XX"
    for text in ("", "S4", "8S", "0NT", "4SXXX", "4Z", "10C", "NT"):
        with pytest.raises(ContractError):
            Contract.parse(text)


def test_a_contract_is_frozen() -> None:
    contract = Contract(4, Strain.HEARTS)
    with pytest.raises(FrozenInstanceError):
        contract.level = 5  # type: ignore[misc]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((8, "S", 0, False, 10), "The level must be from 1 to 7, not 8."),
        ((0, "S", 0, False, 10), "The level must be from 1 to 7, not 0."),
        ((True, "S", 0, False, 10), "The level must be from 1 to 7, not True."),
        ((1.5, "S", 0, False, 10), "The level must be from 1 to 7, not 1.5."),
        (("3", "S", 0, False, 10), "The level must be from 1 to 7, not '3'."),
        ((3, "X", 0, False, 9), "The strain must be one of C, D, H, S, NT, not 'X'."),
        ((3, "N", 0, False, 9), "The strain must be one of C, D, H, S, NT, not 'N'."),
        ((3, "nt", 0, False, 9), "The strain must be one of C, D, H, S, NT, not 'nt'."),
        ((3, None, 0, False, 9), "The strain must be one of C, D, H, S, NT, not None."),
        ((3, 4, 0, False, 9), "The strain must be one of C, D, H, S, NT, not 4."),
        (
            (3, "NT", 3, False, 9),
            "Doubled must be 0 (not doubled), 1 (doubled) or 2 (redoubled), not 3.",
        ),
        (
            (3, "NT", -1, False, 9),
            "Doubled must be 0 (not doubled), 1 (doubled) or 2 (redoubled), not -1.",
        ),
        (
            (3, "NT", True, False, 9),
            "Doubled must be 0 (not doubled), 1 (doubled) or 2 (redoubled), not True.",
        ),
        (
            (3, "NT", 1.0, False, 9),
            "Doubled must be 0 (not doubled), 1 (doubled) or 2 (redoubled), not 1.0.",
        ),
        ((3, "NT", 0, 1, 9), "Vulnerable must be true or false, not 1."),
        ((3, "NT", 0, "yes", 9), "Vulnerable must be true or false, not 'yes'."),
        ((3, "NT", 0, None, 9), "Vulnerable must be true or false, not None."),
        ((3, "NT", 0, False, 14), "The tricks taken must be from 0 to 13, not 14."),
        ((3, "NT", 0, False, -1), "The tricks taken must be from 0 to 13, not -1."),
        ((3, "NT", 0, False, 9.0), "The tricks taken must be from 0 to 13, not 9.0."),
        ((3, "NT", 0, False, True), "The tricks taken must be from 0 to 13, not True."),
    ],
)
def test_bad_contract_entries_raise_a_value_error_fit_for_a_page(
    arguments: tuple[object, ...], message: str
) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        contract_score(*arguments)  # type: ignore[arg-type]
    with pytest.raises(ContractError):
        contract_score(*arguments)  # type: ignore[arg-type]


def test_the_strain_may_be_given_as_the_enum() -> None:
    assert contract_score(4, Strain.SPADES, 0, True, 10) == 620


# --- Boards ---

# RULES.md §2: board 1 North none, 2 East NS, 3 South EW, 4 West all, ...
CYCLE = [
    (1, "N", "None"),
    (2, "E", "NS"),
    (3, "S", "EW"),
    (4, "W", "All"),
    (5, "N", "NS"),
    (6, "E", "EW"),
    (7, "S", "All"),
    (8, "W", "None"),
    (9, "N", "EW"),
    (10, "E", "All"),
    (11, "S", "None"),
    (12, "W", "NS"),
    (13, "N", "All"),
    (14, "E", "None"),
    (15, "S", "NS"),
    (16, "W", "EW"),
]


@pytest.mark.parametrize(("board", "dealer", "vulnerable"), CYCLE)
def test_each_board_of_the_16_board_cycle(board: int, dealer: str, vulnerable: str) -> None:
    for lap in range(4):
        assert board_dealer(board + 16 * lap) == dealer
        assert board_vulnerability(board + 16 * lap) == vulnerable


def test_dealer_and_vulnerability_are_strings_too() -> None:
    assert board_dealer(2) is Seat.EAST and f"{board_dealer(2)}" == "E"
    assert board_vulnerability(4) is Vulnerability.ALL and f"{board_vulnerability(1)}" == "None"


@pytest.mark.parametrize("board", [0, -3, 1.0, "1", True, None])
def test_a_board_number_is_a_whole_number_from_1(board: object) -> None:
    with pytest.raises(ValueError, match="Boards are numbered from 1"):
        board_dealer(board)  # type: ignore[arg-type]
    with pytest.raises(BoardError):
        board_vulnerability(board)  # type: ignore[arg-type]


def test_vulnerability_of_a_side() -> None:
    table = {
        Vulnerability.NONE: (False, False),
        Vulnerability.NS: (True, False),
        Vulnerability.EW: (False, True),
        Vulnerability.ALL: (True, True),
    }
    for vulnerability, (ns, ew) in table.items():
        assert vulnerability.is_vulnerable(Side.NS) is ns
        assert vulnerability.is_vulnerable(Side.EW) is ew
        assert Vulnerability.from_sides(ns=ns, ew=ew) is vulnerability


# --- IMPs ---

# Law 78B, written out: (lowest difference, highest difference, IMPs).
IMP_SCALE = [
    (0, 10, 0),
    (20, 40, 1),
    (50, 80, 2),
    (90, 120, 3),
    (130, 160, 4),
    (170, 210, 5),
    (220, 260, 6),
    (270, 310, 7),
    (320, 360, 8),
    (370, 420, 9),
    (430, 490, 10),
    (500, 590, 11),
    (600, 740, 12),
    (750, 890, 13),
    (900, 1090, 14),
    (1100, 1290, 15),
    (1300, 1490, 16),
    (1500, 1740, 17),
    (1750, 1990, 18),
    (2000, 2240, 19),
    (2250, 2490, 20),
    (2500, 2990, 21),
    (3000, 3490, 22),
    (3500, 3990, 23),
    (4000, 7600, 24),
]


@pytest.mark.parametrize(("low", "high", "expected"), IMP_SCALE)
def test_every_band_of_the_imp_scale(low: int, high: int, expected: int) -> None:
    for difference in range(low, high + 10, 10):
        assert imps(difference) == expected
        assert imps(-difference) == -expected


def test_imps_between_multiples_of_ten_take_the_band_below() -> None:
    assert [imps(d) for d in (15, 19, 45, 49, 425, 429, 3999, 99999)] == [0, 0, 1, 1, 9, 9, 23, 24]


@pytest.mark.parametrize("difference", [1.5, "20", True, None])
def test_imps_of_a_non_whole_number_is_refused(difference: object) -> None:
    with pytest.raises(ValueError, match="whole number"):
        imps(difference)  # type: ignore[arg-type]


def test_team_board_imps_are_from_team_a_s_view() -> None:
    # Team A: 4♠ vulnerable made at table 1 (NS +620); its East-West at table 2 let the
    # opponents stop in 3♠ (NS +170): A gains 450, 10 IMPs.
    assert team_board_imps(620, 170) == 10
    assert team_board_imps(170, 620) == -10
    assert team_board_imps(-100, -100) == 0


def test_a_team_match_adds_the_imps_of_each_side() -> None:
    match = score_team_match([(620, 170), (-100, 140), (420, 420), (-1430, -1430), (50, -600)])
    assert match.board_imps == (10, -6, 0, 0, 12)
    assert (match.imps_a, match.imps_b, match.margin) == (22, 6, 16)
    # 5 boards, B = 15 × √5 = 33.54; 16 IMPs: 10 + 10 × (1 − τ^1.431) / (1 − τ³) = 16.52.
    assert match.victory_points == (16.52, 3.48)
    with pytest.raises(BoardError):
        score_team_match([])


# --- WBF victory points ---


def test_victory_points_of_a_drawn_match_are_ten_each() -> None:
    for boards in (1, 8, 16, 24, 32, 64):
        assert victory_points(0, boards) == (10.0, 10.0)


def test_victory_points_of_16_boards_by_the_formula() -> None:
    # B = 15 × √16 = 60; VP = 10 + 10 × (1 − τ^(m/20)) / (1 − τ³), τ = 0.6180...
    # m = 1: τ^0.05 = 0.976227, so 10 + 10 × 0.023773 / 0.763932 = 10.311 -> 10.31.
    # m = 10: τ^0.5 = 0.786151, so 10 + 10 × 0.213849 / 0.763932 = 12.799 -> 12.80.
    # m = 30: τ^1.5 = 0.485868, so 10 + 10 × 0.514132 / 0.763932 = 16.730 -> 16.73.
    assert victory_points(1, 16) == (10.31, 9.69)
    assert victory_points(10, 16) == (12.8, 7.2)
    assert victory_points(30, 16) == (16.73, 3.27)
    assert victory_points(-30, 16) == (3.27, 16.73)


def test_the_first_cells_of_the_wbf_16_board_table() -> None:
    # The WBF's published scale for 16-board matches, margins 0 to 10 and 20 IMPs.
    published = [10.0, 10.31, 10.61, 10.91, 11.2, 11.48, 11.76, 12.03, 12.29, 12.55, 12.8]
    assert [victory_points(margin, 16)[0] for margin in range(11)] == published
    assert victory_points(20, 16) == (15.0, 5.0)


def test_the_blitz_margin_and_beyond_win_20_to_0() -> None:
    assert victory_points(60, 16) == (20.0, 0.0)  # 15 × √16
    assert victory_points(200, 16) == (20.0, 0.0)
    assert victory_points(-61, 16) == (0.0, 20.0)
    assert victory_points(45, 9) == (20.0, 0.0)  # 15 × √9
    assert victory_points(44, 9)[0] < 20


def test_a_rounding_bump_is_smoothed_as_the_wbf_scale_is() -> None:
    # 16 boards: rounded to two decimals, 13, 14 and 15 IMPs give 13.52, 13.74 and 13.97, so
    # the 15th IMP would gain 0.23 after the 14th gained 0.22; the scale raises 14 to 13.75.
    # (13 IMPs: 10 + 10 × (1 − τ^0.65) / (1 − τ³) = 13.516; 14: 13.744; 15: 13.966.)
    assert [victory_points(m, 16)[0] for m in (13, 14, 15)] == [13.52, 13.75, 13.97]


@pytest.mark.parametrize(("margin", "boards"), [(1.5, 16), (True, 16), (3, 0), (3, 2.0)])
def test_victory_points_refuse_bad_entries(margin: object, boards: object) -> None:
    with pytest.raises(ValueError):
        victory_points(margin, boards)  # type: ignore[arg-type]


# --- Butler ---


def test_butler_datum_drops_the_top_and_bottom_of_five_or_more_results() -> None:
    # [-100, 400, 420, 450, 1430] -> mean of 400, 420, 450 = 423.3 -> 420.
    assert butler_datum([420, 450, 400, -100, 1430]) == 420
    assert butler_imps([420, 450, 400, -100, 1430]) == [0, 1, -1, -11, 14]


def test_butler_datum_of_a_few_results_is_their_mean_rounded_to_ten() -> None:
    assert butler_datum([420]) == 420
    assert butler_datum([100, 110]) == 110  # 105, away from zero
    assert butler_datum([-100, -110]) == -110
    assert butler_datum([620, 620, -100, 170]) == 330  # 327.5
    with pytest.raises(BoardError):
        butler_datum([])


# --- Matchpoints ---


def test_matchpoints_two_per_lower_score_one_per_equal_score() -> None:
    # Board 1 of the real session, five of its North-South scores.
    assert matchpoints([420, 400, 170, -50, 420]) == [7.0, 4.0, 2.0, 0.0, 7.0]
    assert matchpoints([100]) == [0.0]
    assert matchpoints([]) == []


def test_matchpoints_refuse_a_non_whole_score() -> None:
    with pytest.raises(BoardError):
        matchpoints([420, 420.5])  # type: ignore[list-item]


def test_neuberg_ebu_example() -> None:
    assert neuberg(27, 22, 21) == pytest.approx(28.333, abs=0.001)
    assert round(neuberg(27, 22, 21), 2) == 28.33


def test_neuberg_gives_an_average_to_an_average() -> None:
    # The middle of 11 results (10 of 20) scaled to 22 expected is the middle of 42: 21.
    assert neuberg(10, 22, 11) == 21


@pytest.mark.parametrize(
    ("points", "expected", "obtained"),
    [(27, 21, 22), (41, 22, 21), (-1, 22, 21), (3, 22, 0), (3, 22.0, 21), ("3", 22, 21)],
)
def test_neuberg_refuses_impossible_figures(
    points: object, expected: object, obtained: object
) -> None:
    with pytest.raises(BoardError):
        neuberg(points, expected, obtained)  # type: ignore[arg-type]


def test_a_full_board_is_matchpointed_plainly() -> None:
    scored = score_board([420, 400, 420, -50])
    assert [(m.ns, m.ew, m.top) for m in scored] == [
        (5.0, 1.0, 6),
        (2.0, 4.0, 6),
        (5.0, 1.0, 6),
        (0.0, 6.0, 6),
    ]
    assert round(scored[0].ns_percentage, 2) == 83.33


def test_an_artificial_result_scores_its_own_share_for_each_side() -> None:
    # N = 4 expected, top 6; the three real results are Neuberg-scaled from 3 to 4.
    scored = score_board([420, 400, 170, BoardResult.adjusted("A-", "A+")])
    assert [(m.ns, m.ew) for m in scored] == [(5.7, 0.3), (3.0, 3.0), (0.3, 5.7), (2.4, 3.6)]
    assert (scored[3].ns_percentage, scored[3].ew_percentage) == (40.0, 60.0)


def test_a_board_played_fewer_times_than_expected_is_neuberg_scaled() -> None:
    # Two results out of four expected: M = 2 -> (2 + 1) × 4 / 2 − 1 = 5; M = 0 -> 1.
    scored = score_board([110, -50], expected=4)
    assert [(m.ns, m.ew, m.top) for m in scored] == [(5.0, 1.0, 6), (1.0, 5.0, 6)]


def test_a_passed_out_board_scores_zero_and_is_matchpointed_like_any_result() -> None:
    assert [m.ns for m in score_board([0, 0, -50, 110])] == [3.0, 3.0, 0.0, 6.0]


def test_board_results_are_checked() -> None:
    assert BoardResult.adjusted(Artificial.AVERAGE, "A=").artificial_ew is Artificial.AVERAGE
    with pytest.raises(BoardError, match="not both"):
        BoardResult(420, Artificial.AVERAGE_PLUS, Artificial.AVERAGE_PLUS)
    with pytest.raises(BoardError, match="both sides"):
        BoardResult(None, Artificial.AVERAGE_PLUS)
    with pytest.raises(BoardError, match="A\\+, A= or A-"):
        BoardResult.adjusted("A", "A+")
    with pytest.raises(BoardError, match="expects"):
        score_board([420, 400], expected=1)
    with pytest.raises(BoardError):
        score_board(["420"])  # type: ignore[list-item]


def test_session_total_adds_the_published_figures_and_gives_a_percentage() -> None:
    assert session_total([28.3, 13.7, 25.2, 12.6]) == 79.8
    assert session_percentage(79.8, 4 * 42) == 47.5
    assert session_percentage(771.2, 30 * 42) == 61.21  # 61.2063...
    assert session_percentage(630.1, 30 * 42) == 50.01  # 50.0079...
    with pytest.raises(BoardError):
        session_percentage(10.0, 0)


def test_session_totals_round_half_up_as_the_published_figures_do() -> None:
    assert session_total([28.25]) == 28.3
    assert session_total([0.05, 0.15]) == 0.3
    assert session_total([0.1] * 3) == 0.3


def test_both_directions_always_add_up_to_the_top() -> None:
    # 8 real results of 10 expected (top 18): NS 0 → (0 + 1) × 10 / 8 − 1 = 0.25 → 0.3.
    board = score_board([-100, 50, 50, 110, 110, 140, 170, 420], expected=10)
    assert (board[0].ns, board[0].ew) == (0.3, 17.7)
    assert all(result.ns + result.ew == pytest.approx(18) for result in board)


def test_a_pair_has_one_result_per_board() -> None:
    twice = [
        PairsResult(1, 1, 2, BoardResult(420)),
        PairsResult(1, 1, 4, BoardResult(400)),
    ]
    with pytest.raises(BoardError, match="Pair 1 has two results on board 1"):
        score_pairs_session(twice)
    with pytest.raises(BoardError):
        score_pairs_session([PairsResult(1, 3, 3, BoardResult(420))])
