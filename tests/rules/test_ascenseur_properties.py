"""Invariants of the Ascenseur engine, checked with hypothesis over presets and house rules."""

import json
from dataclasses import replace
from itertools import pairwise

from hypothesis import given, reject, settings
from hypothesis import strategies as st

from scorekeeper.rules.ascenseur import (
    PRESETS,
    Bidding,
    GameSheet,
    Hands,
    RoundEntry,
    RoundPlan,
    Shape,
    Top,
    TopRounds,
    TrumpCard,
    Variant,
    bid_errors,
    bidding_order,
    dealer_seat,
    has_trump,
    house_rules,
    places,
    plan_game,
    removed_cards,
    round_points,
    schedule,
    score_game,
    with_house_rules,
)


@st.composite
def variants(draw: st.DrawFn) -> Variant:
    """A preset, with any house rules that make sense for it."""
    variant = PRESETS[draw(st.sampled_from(sorted(PRESETS)))]
    changes: dict[str, object] = {}
    if draw(st.booleans()):
        changes["top_rounds"] = draw(st.sampled_from(TopRounds))
        changes["bidding"] = draw(st.sampled_from(Bidding))
        changes["hook_from"] = draw(st.none() | st.integers(1, 5))
    if variant.top is Top.DECK_SHARE and draw(st.booleans()):
        changes["deck_cards"] = draw(st.sampled_from((32, 52)))
        changes["decks"] = draw(st.sampled_from((1, 2)))
    if draw(st.booleans()):
        changes["shape"] = draw(st.sampled_from(Shape))
        changes["hands"] = draw(st.sampled_from(Hands))
        changes["trump"] = draw(st.sampled_from(TrumpCard))
        if draw(st.booleans()):
            changes["top"] = Top.CHOSEN
            changes["chosen_top"] = draw(st.integers(2, 12))
    return replace(variant, **changes)  # type: ignore[arg-type]


@st.composite
def tables(draw: st.DrawFn, most_players: int = 26) -> tuple[Variant, int]:
    variant = draw(variants())
    players = draw(st.integers(variant.min_players, min(variant.max_players, most_players)))
    try:
        schedule(variant, players)
    except ValueError:  # e.g. even hands from a 32-card deck for 17 players or more
        reject()
    return variant, players


def draw_bids(draw: st.DrawFn, plan: RoundPlan, players: int) -> tuple[int, ...]:
    bids = [0] * players
    for seat in plan.bidding_order[:-1]:
        bids[seat] = draw(st.integers(0, plan.cards))
    forbidden = plan.forbidden_bid(bids[seat] for seat in plan.bidding_order[:-1])
    allowed = [bid for bid in range(plan.cards + 1) if bid != forbidden]
    bids[plan.dealer] = draw(st.sampled_from(allowed))
    return tuple(bids)


def draw_tricks(draw: st.DrawFn, plan: RoundPlan, players: int) -> tuple[int, ...]:
    cuts = sorted(draw(st.lists(st.integers(0, plan.cards), min_size=players - 1)))[: players - 1]
    bounds = [0, *cuts, plan.cards]
    return tuple(high - low for low, high in pairwise(bounds))


def draw_entry(draw: st.DrawFn, plan: RoundPlan, players: int) -> RoundEntry:
    return RoundEntry(draw_bids(draw, plan, players), draw_tricks(draw, plan, players))


Game = tuple[Variant, tuple[str, ...], int, list[RoundEntry]]


@st.composite
def complete_games(draw: st.DrawFn) -> Game:
    variant, players = draw(tables(most_players=7))
    names = tuple(f"Player {seat + 1}" for seat in range(players))
    first_dealer = draw(st.integers(0, players - 1))
    plans = plan_game(variant, players, first_dealer)
    return variant, names, first_dealer, [draw_entry(draw, plan, players) for plan in plans]


@given(tables(), st.data())
def test_with_the_hook_obeyed_total_bids_never_equal_the_cards(
    table: tuple[Variant, int], data: st.DataObject
) -> None:
    variant, players = table
    plans = plan_game(variant, players, 0)
    plan = plans[data.draw(st.integers(0, len(plans) - 1))]
    earlier = [data.draw(st.integers(0, plan.cards)) for _ in range(players - 1)]
    dealer_bid = data.draw(st.integers(0, plan.cards))
    by_seat = [0] * players
    for seat, bid in zip(plan.bidding_order, [*earlier, dealer_bid], strict=True):
        by_seat[seat] = bid
    names = tuple(f"P{seat}" for seat in range(players))
    obeyed = not bid_errors(plan, names, by_seat)
    if plan.hook and obeyed:
        assert sum(by_seat) != plan.cards
    if plan.hook and sum(by_seat) == plan.cards:
        assert not obeyed
    if not plan.hook:
        assert obeyed


@given(tables())
def test_schedules_rise_and_fall_by_one_step_and_fit_the_deck(table: tuple[Variant, int]) -> None:
    variant, players = table
    cards = schedule(variant, players)
    top = max(cards)
    step = 1 if variant.hands is Hands.ALL else 2
    for before, after in pairwise(cards):
        assert after - before in (step, -step) or before == after == top
    assert min(cards) == (2 if variant.hands is Hands.EVEN else 1)
    deck = variant.deck_size - len(removed_cards(variant, players))
    for n in cards:
        trump_card = 1 if has_trump(variant, players, n) else 0
        assert n * players + trump_card <= deck
    if variant.top_rounds is TopRounds.EACH_PLAYER and variant.shape is Shape.UP_AND_DOWN:
        assert cards.count(top) == players


@given(st.integers(2, 26), st.data())
def test_the_dealer_moves_one_seat_left_each_round(players: int, data: st.DataObject) -> None:
    first_dealer = data.draw(st.integers(0, players - 1))
    round_number = data.draw(st.integers(1, 200))
    dealer = dealer_seat(round_number, players, first_dealer)
    assert dealer_seat(round_number + 1, players, first_dealer) == (dealer + 1) % players
    order = bidding_order(round_number, players, first_dealer)
    assert order[-1] == dealer and order[0] == (dealer + 1) % players
    assert sorted(order) == list(range(players))


def reference_totals(variant: Variant, players: int, entries: list[RoundEntry]) -> list[int]:
    """Totals added up by hand, round by round, as on a paper pad."""
    totals = [0] * players
    for entry in entries:
        assert entry.tricks is not None
        for seat in range(players):
            totals[seat] += round_points(variant, entry.bids[seat], entry.tricks[seat])
    return totals


@settings(max_examples=60, deadline=None)
@given(complete_games(), st.data())
def test_rescoring_after_an_edit_equals_scoring_from_scratch(
    game: Game, data: st.DataObject
) -> None:
    variant, names, first_dealer, entries = game
    before = score_game(variant, names, first_dealer, entries)
    edited_round = data.draw(st.integers(0, len(entries) - 1))
    plan = before.plans[edited_round]
    edited = list(entries)
    edited[edited_round] = RoundEntry(
        draw_bids(data.draw, plan, len(names)), draw_tricks(data.draw, plan, len(names))
    )
    after = score_game(variant, names, first_dealer, edited)
    assert list(after.totals) == reference_totals(variant, len(names), edited)
    assert after.rounds[:edited_round] == before.rounds[:edited_round]
    shift = [
        new.points - old.points  # type: ignore[operator]
        for new, old in zip(
            after.rounds[edited_round].results, before.rounds[edited_round].results, strict=True
        )
    ]
    for old_row, new_row in zip(
        before.rounds[edited_round + 1 :], after.rounds[edited_round + 1 :], strict=True
    ):
        for seat, (old, new) in enumerate(zip(old_row.results, new_row.results, strict=True)):
            assert new.points == old.points
            assert new.total == old.total + shift[seat]


@given(st.lists(st.integers(-500, 500), min_size=2, max_size=26))
def test_places_are_consistent_with_totals(totals: list[int]) -> None:
    ranked = places(totals)
    for seat, total in enumerate(totals):
        assert ranked[seat] == 1 + sum(other > total for other in totals)
        for other, other_total in enumerate(totals):
            if total > other_total:
                assert ranked[seat] < ranked[other]
            if total == other_total:
                assert ranked[seat] == ranked[other]
    assert min(ranked) == 1


def prefix_sheets(game: Game) -> list[GameSheet]:
    variant, names, first_dealer, entries = game
    sheets = []
    for played in range(len(entries) + 1):
        sheets.append(score_game(variant, names, first_dealer, entries[:played]))
        if played < len(entries):  # the same round with its bids in, tricks to come
            pending = RoundEntry(entries[played].bids)
            sheets.append(score_game(variant, names, first_dealer, [*entries[:played], pending]))
    return sheets


@settings(max_examples=40, deadline=None)
@given(complete_games())
def test_the_final_totals_stay_within_what_was_still_possible(game: Game) -> None:
    final = score_game(*game)
    assert final.is_complete
    for sheet in prefix_sheets(game):
        for seat in range(len(final.players)):
            gained = final.totals[seat] - sheet.totals[seat]
            assert sheet.worst_remaining[seat] <= gained <= sheet.best_remaining[seat]
        for winner in final.winners:
            assert sheet.can_still_win[winner]
        if sheet.clinched:
            assert final.winners == (sheet.can_still_win.index(True),)


@given(variants())
def test_house_rules_survive_a_json_round_trip(variant: Variant) -> None:
    for preset in PRESETS.values():
        stored = json.loads(json.dumps(house_rules(variant, preset)))
        assert with_house_rules(preset, stored) == variant
