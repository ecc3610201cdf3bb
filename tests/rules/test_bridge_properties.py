"""Invariants of the bridge engine, checked with hypothesis: Law 77 never rewards fewer tricks
or a lighter double, the IMP scale is odd and monotone, matchpoints share out the top, and
rubbers and Chicago scored in one go agree with the same deals scored one at a time."""

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.bridge import (
    BoardResult,
    Contract,
    Honours,
    RubberDeal,
    Side,
    Strain,
    butler_datum,
    butler_imps,
    contract_score,
    imps,
    matchpoints,
    neuberg,
    score_board,
    score_chicago,
    score_rubber,
    victory_points,
)

levels = st.integers(1, 7)
strains = st.sampled_from(["C", "D", "H", "S", "NT"])
doubles = st.integers(0, 2)
scores = st.integers(-7600, 7600).map(lambda score: score // 10 * 10)


@given(levels, strains, doubles, st.booleans(), st.integers(0, 6))
def test_an_overtrick_never_scores_less_than_making_exactly(
    level: int, strain: str, doubled: int, vulnerable: bool, extra: int
) -> None:
    exactly = contract_score(level, strain, doubled, vulnerable, 6 + level)
    tricks = min(13, 6 + level + extra)
    assert contract_score(level, strain, doubled, vulnerable, tricks) >= exactly > 0


@given(levels, strains, doubles, st.booleans(), st.integers(0, 12))
def test_one_more_trick_never_scores_less(
    level: int, strain: str, doubled: int, vulnerable: bool, tricks: int
) -> None:
    assert contract_score(level, strain, doubled, vulnerable, tricks + 1) >= contract_score(
        level, strain, doubled, vulnerable, tricks
    )


@given(levels, strains, st.booleans(), st.integers(0, 12))
def test_doubling_never_makes_an_undertrick_cheaper(
    level: int, strain: str, vulnerable: bool, tricks: int
) -> None:
    if tricks >= 6 + level:
        return
    undoubled, doubled, redoubled = (
        -contract_score(level, strain, times, vulnerable, tricks) for times in (0, 1, 2)
    )
    assert 0 < undoubled <= doubled <= redoubled


@given(levels, strains, doubles, st.integers(0, 12))
def test_vulnerability_never_makes_an_undertrick_cheaper(
    level: int, strain: str, doubled: int, tricks: int
) -> None:
    if tricks < 6 + level:
        assert contract_score(level, strain, doubled, True, tricks) <= contract_score(
            level, strain, doubled, False, tricks
        )


@given(levels, strains, st.booleans(), st.integers(0, 6))
def test_a_made_contract_gains_by_being_doubled(
    level: int, strain: str, vulnerable: bool, extra: int
) -> None:
    tricks = min(13, 6 + level + extra)
    made = [contract_score(level, strain, times, vulnerable, tricks) for times in (0, 1, 2)]
    assert made == sorted(made)


@given(st.integers(-10_000, 10_000))
def test_imps_are_odd_and_bounded(difference: int) -> None:
    assert imps(-difference) == -imps(difference)
    assert -24 <= imps(difference) <= 24


@given(st.integers(-10_000, 10_000), st.integers(-10_000, 10_000))
def test_imps_are_monotone(first: int, second: int) -> None:
    low, high = sorted((first, second))
    assert imps(low) <= imps(high)


@given(st.lists(scores, max_size=30))
def test_matchpoints_of_n_results_add_up_to_n_times_n_minus_one(board: list[int]) -> None:
    points = matchpoints(board)
    n = len(board)
    assert sum(points) == n * (n - 1)
    assert all(0 <= figure <= 2 * (n - 1) for figure in points)
    for (score, figure), (other, other_figure) in pairwise(zip(board, points, strict=True)):
        assert (score > other) == (figure > other_figure)


@given(st.integers(1, 40), st.data())
def test_neuberg_with_every_result_in_is_the_identity(obtained: int, data: st.DataObject) -> None:
    points = data.draw(st.integers(0, 2 * (obtained - 1)))
    assert neuberg(points, obtained, obtained) == points


@given(st.lists(scores, min_size=1, max_size=25), st.integers(0, 5))
def test_a_board_shares_out_its_top(board: list[int], missing: int) -> None:
    expected = len(board) + missing
    scored = score_board(board, expected=expected)
    top = 2 * (expected - 1)
    assert all(points.top == top and points.ns + points.ew == top for points in scored)
    # Neuberg keeps the board's average: n × top / 2, up to the rounding to 0.1.
    average = len(board) * top / 2
    assert abs(sum(points.ns for points in scored) - average) <= 0.05 * len(board) + 1e-9
    if missing == 0:
        assert [points.ns for points in scored] == matchpoints(board)


@given(st.lists(scores, max_size=20), st.sampled_from(["A+", "A=", "A-"]))
def test_an_artificial_result_does_not_move_the_real_ones_relative_order(
    board: list[int], artificial: str
) -> None:
    scored = score_board([*board, BoardResult.adjusted(artificial, artificial)])
    real = scored[:-1]
    for (score, points), (other, other_points) in pairwise(zip(board, real, strict=True)):
        assert (score > other) == (points.ns > other_points.ns)
    assert scored[-1].ns == scored[-1].ew


@given(st.lists(scores, min_size=1, max_size=20))
def test_butler_datum_is_the_same_seen_from_either_direction(board: list[int]) -> None:
    assert butler_datum([-score for score in board]) == -butler_datum(board)
    assert butler_imps([board[0]] * len(board)) == [0] * len(board)


def test_victory_point_scales_are_monotone_concave_and_share_20() -> None:
    tau = (5**0.5 - 1) / 2
    for boards in range(1, 65):
        blitz = 15 * boards**0.5
        winners = [victory_points(margin, boards)[0] for margin in range(int(blitz) + 3)]
        assert winners[0] == 10 and winners[-1] == 20
        gains = [round(b - a, 2) for a, b in pairwise(winners)]
        assert all(gain >= 0 for gain in gains), boards
        assert gains == sorted(gains, reverse=True), boards
        for margin, winner in enumerate(winners):
            formula = min(20, 10 + 10 * (1 - tau ** (3 * margin / blitz)) / (1 - tau**3))
            # Smoothing a rounding bump only ever raises a figure, by a few hundredths at most.
            assert 0 <= round(winner - round(formula, 2), 2) <= 0.03, (boards, margin)
            assert victory_points(-margin, boards) == (round(20 - winner, 2), winner)
            assert sum(victory_points(margin, boards)) == 20


# --- Rubber and Chicago ---


@st.composite
def deals(draw: st.DrawFn) -> RubberDeal:
    """A deal, often near its contract so that games and slams come up."""
    if draw(st.integers(0, 9)) == 0:
        return RubberDeal.passed_out()
    contract = Contract(draw(levels), Strain(draw(strains)), draw(st.integers(0, 2)))
    tricks = min(13, max(0, contract.tricks_needed + draw(st.integers(-3, 2))))
    honours = None
    if draw(st.integers(0, 4)) == 0:
        points = 150 if contract.strain is Strain.NOTRUMP else draw(st.sampled_from([100, 150]))
        honours = Honours(draw(st.sampled_from(Side)), points)
    return RubberDeal(draw(st.sampled_from(Side)), contract, tricks, honours)


@st.composite
def rubbers(draw: st.DrawFn) -> list[RubberDeal]:
    """Deals in order, up to the one that ends the rubber, if any does."""
    entered = draw(st.lists(deals(), max_size=16))
    for end in range(len(entered) + 1):
        if score_rubber(entered[:end]).finished:
            return entered[:end]
    return entered


@given(rubbers())
def test_a_rubber_scored_deal_by_deal_agrees_with_scoring_it_whole(
    entered: list[RubberDeal],
) -> None:
    whole = score_rubber(entered)
    for end in range(len(entered)):
        assert score_rubber(entered[:end]).deals == whole.deals[:end]


@given(rubbers())
def test_a_rubber_s_totals_are_its_pad_added_up(entered: list[RubberDeal]) -> None:
    rubber = score_rubber(entered)
    for side in Side:
        written = sum(sum(game.below[side]) for game in rubber.games) + sum(
            entry.points for entry in rubber.above[side]
        )
        assert written == sum(deal.points[side] for deal in rubber.deals)
        stopped = 0
        if not rubber.finished:
            stopped += 300 if rubber.games_won[side] > rubber.games_won[side.opponents] == 0 else 0
            stopped += 100 if rubber.games[-1].below[side] else 0
        assert sum(entry.points for entry in rubber.unfinished[side]) == stopped
        assert rubber.totals[side] == written + stopped


@given(rubbers())
def test_a_rubber_ends_at_two_games_and_each_game_at_100(entered: list[RubberDeal]) -> None:
    rubber = score_rubber(entered)
    assert rubber.finished == (max(rubber.games_won.ns, rubber.games_won.ew) == 2)
    assert rubber.games_won.ns <= 2 and rubber.games_won.ew <= 2
    for game in rubber.games:
        if game.winner is not None:
            assert sum(game.below[game.winner]) >= 100
            assert sum(game.below[game.winner.opponents]) < 100
            assert sum(game.below[game.winner][:-1]) < 100
    if rubber.finished:
        bonus = rubber.rubber_bonus
        assert bonus is not None
        assert bonus.points == (700 if min(rubber.games_won.ns, rubber.games_won.ew) == 0 else 500)


@given(st.lists(deals(), max_size=14), st.booleans())
def test_chicago_scored_deal_by_deal_agrees_with_scoring_it_whole(
    entered: list[RubberDeal], as_duplicate: bool
) -> None:
    whole = score_chicago(entered, as_duplicate=as_duplicate)
    for end in range(len(entered)):
        assert score_chicago(entered[:end], as_duplicate=as_duplicate).deals == whole.deals[:end]
    for side in Side:
        assert whole.totals[side] == sum(deal.points[side] for deal in whole.deals)


@given(st.lists(deals(), max_size=14))
def test_chicago_as_duplicate_is_contract_score_deal_by_deal(entered: list[RubberDeal]) -> None:
    chicago = score_chicago(entered, as_duplicate=True)
    for scored in chicago.deals:
        deal = scored.deal  # honours held count for nothing in duplicate
        if deal.contract is None or deal.declarer is None:
            assert scored.points.ns == scored.points.ew == 0
            continue
        contract = deal.contract
        score = contract_score(
            contract.level,
            contract.strain,
            contract.doubled,
            scored.vulnerability.is_vulnerable(deal.declarer),
            deal.tricks,
        )
        declarer, defenders = deal.declarer, deal.declarer.opponents
        assert scored.points[declarer] == max(score, 0)
        assert scored.points[defenders] == max(-score, 0)


@given(st.lists(deals(), max_size=14))
def test_chicago_part_scores_never_reach_game_and_end_with_the_wheel(
    entered: list[RubberDeal],
) -> None:
    for scored in score_chicago(entered).deals:
        assert scored.part_scores.ns < 100 and scored.part_scores.ew < 100
        if scored.number % 4 == 0 and not scored.deal.is_passed_out:
            assert scored.part_scores.ns == scored.part_scores.ew == 0
