"""The Ascenseur engine against every example of RULES.md §1 and of seeds 000, 003 and 004."""

from dataclasses import FrozenInstanceError, replace

import pytest

from scorekeeper.rules.ascenseur import (
    PRESETS,
    Bidding,
    BidRangeError,
    EntryCountError,
    ForbiddenBidError,
    Hands,
    MissingTricksError,
    Play,
    RoundCountError,
    RoundEntry,
    Scoring,
    Shape,
    Top,
    TopRounds,
    TricksRangeError,
    TricksTotalError,
    TrumpCard,
    TrumpError,
    Variant,
    bid_errors,
    bidding_order,
    dealer_seat,
    find_preset,
    forbidden_bid,
    has_trump,
    places,
    plan_game,
    plan_round,
    removed_cards,
    round_points,
    schedule,
    score_game,
    trick_errors,
    validate_round,
    with_house_rules,
)
from scorekeeper.rules.cards import Card, Suit

SEED_003 = (
    "ascenseur-reguliere",
    "ascenseur-a-charge",
    "ascenseur-a-charge-fixe",
    "ascenseur-gros-contrats",
)
FOUR = ("Anne", "Bruno", "Chloé", "Denis")


def up_and_down(top: int) -> tuple[int, ...]:
    return (*range(1, top + 1), *range(top - 1, 0, -1))


def card_names(cards: tuple[Card, ...]) -> list[str]:
    return [str(card) for card in cards]


# --- The presets ---


def test_presets_are_exactly_the_six_games() -> None:
    assert list(PRESETS) == [
        "ascenseur",
        "ascenseur-reguliere",
        "ascenseur-a-charge",
        "ascenseur-a-charge-fixe",
        "ascenseur-gros-contrats",
        "escalier",
    ]


def test_a_variant_is_frozen_and_a_house_rule_is_a_replaced_field() -> None:
    preset = PRESETS["ascenseur-a-charge"]
    with pytest.raises(FrozenInstanceError):
        preset.bidding = Bidding.SIMULTANEOUS  # type: ignore[misc]
    house = replace(preset, bidding=Bidding.SIMULTANEOUS, play=Play.MUST_TRUMP)
    assert house.bidding is Bidding.SIMULTANEOUS and house.play is Play.MUST_TRUMP
    assert preset.bidding is Bidding.IN_TURN
    assert house.scoring == preset.scoring


def test_unknown_preset_names_the_games_there_are() -> None:
    with pytest.raises(ValueError, match="ascenseur-a-charge"):
        find_preset("belote")


@pytest.mark.parametrize(
    ("key", "low", "high"),
    [("ascenseur", 2, 5), *((key, 2, 26) for key in SEED_003), ("escalier", 3, 6)],
)
def test_player_range_of_each_preset(key: str, low: int, high: int) -> None:
    variant = PRESETS[key]
    assert (variant.min_players, variant.max_players) == (low, high)
    for outside in (low - 1, high + 1):
        with pytest.raises(ValueError, match=f"{low} to {high} players, not {outside}"):
            schedule(variant, outside)


def test_an_impossible_house_rule_is_refused() -> None:
    with pytest.raises(ValueError, match="52 or 32"):
        replace(PRESETS["ascenseur"], deck_cards=36)
    with pytest.raises(ValueError, match="one deck or two"):
        replace(PRESETS["ascenseur"], decks=3)
    with pytest.raises(ValueError, match="chosen top"):
        replace(PRESETS["ascenseur"], top=Top.CHOSEN)
    with pytest.raises(ValueError, match="whole number of 0 or more"):
        Scoring(missed_per_trick=-1)


# --- Seed 000: ascenseur ---


@pytest.mark.parametrize(("players", "top"), [(2, 15), (3, 15), (4, 12), (5, 10)])
def test_ascenseur_schedule_rises_to_the_top_for_the_players_and_back_to_one(
    players: int, top: int
) -> None:
    assert schedule(PRESETS["ascenseur"], players) == up_and_down(top)


def test_ascenseur_three_players_deal_fifteen_then_fourteen() -> None:
    cards = schedule(PRESETS["ascenseur"], 3)
    assert cards[14:17] == (15, 14, 13)
    assert len(cards) == 29


def test_ascenseur_turns_a_trump_card_every_round() -> None:
    for players in range(2, 6):
        assert all(
            has_trump(PRESETS["ascenseur"], players, cards)
            for cards in schedule(PRESETS["ascenseur"], players)
        )


def test_ascenseur_removes_no_card() -> None:
    assert removed_cards(PRESETS["ascenseur"], 3) == ()


def test_hook_four_players_seven_cards_bids_2_2_1_forbid_2() -> None:
    assert forbidden_bid(7, [2, 2, 1]) == 2


def test_hook_first_round_one_card_dealer_may_not_make_the_total_one() -> None:
    assert forbidden_bid(1, [0, 0, 0]) == 1
    assert forbidden_bid(1, [0, 1, 0]) == 0
    assert forbidden_bid(1, [1, 1]) is None


def test_hook_forbids_nothing_when_earlier_bids_already_exceed_the_cards() -> None:
    assert forbidden_bid(7, [4, 4]) is None


def test_ascenseur_made_bid_scores_the_bid_in_the_plus_column() -> None:
    assert round_points(PRESETS["ascenseur"], 3, 3) == 3


def test_ascenseur_missed_bid_loses_the_difference() -> None:
    assert round_points(PRESETS["ascenseur"], 5, 3) == -2
    assert round_points(PRESETS["ascenseur"], 1, 4) == -3


def test_ascenseur_made_zero_scores_zero() -> None:
    assert round_points(PRESETS["ascenseur"], 0, 0) == 0


def test_overtricks_miss_the_contract() -> None:
    for key in PRESETS:
        made = round_points(PRESETS[key], 2, 2)
        assert round_points(PRESETS[key], 2, 3) < made, key


def test_ascenseur_left_of_dealer_leads_and_play_is_free() -> None:
    plan = plan_round(PRESETS["ascenseur"], 4, 0, 1)
    assert plan.first_lead == 1
    assert PRESETS["ascenseur"].play is Play.FREE


def test_ascenseur_sheet_keeps_plus_and_minus_columns() -> None:
    # 4 players, round 1 (1 card), dealer Anne: Bruno 1, Chloé 0, Denis 0, Anne may not bid 0.
    sheet = score_game(
        PRESETS["ascenseur"],
        FOUR,
        0,
        [
            RoundEntry(bids=(1, 1, 0, 0), tricks=(0, 1, 0, 0)),
            RoundEntry(bids=(0, 1, 2, 0), tricks=(0, 0, 2, 0)),
        ],
    )
    first, second = sheet.rounds
    assert [r.plus for r in first.results] == [None, 1, 0, 0]
    assert [r.minus for r in first.results] == [1, None, None, None]
    assert [r.points for r in second.results] == [0, -1, 2, 0]
    assert [r.total for r in second.results] == [-1, 0, 2, 0]
    assert sheet.plus_totals == (0, 1, 2, 0)
    assert sheet.minus_totals == (1, 1, 0, 0)
    assert sheet.totals == tuple(
        p - m for p, m in zip(sheet.plus_totals, sheet.minus_totals, strict=True)
    )


# --- Seed 003: the Wikipedia presets ---


@pytest.mark.parametrize("key", SEED_003)
def test_52_cards_4_players_top_is_13_dealt_once_without_trump(key: str) -> None:
    variant = PRESETS[key]
    cards = schedule(variant, 4)
    assert cards == up_and_down(13)
    assert cards.count(13) == 1
    assert not has_trump(variant, 4, 13)
    assert all(has_trump(variant, 4, n) for n in range(1, 13))
    assert removed_cards(variant, 4) == ()


def test_3_players_remove_2_clubs() -> None:
    variant = PRESETS["ascenseur-reguliere"]
    assert card_names(removed_cards(variant, 3)) == ["2♣"]
    assert max(schedule(variant, 3)) == 17
    assert not has_trump(variant, 3, 17)


@pytest.mark.parametrize(
    ("players", "removed"),
    [
        (5, ["2♣", "2♦"]),
        (7, ["2♣", "2♦", "2♥"]),
        (10, ["2♣", "2♦"]),
        (14, ["2♣", "2♦", "2♥", "2♠", "3♣", "3♦", "3♥", "3♠", "4♣", "4♦"]),
        (26, []),
    ],
)
def test_lowest_cards_removed_until_the_deck_shares_out(players: int, removed: list[str]) -> None:
    variant = PRESETS["ascenseur-a-charge"]
    assert card_names(removed_cards(variant, players)) == removed
    assert (52 - len(removed)) % players == 0


def test_32_card_deck_removes_the_sevens() -> None:
    variant = replace(PRESETS["ascenseur-a-charge"], deck_cards=32)
    assert card_names(removed_cards(variant, 3)) == ["7♣", "7♦"]
    assert schedule(variant, 3) == up_and_down(10)
    assert schedule(variant, 4) == up_and_down(8)


def test_two_decks_remove_the_same_low_cards_one_deck_after_the_other() -> None:
    variant = replace(PRESETS["ascenseur-a-charge"], decks=2)
    assert card_names(removed_cards(variant, 7)) == ["2♣", "2♦", "2♥", "2♠", "2♣", "2♦"]
    assert max(schedule(variant, 7)) == 14
    assert max(schedule(variant, 20)) == 5


def test_top_round_once_per_player_option() -> None:
    variant = replace(PRESETS["ascenseur-reguliere"], top_rounds=TopRounds.EACH_PLAYER)
    cards = schedule(variant, 4)
    assert cards == (*range(1, 13), 13, 13, 13, 13, *range(12, 0, -1))
    dealers = [plan.dealer for plan in plan_game(variant, 4, 0) if plan.cards == 13]
    assert sorted(dealers) == [0, 1, 2, 3]


def test_seed_003_three_players_eight_cards_bids_2_3_forbid_3() -> None:
    assert forbidden_bid(8, [2, 3]) == 3
    plan = plan_round(PRESETS["ascenseur-a-charge"], 3, 0, 8)
    assert plan.cards == 8 and plan.hook
    names = ("Anne", "Bruno", "Chloé")
    # Round 8: dealer is Bruno (seat 1); Chloé then Anne bid first.
    assert plan.bidding_order == (2, 0, 1)
    with pytest.raises(ForbiddenBidError, match="Bruno, the dealer, may not bid 3"):
        validate_round(plan, names, RoundEntry(bids=(3, 3, 2)))


def test_simultaneous_bidding_has_no_hook() -> None:
    variant = replace(PRESETS["ascenseur-a-charge"], bidding=Bidding.SIMULTANEOUS)
    plan = plan_round(variant, 3, 0, 8)
    assert not plan.hook
    assert plan.forbidden_bid([2, 3]) is None
    validate_round(plan, ("Anne", "Bruno", "Chloé"), RoundEntry(bids=(3, 3, 2)))


def test_seed_003_dealer_leads_the_first_trick_and_play_is_free_by_default() -> None:
    for key in SEED_003:
        plan = plan_round(PRESETS[key], 5, 2, 3)
        assert plan.first_lead == plan.dealer == 4
        assert PRESETS[key].play is Play.FREE


def test_reguliere_made_scores_two_per_trick() -> None:
    assert round_points(PRESETS["ascenseur-reguliere"], 3, 3) == 6


def test_reguliere_made_zero_scores_one() -> None:
    assert round_points(PRESETS["ascenseur-reguliere"], 0, 0) == 1


def test_reguliere_missed_loses_two_per_trick_of_difference() -> None:
    # Seed 003: 4 announced, 5 made.
    assert round_points(PRESETS["ascenseur-reguliere"], 4, 5) == -2
    assert round_points(PRESETS["ascenseur-reguliere"], 4, 1) == -6


def test_a_charge_made_scores_ten_plus_two_per_trick() -> None:
    assert round_points(PRESETS["ascenseur-a-charge"], 0, 0) == 10
    assert round_points(PRESETS["ascenseur-a-charge"], 2, 2) == 14


def test_a_charge_missed_loses_two_per_trick_over_or_under() -> None:
    assert round_points(PRESETS["ascenseur-a-charge"], 2, 4) == -4
    assert round_points(PRESETS["ascenseur-a-charge"], 4, 5) == -2
    assert round_points(PRESETS["ascenseur-a-charge"], 4, 3) == -2


def test_a_charge_fixe_made_scores_ten_plus_ten_per_trick() -> None:
    assert round_points(PRESETS["ascenseur-a-charge-fixe"], 0, 0) == 10
    assert round_points(PRESETS["ascenseur-a-charge-fixe"], 2, 2) == 30


def test_a_charge_fixe_missed_loses_a_flat_ten() -> None:
    assert round_points(PRESETS["ascenseur-a-charge-fixe"], 4, 5) == -10
    assert round_points(PRESETS["ascenseur-a-charge-fixe"], 6, 0) == -10


def test_gros_contrats_made_scores_ten_per_trick_and_zero_for_zero() -> None:
    assert round_points(PRESETS["ascenseur-gros-contrats"], 2, 2) == 20
    assert round_points(PRESETS["ascenseur-gros-contrats"], 0, 0) == 0


def test_gros_contrats_missed_loses_ten_per_trick_of_difference() -> None:
    assert round_points(PRESETS["ascenseur-gros-contrats"], 2, 5) == -30
    assert round_points(PRESETS["ascenseur-gros-contrats"], 3, 1) == -20


# --- Seed 004: escalier ---


@pytest.mark.parametrize(("players", "top"), [(3, 10), (4, 7), (5, 6), (6, 5)])
def test_escalier_schedule_tops_by_players(players: int, top: int) -> None:
    assert schedule(PRESETS["escalier"], players) == up_and_down(top)


def test_escalier_first_and_last_rounds_are_blind() -> None:
    plans = plan_game(PRESETS["escalier"], 4, 0)
    assert [plan.number for plan in plans if plan.blind] == [1, len(plans)]
    assert all(plan.trump_turned for plan in plans)


def test_escalier_player_left_of_dealer_leads_and_must_trump() -> None:
    assert plan_round(PRESETS["escalier"], 4, 0, 1).first_lead == 1
    assert PRESETS["escalier"].play is Play.MUST_TRUMP


@pytest.mark.parametrize(("tricks", "lost"), [(1, 2), (5, 2), (2, 1), (4, 1), (3, 0)])
def test_escalier_bid_3_loses_one_point_per_trick_of_difference(tricks: int, lost: int) -> None:
    assert round_points(PRESETS["escalier"], 3, tricks) == -lost


def test_escalier_fewest_points_lost_wins() -> None:
    variant = PRESETS["escalier"]
    assert variant.scoring.penalties_only
    names = ("Ana", "Bob", "Cy")
    entries = []
    for plan in plan_game(variant, 3, 0):
        # Everyone bids 0, the dealer may not: seat "dealer" bids 1; the dealer takes every trick.
        bids = [0, 0, 0]
        bids[plan.dealer] = 1 if plan.cards != 1 else 0
        if plan.forbidden_bid([0, 0]) == bids[plan.dealer]:
            bids[plan.dealer] = 2 if plan.cards >= 2 else 0
        tricks = [0, 0, 0]
        tricks[plan.dealer] = plan.cards
        entries.append(RoundEntry(tuple(bids), tuple(tricks)))
    sheet = score_game(variant, names, 0, entries)
    assert sheet.is_complete
    assert all(total <= 0 for total in sheet.totals)
    assert sheet.minus_totals == tuple(-total for total in sheet.totals)
    best = max(sheet.totals)
    assert sheet.winners == tuple(s for s, total in enumerate(sheet.totals) if total == best)


# --- Seats, for every preset ---


def test_dealer_moves_one_seat_left_each_round() -> None:
    assert [dealer_seat(r, 4, 1) for r in range(1, 7)] == [1, 2, 3, 0, 1, 2]


def test_bidding_starts_left_of_dealer_and_dealer_bids_last() -> None:
    assert bidding_order(3, 4, 1) == (0, 1, 2, 3)
    assert bidding_order(1, 5, 0) == (1, 2, 3, 4, 0)


def test_seats_out_of_range_are_refused() -> None:
    with pytest.raises(ValueError, match="first dealer"):
        dealer_seat(1, 4, 4)
    with pytest.raises(ValueError, match="from 1"):
        bidding_order(0, 4, 0)


# --- The table's own rules ---


def test_oh_hell_scoring_ten_plus_bid_missed_loses_difference() -> None:
    oh_hell = replace(
        PRESETS["ascenseur"], scoring=Scoring(made_base=10, made_per_trick=1, missed_per_trick=1)
    )
    assert round_points(oh_hell, 0, 0) == 10
    assert round_points(oh_hell, 3, 3) == 13
    assert round_points(oh_hell, 3, 1) == -2


def test_wizard_scoring_twenty_plus_ten_per_trick_missed_loses_ten_per_trick() -> None:
    wizard = Variant(scoring=Scoring(made_base=20, made_per_trick=10, missed_per_trick=10))
    assert round_points(wizard, 0, 0) == 20
    assert round_points(wizard, 2, 2) == 40
    assert round_points(wizard, 2, 5) == -30


def test_the_six_presets_are_instances_of_the_scoring_formula() -> None:
    formulas = {key: variant.scoring for key, variant in PRESETS.items()}
    assert formulas["ascenseur-a-charge-fixe"] == Scoring(
        made_base=10, made_per_trick=10, missed_flat=10, missed_per_trick=0
    )
    assert formulas["escalier"] == Scoring(made_per_trick=0, missed_per_trick=1)


@pytest.mark.parametrize(
    ("shape", "expected"),
    [
        (Shape.UP_AND_DOWN, (1, 2, 3, 4, 3, 2, 1)),
        (Shape.UP, (1, 2, 3, 4)),
        (Shape.DOWN, (4, 3, 2, 1)),
        (Shape.DOWN_AND_UP, (4, 3, 2, 1, 2, 3, 4)),
    ],
)
def test_schedule_shapes_with_a_chosen_top(shape: Shape, expected: tuple[int, ...]) -> None:
    variant = Variant(top=Top.CHOSEN, chosen_top=4, shape=shape)
    assert schedule(variant, 5) == expected


@pytest.mark.parametrize(
    ("hands", "expected"),
    [(Hands.ODD, (1, 3, 5, 7, 5, 3, 1)), (Hands.EVEN, (2, 4, 6, 8, 6, 4, 2))],
)
def test_odd_or_even_hands_only(hands: Hands, expected: tuple[int, ...]) -> None:
    variant = Variant(top=Top.CHOSEN, chosen_top=8, hands=hands)
    assert schedule(variant, 4)[: len(expected)] == expected[: len(expected)]
    assert schedule(variant, 4) == (expected if hands is Hands.EVEN else (1, 3, 5, 7, 5, 3, 1))


def test_a_chosen_top_stops_at_what_the_deck_can_deal() -> None:
    variant = Variant(top=Top.CHOSEN, chosen_top=10, trump=TrumpCard.EVERY_ROUND)
    assert max(schedule(variant, 5)) == 10
    assert max(schedule(variant, 6)) == 8  # 6 × 8 + 1 trump card ≤ 52 < 6 × 9 + 1


def test_never_turning_a_trump_card() -> None:
    variant = replace(PRESETS["ascenseur"], trump=TrumpCard.NEVER)
    assert not any(plan.trump_turned for plan in plan_game(variant, 3, 0))


def test_hook_only_from_a_number_of_cards_on() -> None:
    variant = replace(PRESETS["ascenseur"], hook_from=3)
    assert [plan.hook for plan in plan_game(variant, 4, 0)[:4]] == [False, False, True, True]
    assert plan_round(variant, 4, 0, 2).forbidden_bid([1, 0, 0]) is None


def test_hook_off() -> None:
    variant = replace(PRESETS["escalier"], hook_from=None)
    assert not any(plan.hook for plan in plan_game(variant, 4, 0))


# --- Checking a round ---


def ascenseur_round_7() -> tuple:
    """4 players, first dealer Anne: round 7 deals 7 cards, Denis deals, Anne bids first."""
    plan = plan_round(PRESETS["ascenseur"], 4, 0, 7)
    assert (plan.cards, plan.dealer, plan.bidding_order) == (7, 2, (3, 0, 1, 2))
    return plan, FOUR


def test_a_bid_above_the_cards_names_the_player() -> None:
    plan, names = ascenseur_round_7()
    (error,) = bid_errors(plan, names, (8, 0, 1, 1))
    assert isinstance(error, BidRangeError) and isinstance(error, ValueError)
    assert (error.seat, error.player) == (0, "Anne")
    assert str(error) == "Anne bid 8, but a bid is from 0 to the 7 cards dealt."


def test_a_negative_bid_is_out_of_range() -> None:
    plan, names = ascenseur_round_7()
    (error,) = bid_errors(plan, names, (0, -1, 1, 1))
    assert isinstance(error, BidRangeError) and error.player == "Bruno"


def test_the_dealers_forbidden_bid_names_the_dealer() -> None:
    plan, names = ascenseur_round_7()
    # Denis 2, Anne 2, Bruno 1: Chloé, the dealer, may not bid 2.
    (error,) = bid_errors(plan, names, (2, 1, 2, 2))
    assert isinstance(error, ForbiddenBidError)
    assert (error.seat, error.player, error.round_number) == (2, "Chloé", 7)
    assert "Chloé, the dealer, may not bid 2" in str(error)
    assert bid_errors(plan, names, (2, 1, 3, 2)) == ()


def test_tricks_out_of_range_name_the_player() -> None:
    plan, names = ascenseur_round_7()
    (error,) = trick_errors(plan, names, (8, 0, 0, 0))
    assert isinstance(error, TricksRangeError) and error.player == "Anne"


def test_tricks_must_add_up_to_the_cards_dealt() -> None:
    plan, names = ascenseur_round_7()
    (error,) = trick_errors(plan, names, (2, 1, 2, 1))
    assert isinstance(error, TricksTotalError)
    assert "add up to 6" in str(error) and "7" in str(error)
    assert trick_errors(plan, names, (2, 1, 3, 1)) == ()


def test_one_bid_per_player() -> None:
    plan, names = ascenseur_round_7()
    with pytest.raises(EntryCountError, match="each of the 4 players, not 3"):
        bid_errors(plan, names, (1, 1, 1))


def test_no_trump_suit_in_a_round_without_a_trump_card() -> None:
    plan = plan_round(PRESETS["ascenseur-a-charge"], 4, 0, 13)
    with pytest.raises(TrumpError, match="No card is turned"):
        validate_round(plan, FOUR, RoundEntry((3, 3, 3, 3), (4, 3, 3, 3), Suit.HEARTS))


# --- The whole game ---


def test_places_share_ties() -> None:
    assert places((10, 12, 10, 3)) == (2, 1, 2, 4)
    assert places((0, 0)) == (1, 1)


def test_winners_appear_once_the_schedule_is_complete() -> None:
    variant = Variant(top=Top.CHOSEN, chosen_top=2, shape=Shape.UP)
    names = ("Ana", "Bob")
    first = RoundEntry((1, 1), (1, 0))
    sheet = score_game(variant, names, 0, [first])
    # Ana made her 1 (+1), Bob missed his (−1).
    assert sheet.winners == () and sheet.leaders == (0,)
    assert sheet.current is not None and sheet.current.number == 2
    # Round 2: Bob deals; Ana bids 0, so Bob may not bid 2.
    sheet = score_game(variant, names, 0, [first, RoundEntry((0, 1), (0, 2))])
    assert sheet.is_complete and sheet.current is None
    assert sheet.totals == (1, -2)
    assert sheet.winners == (0,)


def test_a_tie_at_the_end_shares_the_win() -> None:
    variant = Variant(top=Top.CHOSEN, chosen_top=1, shape=Shape.UP)
    sheet = score_game(variant, ("Ana", "Bob"), 0, [RoundEntry((1, 1), (1, 0))])
    # Ana +1, Bob −1 with the ascenseur-style default scoring.
    assert sheet.winners == (0,)
    tied = score_game(
        replace(variant, scoring=Scoring(made_per_trick=0, missed_per_trick=0)),
        ("Ana", "Bob"),
        0,
        [RoundEntry((1, 1), (1, 0))],
    )
    assert tied.winners == (0, 1) and tied.places == (1, 1)


def test_a_round_with_bids_only_is_the_current_round() -> None:
    sheet = score_game(PRESETS["ascenseur"], FOUR, 0, [RoundEntry((1, 1, 0, 0))])
    (row,) = sheet.rounds
    assert not row.is_played
    assert [r.points for r in row.results] == [None] * 4
    assert sheet.current == row.plan
    assert sheet.totals == (0, 0, 0, 0)


def test_only_the_last_round_may_lack_its_tricks() -> None:
    with pytest.raises(MissingTricksError, match="Round 1"):
        score_game(
            PRESETS["ascenseur"],
            FOUR,
            0,
            [RoundEntry((1, 1, 0, 0)), RoundEntry((0, 1, 2, 0), (0, 0, 2, 0))],
        )


def test_no_more_rounds_than_the_schedule() -> None:
    variant = Variant(top=Top.CHOSEN, chosen_top=1, shape=Shape.UP)
    with pytest.raises(RoundCountError, match="1 rounds, not 2"):
        score_game(variant, ("Ana", "Bob"), 0, [RoundEntry((1, 1), (1, 0))] * 2)


def test_an_impossible_entry_is_refused_by_the_game() -> None:
    with pytest.raises(ForbiddenBidError):
        score_game(PRESETS["ascenseur"], FOUR, 0, [RoundEntry((0, 1, 0, 0), (0, 1, 0, 0))])


@pytest.mark.parametrize("names", [("Ana", ""), ("Ana", "ana"), ("Ana",)])
def test_players_need_distinct_names(names: tuple[str, ...]) -> None:
    with pytest.raises(ValueError):
        score_game(PRESETS["ascenseur-a-charge"], names, 0, [])


def test_correcting_an_earlier_round_rescores_every_later_one() -> None:
    entries = [
        RoundEntry((1, 1, 0, 0), (0, 1, 0, 0)),
        RoundEntry((0, 1, 2, 0), (0, 0, 2, 0)),
        RoundEntry((1, 0, 1, 0), (1, 0, 1, 1)),
    ]
    before = score_game(PRESETS["ascenseur"], FOUR, 0, entries)
    corrected = [RoundEntry((1, 1, 0, 0), (1, 0, 0, 0)), *entries[1:]]
    after = score_game(PRESETS["ascenseur"], FOUR, 0, corrected)
    assert [r.total for r in before.rounds[2].results] == [0, 0, 3, -1]
    assert [r.total for r in after.rounds[2].results] == [2, -2, 3, -1]
    assert after.totals == (2, -2, 3, -1)


# --- What is still possible ---


def test_a_player_who_cannot_catch_the_leader_is_out_and_the_leader_clinches() -> None:
    # Two rounds of one card then two: the most a round of 2 can bring is +2, the worst −2.
    variant = Variant(top=Top.CHOSEN, chosen_top=2, shape=Shape.UP)
    sheet = score_game(variant, ("Ana", "Bob"), 1, [RoundEntry((1, 1), (1, 0))])
    assert sheet.totals == (1, -1)
    assert sheet.best_remaining == (2, 2) and sheet.worst_remaining == (-2, -2)
    assert sheet.can_still_win == (True, True) and not sheet.clinched
    # Bids of round 2 known (Ana 2, Bob 0): Ana makes at best 2, at worst loses 2; Bob can
    # still reach +0 at most, Ana -1 at the least: Bob can still tie only if Ana misses.
    sheet = score_game(variant, ("Ana", "Bob"), 1, [RoundEntry((1, 1), (1, 0)), RoundEntry((2, 1))])
    assert sheet.best_remaining == (2, 1) and sheet.worst_remaining == (-2, -1)
    assert sheet.can_still_win == (True, True)


def test_clinched_when_no_one_else_can_reach_the_leaders_worst() -> None:
    variant = Variant(
        top=Top.CHOSEN,
        chosen_top=2,
        shape=Shape.UP,
        scoring=Scoring(made_base=10, missed_per_trick=0),
    )
    sheet = score_game(variant, ("Ana", "Bob", "Cy"), 0, [RoundEntry((1, 1, 1), (1, 0, 0))])
    # Ana +11, the others 0; a round of 2 brings at most 12 and at worst 0.
    assert sheet.totals == (11, 0, 0)
    assert sheet.can_still_win == (True, True, True)
    late = score_game(
        replace(variant, chosen_top=1), ("Ana", "Bob", "Cy"), 0, [RoundEntry((1, 1, 1), (1, 0, 0))]
    )
    assert late.is_complete and late.clinched and late.can_still_win == (True, False, False)


def test_a_deck_too_small_for_the_hands_is_refused_with_a_message() -> None:
    variant = replace(PRESETS["ascenseur-a-charge"], deck_cards=32, hands=Hands.EVEN)
    assert schedule(variant, 16) == (2,)
    with pytest.raises(ValueError, match="32 cards cannot deal these hands to 17 players"):
        schedule(variant, 17)


def test_a_short_deck_lowers_a_top_the_deck_cannot_reach() -> None:
    # 3 players cannot have 15 cards each from 32 (one kept for the trump card): 10 is the most.
    variant = replace(PRESETS["ascenseur"], deck_cards=32)
    assert max(schedule(variant, 3)) == 10


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"trumps": "never"}, "Unknown house rule 'trumps'"),
        ({"play": "cheat"}, "one of free, must-trump"),
        ({"decks": "2"}, "whole number"),
        ({"decks": True}, "whole number"),
        ({"decks": 3}, "one deck or two"),
        ({"blind_one_card_rounds": 1}, "true or false"),
        ({"scoring": {"made_base": 1, "bonus": 2}}, "scoring's numbers"),
        ({"scoring": {"made_base": -5}}, "0 or more"),
        ({"top_by_players": [[2]]}, "pairs of numbers"),
    ],
)
def test_a_bad_stored_house_rule_is_refused_by_name(rules: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        with_house_rules(PRESETS["ascenseur-a-charge"], rules)


def test_a_trump_card_every_round_keeps_the_whole_deck() -> None:
    # No round deals every card, so no low card needs to come out.
    variant = replace(PRESETS["ascenseur-a-charge"], trump=TrumpCard.EVERY_ROUND)
    assert removed_cards(variant, 5) == ()
    assert max(schedule(variant, 5)) == 10  # 5 × 10 + the trump card ≤ 52


def test_a_stored_scoring_change_keeps_the_presets_other_numbers() -> None:
    variant = with_house_rules(PRESETS["ascenseur-a-charge"], {"scoring": {"made_base": 5}})
    assert variant.scoring == Scoring(made_base=5, made_per_trick=2, missed_per_trick=2)


def test_a_trump_that_is_not_a_suit_is_refused() -> None:
    plan = plan_round(PRESETS["ascenseur"], 3, 0, 1)
    with pytest.raises(TrumpError, match="not a suit"):
        validate_round(plan, ("A", "B", "C"), RoundEntry((0, 0, 0), trump="X"))  # type: ignore[arg-type]


def test_players_are_a_list_of_names_not_a_string() -> None:
    with pytest.raises(ValueError, match="list of names"):
        score_game(PRESETS["ascenseur"], "ABC", 0, [])


def test_outlook_shares_the_tricks_of_the_round_being_played() -> None:
    variant = replace(PRESETS["ascenseur"], top=Top.CHOSEN, chosen_top=2, shape=Shape.DOWN)
    # Totals 1, −1, −1 before the last round, one card, bids 0, 1, 1: whoever takes the
    # trick, L stays first.
    sheet = score_game(
        variant, ("L", "A", "Y"), 2, [RoundEntry((1, 1, 2), (1, 0, 1)), RoundEntry((0, 1, 1))]
    )
    assert sheet.totals == (1, -1, -1)
    assert sheet.can_still_win == (True, False, False) and sheet.clinched
    # A at −1, B and C at 0, everyone bids 0 on the last card: someone loses 1, never A alone
    # ahead.
    sheet = score_game(
        variant, ("A", "B", "C"), 0, [RoundEntry((1, 0, 0), (2, 0, 0)), RoundEntry((0, 0, 0))]
    )
    assert sheet.totals == (-1, 0, 0)
    assert sheet.can_still_win == (False, True, True)
