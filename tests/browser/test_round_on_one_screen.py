"""A round entered on one 360 × 740 screen, for 2 to 7 players and the largest hand each can
be dealt: the dealer, the cards, the trump instruction, every player's line, the keypad, the
forbidden-bid note and the confirm button all in view with nothing scrolled; and a round taken
in 2n taps (n bids, n − 1 tricks, the last filled in, one confirm)."""

from __future__ import annotations

import itertools

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from scorekeeper.ascenseur.models import AscenseurGame
from scorekeeper.extensions import db
from scorekeeper.rules import ascenseur as rules
from tests.browser.test_ascenseur_phone import Taps
from tests.browser.test_sheet_one_page import SCHEDULE_RULES
from tests.browser.test_sheet_print import ARTIFACTS, NAMES
from tests.games import play_out, store_game

PRESET = "ascenseur-a-charge"
HEIGHT = 740


def largest_hand(players: int) -> dict[str, object]:
    """House rules under which ``players`` are dealt the largest hand the game allows."""
    best: tuple[int, dict[str, object]] = (0, {})
    for values in itertools.product(*SCHEDULE_RULES.values()):
        house = dict(zip(SCHEDULE_RULES, values, strict=True))
        variant = rules.with_house_rules(rules.PRESETS[PRESET], house)
        best = max(best, (max(rules.schedule(variant, players)), house), key=lambda b: b[0])
    return best[1]


def open_as_scorer(page: Page, base: str, app: Flask, game_id: str) -> None:
    with app.app_context():
        game = db.session.get(AscenseurGame, game_id)
        assert game is not None
        token = game.scorer_token
    page.goto(f"{base}/ascenseur/{game_id}/score/{token}")


def out_of_view(page: Page, selectors: list[str]) -> list[str]:
    """Those of ``selectors`` (every match of each) not wholly inside the first screen, or
    covered there."""
    return page.evaluate(
        """([selectors, height]) => {
            const out = [];
            for (const selector of selectors) {
                const found = document.querySelectorAll(selector);
                if (!found.length) out.push(`${selector}: none`);
                found.forEach((element, index) => {
                    const box = element.getBoundingClientRect();
                    const [top, bottom] = [Math.round(box.top), Math.round(box.bottom)];
                    const where = `${selector}[${index}]: ${top}–${bottom}`;
                    if (box.height === 0 || box.top < 0 || box.bottom > height) {
                        out.push(where);
                        return;
                    }
                    // In view, and not under something else (the confirm bar stays on top).
                    const middle = document.elementFromPoint(
                        box.left + box.width / 2, box.top + box.height / 2);
                    if (!element.contains(middle)) {
                        out.push(`${where} under ${middle && middle.className}`);
                    }
                });
            }
            return out;
        }""",
        [selectors, HEIGHT],
    )


class Keypad(Taps):
    def key(self, value: int) -> None:
        self.tap(
            self.page.locator(".keypad-panel:not([hidden]) .keypad").get_by_role(
                "button", name=str(value), exact=True
            )
        )


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
@pytest.mark.parametrize("trump", [False, True], ids=["largest", "largest-with-trump"])
@pytest.mark.parametrize("players", range(2, 8))
def test_the_round_with_the_largest_hand_is_entered_on_the_first_screen(
    page: Page, served_app: Flask, live_server: str, players: int, trump: bool
) -> None:
    house = largest_hand(players)
    variant = rules.with_house_rules(rules.PRESETS[PRESET], house)
    plans = rules.plan_game(variant, players, 0)
    top = max(plan.cards for plan in plans if plan.trump_turned or not trump)
    before = (
        next(
            plan.number for plan in plans if plan.cards == top and (plan.trump_turned or not trump)
        )
        - 1
    )
    entries = play_out(variant, players, 0, seed=players, rounds=before)
    game_id = store_game(served_app, PRESET, NAMES[:players], entries, **house)
    open_as_scorer(page, live_server, served_app, game_id)
    page.reload()  # as the page is at the table, past the link's one-time welcome
    expect(page.locator(".keypad-panel")).to_be_visible()
    plan = plans[before]
    assert page.locator(".keypad button").count() == top + 1
    shown = [
        ".dealer",
        ".cards",
        ".facts li:first-child",
        ".seat-line",
        ".keypad button",
        "form.bids .forbidden",
        "form.bids .confirm",
    ]
    if before:
        shown.append(".last-round summary")
    if plan.trump_turned:
        shown.append("form.bids .suits")
    kind = "trump" if trump else "bids"
    page.screenshot(path=ARTIFACTS / f"round-{players}-players-{kind}.png")
    assert out_of_view(page, shown) == []
    keypad = Keypad(page)
    for _player in range(players):
        keypad.key(0)  # nobody bids: never the dealer's forbidden number, with cards dealt
    expect(page.locator("form.tricks")).to_be_visible()
    page.screenshot(path=ARTIFACTS / f"round-{players}-players-{kind}-tricks.png")
    assert out_of_view(page, [".seat-line", ".keypad button", "form.tricks .confirm"]) == []


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
def test_a_round_takes_two_taps_a_player(page: Page, served_app: Flask, live_server: str) -> None:
    variant = rules.PRESETS[PRESET]
    game_id = store_game(served_app, PRESET, NAMES[:4], [])
    open_as_scorer(page, live_server, served_app, game_id)
    taps_per_round = []
    for number in range(1, 5):
        keypad = Keypad(page)
        expect(page.get_by_text(f"Round {number} of")).to_be_visible()
        for _player in range(4):
            keypad.key(0)
        expect(page.locator("form.tricks")).to_be_visible()
        for _player in range(3):
            keypad.key(0)  # the last player's count fills itself in: the round's cards
        keypad.confirm("tricks")
        taps_per_round.append(keypad.count)
    assert taps_per_round == [8, 8, 8, 8]
    with served_app.app_context():
        game = db.session.get(AscenseurGame, game_id)
        assert game is not None
        expected = []
        for plan in rules.plan_game(variant, 4, 0)[:4]:
            tricks = [0] * 4
            tricks[plan.bidding_order[-1]] = plan.cards
            expected.append(([0] * 4, tricks))
        assert [(r.bids, r.tricks) for r in game.rounds] == expected


LONG_NAMES = (
    "Marie-Françoise",
    "Jean-Christophe",
    "Anne-Sophie",
    "Bartholomew",
    "Éléonore",
    "Maximilien",
    "Gwendoline",
)


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
@pytest.mark.parametrize(
    ("players", "names"), [*((n, NAMES) for n in range(2, 8)), (7, LONG_NAMES)]
)
def test_every_hand_the_game_deals_is_entered_on_the_first_screen(
    page: Page, served_app: Flask, live_server: str, players: int, names: tuple[str, ...]
) -> None:
    house = largest_hand(players)
    variant = rules.with_house_rules(rules.PRESETS[PRESET], house)
    plans = rules.plan_game(variant, players, 0)
    firsts = {}
    for plan in plans:  # the first round of each hand size, with and without a trump card
        firsts.setdefault((plan.cards, plan.trump_turned), plan.number - 1)
    entries = play_out(variant, players, 0, seed=players)
    out = {}
    for (cards, trump), before in sorted(firsts.items()):
        game_id = store_game(served_app, PRESET, names[:players], entries[:before], **house)
        open_as_scorer(page, live_server, served_app, game_id)
        page.reload()
        shown = [".dealer", ".cards", ".seat-line", ".keypad button", "form.bids .confirm"]
        shown += ["form.bids .forbidden"] if plans[before].hook else []
        shown += ["form.bids .suits"] if trump else []
        if missing := out_of_view(page, shown):
            out[(cards, trump)] = missing
        if names == LONG_NAMES and (cards, trump) == (5, True):
            page.screenshot(path=ARTIFACTS / f"round-{players}-long-names.png")
    assert len(firsts) > players and out == {}
