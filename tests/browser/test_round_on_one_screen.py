"""A round entered on one phone screen, for 2 to 7 players and every hand the game can deal them,
both steps: the dealer, the cards, the trump instruction, every player's line (its name, its tag
and its number), the keypad, the forbidden-bid note, the count and the tricks' buttons, all in
view with nothing scrolled on a 360 × 740 phone or a taller one, and nothing under the keypad or
a button bar on any phone, even scrolled to. Past seven players the page scrolls: the lit line
is brought into view beside the keypad at every tap. And a round taken in 2n taps (n bids,
n − 1 tricks, the last filled in, one confirm)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect

from scorekeeper.ascenseur.models import AscenseurGame
from scorekeeper.extensions import db
from scorekeeper.rules import ascenseur as rules
from tests.browser.chromium import PHONE
from tests.browser.test_ascenseur_phone import Taps
from tests.browser.test_sheet_one_page import SCHEDULE_RULES
from tests.browser.test_sheet_print import ARTIFACTS, NAMES
from tests.games import play_out, store_game

PRESET = "ascenseur-a-charge"
HEIGHT = 740
TALL_PHONES = [(360, 740), (390, 844), (412, 915)]
"""Phones on which a round of up to seven players fits the first screen."""
SHORT_PHONES = [(320, 568), (375, 667)]
"""Phones on which it scrolls: nothing of it is ever covered all the same."""


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


HIDDEN_PROBLEMS = """([selectors, firstScreen]) => {
    // What the keypad and a bar of buttons could hide; an element inside one is not hidden by it.
    const covers = [...document.querySelectorAll(".keypad, .confirm-bar")]
        .filter((cover) => cover.getClientRects().length);
    const out = [];
    for (const selector of selectors) {
        const found = document.querySelectorAll(selector);
        if (!found.length) out.push(`${selector}: none`);
        found.forEach((element, index) => {
            if (!firstScreen) element.scrollIntoView({ block: "nearest" });
            const box = element.getBoundingClientRect();
            const where = `${selector}[${index}] ${Math.round(box.left)}–${Math.round(box.right)}`
                + ` × ${Math.round(box.top)}–${Math.round(box.bottom)}`;
            // (Scrolled to, an element may end a fraction of a pixel past the screen's edge.)
            if (box.height === 0 || box.top < -0.5 || box.left < 0
                || box.bottom > window.innerHeight + 0.5 || box.right > window.innerWidth) {
                out.push(`${where}: off the screen`);
                return;
            }
            for (const cover of covers) {
                const over = cover.getBoundingClientRect();
                if (!cover.contains(element) && box.left < over.right && over.left < box.right
                    && box.top < over.bottom && over.top < box.bottom) {
                    out.push(`${where}: under .${cover.className} ${Math.round(over.left)}`
                        + `–${Math.round(over.right)} × ${Math.round(over.top)}`
                        + `–${Math.round(over.bottom)}`);
                }
            }
            // Its middle and its two ends are its own, not another element's.
            const [midX, midY] = [(box.left + box.right) / 2, (box.top + box.bottom) / 2];
            const points = [[midX, midY], [box.left + 3, midY], [box.right - 3, midY]];
            for (const [x, y] of points) {
                const hit = document.elementFromPoint(x, y);
                if (!element.contains(hit)) {
                    out.push(`${where}: covered at ${Math.round(x)},${Math.round(y)}`
                        + ` by ${hit && hit.outerHTML.slice(0, 60)}`);
                    break;
                }
            }
        });
    }
    return out;
}"""


def hidden(page: Page, selectors: list[str], *, first_screen: bool = True) -> list[str]:
    """Those of ``selectors`` (every match of each) not wholly in view, or covered there, in
    part: on the first screen, or else each once scrolled to."""
    problems: list[str] = page.evaluate(HIDDEN_PROBLEMS, [selectors, first_screen])
    if not first_screen:
        page.evaluate("window.scrollTo(0, 0)")
    return problems


def lit_value_hidden(page: Page) -> list[str]:
    """The lit player's number, where the page has it now, wholly in view and uncovered."""
    if (lit := page.locator(".seat-line.current").count()) != 1:
        return [f"{lit} lines lit"]
    return page.evaluate(HIDDEN_PROBLEMS, [[".seat-line.current .value"], True])


LINES = [".seat-line", ".seat-line .who", ".seat-line .value", ".keypad button"]


def bids_shown(plan: rules.RoundPlan, before: int) -> list[str]:
    shown = [".dealer", ".cards", ".facts", *LINES]
    shown += [".seat-line .tag"]  # the dealer's
    shown += ["form.bids .forbidden"] if plan.hook else []
    shown += ["form.bids .suits"] if plan.trump_turned else []
    shown += [".last-round summary"] if before else []
    return shown


def tricks_shown(plan: rules.RoundPlan, *, trump_noted: bool = True) -> list[str]:
    shown = [".dealer", ".cards", ".facts", "form.tricks .count", *LINES, ".seat-line .tag"]
    shown += [".facts .trump"] if plan.trump_turned and trump_noted else []
    return [*shown, "form.tricks .confirm", ".take-back button"]


class Keypad(Taps):
    def key(self, value: int) -> None:
        self.tap(
            self.page.locator(".keypad-panel:not([hidden]) .keypad").get_by_role(
                "button", name=str(value), exact=True
            )
        )

    def allowed(self, *values: int) -> None:
        """The first of ``values`` the lit player may be given."""
        keys = self.page.locator(".keypad-panel:not([hidden]) .keypad")
        for value in values:
            key = keys.get_by_role("button", name=str(value), exact=True)
            if key.is_enabled():
                self.tap(key)
                return
        raise AssertionError(f"none of {values} may be tapped")


def enter_round(
    page: Page, plan: rules.RoundPlan, before: int, *, first_screen: bool, french: bool = False
) -> dict[str, list[str]]:
    """The round as the scorer enters it, its widest numbers first: the first bidder bids
    every card, the others nothing (the dealer 1 when nothing is forbidden), the trump suit
    noted; the first bidder takes every trick, then the second one too many. What is hidden
    at each step."""
    found: dict[str, list[str]] = {}
    keypad = Keypad(page)
    expect(page.locator(".keypad-panel")).to_be_visible()
    assert page.locator(".keypad button").count() == plan.cards + 1
    found["bids"] = hidden(page, bids_shown(plan, before), first_screen=first_screen)
    if plan.trump_turned:
        page.locator("form.bids .suit-H").click()
    keypad.key(plan.cards)
    found["bids, the first bid in"] = [
        *hidden(page, bids_shown(plan, before), first_screen=first_screen),
        *lit_value_hidden(page),
    ]
    for _player in range(len(plan.bidding_order) - 2):
        keypad.allowed(0, 1)
        found.setdefault("the lit line as the bids go in", []).extend(lit_value_hidden(page))
    keypad.allowed(0, 1)
    expect(page.locator("form.tricks")).to_be_visible()  # sent with the last bid
    found["tricks"] = hidden(page, tricks_shown(plan), first_screen=first_screen)
    keypad.key(plan.cards)  # everyone else's nothing follows
    count = page.locator("form.tricks .count")
    expect(count).to_have_text(
        f"Plis saisis\u00a0: {plan.cards} sur {plan.cards}"
        if french
        else f"{plan.cards} of {plan.cards} tricks entered"
    )
    found["tricks, all in"] = [
        *hidden(page, tricks_shown(plan), first_screen=first_screen),
        *lit_value_hidden(page),
    ]
    keypad.tap(page.locator(".seat-line").nth(1))
    keypad.key(1)
    expect(count).to_have_text(
        f"Total des plis\u00a0: {plan.cards + 1} au lieu de {plan.cards}."
        if french
        else f"The tricks add up to {plan.cards + 1}, not {plan.cards}."
    )
    found["tricks, a wrong total"] = [
        *hidden(page, tricks_shown(plan), first_screen=first_screen),
        *lit_value_hidden(page),
    ]
    return {step: problems for step, problems in found.items() if problems}


def every_hand(players: int) -> tuple[dict[str, object], list[rules.RoundPlan]]:
    """House rules that deal ``players`` the largest hand the game allows, and the first round
    of each hand size, from 1 card to that largest."""
    house = largest_hand(players)
    variant = rules.with_house_rules(rules.PRESETS[PRESET], house)
    firsts: dict[int, rules.RoundPlan] = {}
    for plan in rules.plan_game(variant, players, 0):
        firsts.setdefault(plan.cards, plan)
    assert sorted(firsts) == list(range(1, max(firsts) + 1))
    return house, [firsts[cards] for cards in sorted(firsts)]


def round_at(
    page: Page, app: Flask, base: str, players: int, plan: rules.RoundPlan, **house: Any
) -> None:
    """The scorer's page at ``plan``'s round, every round before it played."""
    variant = rules.with_house_rules(rules.PRESETS[PRESET], house)
    entries = play_out(variant, players, 0, seed=players, rounds=plan.number - 1)
    game_id = store_game(app, PRESET, NAMES[:players], entries, **house)
    open_as_scorer(page, base, app, game_id)
    page.reload()  # as the page is at the table, past the link's one-time welcome


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
@pytest.mark.parametrize("players", range(2, 8))
def test_every_hand_the_game_deals_is_entered_on_the_first_screen_both_steps(
    page: Page, served_app: Flask, live_server: str, players: int
) -> None:
    house, plans = every_hand(players)
    out = {}
    for plan in plans:
        round_at(page, served_app, live_server, players, plan, **house)
        if problems := enter_round(page, plan, plan.number - 1, first_screen=True):
            out[plan.cards] = problems
    assert out == {}


def layout_edges(players: int, plans: list[rules.RoundPlan]) -> list[rules.RoundPlan]:
    """The hands where the round's layout changes: one card, the largest hand, and the two
    either side of the keypad moving from beside the lines to under them."""
    edge = 3 * players - 1  # 3 keys a row beside the lines, up to a row a player
    chosen = {1, edge, edge + 1, plans[-1].cards}
    return [plan for plan in plans if plan.cards in chosen]


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
@pytest.mark.parametrize(
    "phone", [*TALL_PHONES[1:], *SHORT_PHONES], ids=lambda p: "×".join(map(str, p))
)
def test_on_other_phones_nothing_of_the_round_is_ever_covered(
    page: Page, served_app: Flask, live_server: str, phone: tuple[int, int]
) -> None:
    width, height = phone
    page.set_viewport_size({"width": width, "height": height})
    out = {}
    for players in range(2, 8):
        house, plans = every_hand(players)
        for plan in layout_edges(players, plans):
            round_at(page, served_app, live_server, players, plan, **house)
            found = enter_round(page, plan, plan.number - 1, first_screen=phone in TALL_PHONES)
            if found:
                out[(players, plan.cards)] = found
    assert out == {}


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
@pytest.mark.parametrize("players", [8, 10, 13, 26])
def test_past_seven_players_the_lit_line_is_brought_into_view_beside_the_keypad(
    page: Page, served_app: Flask, live_server: str, players: int
) -> None:
    variant = rules.PRESETS[PRESET]
    plans = rules.plan_game(variant, players, 0)
    out = {}
    for plan in (plans[0], max(plans, key=lambda each: each.cards)):
        round_at(page, served_app, live_server, players, plan)
        keypad = Keypad(page)
        problems = hidden(page, bids_shown(plan, plan.number - 1), first_screen=False)
        for _player in range(players - 1):
            keypad.allowed(0, 1)  # the keypad, beside the lit line, is never scrolled to
            problems += lit_value_hidden(page)
        keypad.allowed(0, 1)
        expect(page.locator("form.tricks")).to_be_visible()
        problems += hidden(page, tricks_shown(plan, trump_noted=False), first_screen=False)
        for _player in range(players - 1):
            keypad.key(0)
            problems += lit_value_hidden(page)
        expect(page.locator("form.tricks .count")).to_have_text(
            f"{plan.cards} of {plan.cards} tricks entered"
        )
        if problems:
            out[plan.cards] = problems
    assert out == {}


@pytest.mark.parametrize("served_app", ["sqlite"], indirect=True)
@pytest.mark.parametrize("players", [4, 7])
def test_the_screens_of_a_round(
    page: Page, served_app: Flask, live_server: str, players: int
) -> None:
    """The README's screens (docs/screens): a round's bids and its tricks, the hand shown
    being the largest that keeps the keypad beside the lines, with a trump card turned."""
    variant = rules.PRESETS[PRESET]
    plans = rules.plan_game(variant, players, 0)
    plan = max(
        (each for each in plans if each.trump_turned and each.cards < 3 * players),
        key=lambda each: (each.cards, -each.number),
    )
    round_at(page, served_app, live_server, players, plan)
    keypad = Keypad(page)
    page.locator("form.bids .suit-S").click()
    for bid in (1, 0, 2)[: players - 1]:
        keypad.key(bid)
    page.screenshot(path=ARTIFACTS / f"round-{players}-players.png")
    for _player in range(players - 3):
        keypad.allowed(0, 1)
    expect(page.locator("form.tricks")).to_be_visible()
    keypad.key(1)
    keypad.key(0)
    page.screenshot(path=ARTIFACTS / f"round-{players}-players-tricks.png")
    assert hidden(page, tricks_shown(plan)) == []


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
    expect(page.get_by_text("Round 5 of")).to_be_visible()  # the last tricks are in
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
@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_long_names_are_cut_short_and_nothing_else_is(
    browser: Browser, served_app: Flask, live_server: str, locale: str
) -> None:
    context = browser.new_context(viewport=PHONE, locale=locale)
    page = context.new_page()
    house, plans = every_hand(7)
    out = {}
    for plan in plans:
        variant = rules.with_house_rules(rules.PRESETS[PRESET], house)
        entries = play_out(variant, 7, 0, seed=7, rounds=plan.number - 1)
        game_id = store_game(served_app, PRESET, LONG_NAMES, entries, **house)
        open_as_scorer(page, live_server, served_app, game_id)
        page.reload()
        french = locale == "fr-FR"
        if found := enter_round(page, plan, plan.number - 1, first_screen=True, french=french):
            out[plan.cards] = found
        cut = page.locator(".seat-line .who").evaluate_all(
            "names => names.map((name) => name.scrollWidth > name.clientWidth)"
        )
        assert any(cut)  # the names gave way, and the tags and numbers stayed whole
    page.screenshot(path=ARTIFACTS / f"round-7-long-names-tricks-{locale}.png")
    context.close()
    assert out == {}
