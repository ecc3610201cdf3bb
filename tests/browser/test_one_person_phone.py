"""One person everywhere, on 360 × 740 phones: Anne of a family circle takes her place in her
bridge club's circle with her own link, and sees her Ascenseur game and her club sessions on
one page; the club's session, its pairs named from the members on the director's phone,
writes their federation numbers in its USEBIO file; the season's ladder and a handicapped
ranking over 12 generated sessions are those counted in tests/web/test_club_season.py, apart
from the app's rules; Anne leaves the club as "a former member", and every public page of the
club shows her so."""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from urllib.parse import urlsplit
from xml.etree import ElementTree

from flask import Flask
from flask.testing import FlaskClient
from playwright.sync_api import Browser, Page, expect

from scorekeeper.rules.federations import ffb_check_digit
from tests.browser.chromium import PHONE
from tests.browser.test_ascenseur_phone import no_sideways_scroll, serious_violations
from tests.browser.test_sheet_print import ARTIFACTS
from tests.web.table import NONCE, TOKEN
from tests.web.test_circles import finished_game
from tests.web.test_club import SMALL, TABLE_LINK, Club, play_whole_session
from tests.web.test_club_season import (
    MEMBERS,
    expected_handicaps,
    expected_ladder,
    ladder_lines,
    session_record,
    twelve_sessions,
)

SCORER_LINK = re.compile(r'value="https?://[^/"]+(/club/[A-Za-z0-9_-]+/score/[A-Za-z0-9_-]+)"')


def path_of(link: str) -> str:
    return urlsplit(link).path


def start_circle(page: Page, base: str, name: str, people: list[str]) -> str:
    page.goto(base + "/circle/new")
    page.get_by_label("The circle's name").fill(name)
    page.get_by_label("Its people, one name a line").fill("\n".join(people))
    page.get_by_role("button", name="Start the circle").click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    return page.url


def own_link(page: Page, circle_url: str, name: str) -> str:
    """The own link the keeper's page gives ``name`` (its path)."""
    page.goto(circle_url)
    page.locator(".people summary", has_text=name).first.click()
    link = page.get_by_label(f"{name}'s own page: give this link to them alone")
    return path_of(link.input_value())


def give_number(page: Page, name: str, federation: str, number: str) -> None:
    row = page.locator(".people li", has=page.locator("summary", has_text=name)).first
    row.locator("summary").click()
    row.get_by_label("Federation").select_option(federation)
    row.get_by_label("Their number there").fill(number)
    row.get_by_role("button", name="Save the number").click()
    expect(page.locator(".flash")).to_contain_text(number)


def test_one_person_across_a_family_and_a_club_with_the_clubs_season(
    page: Page, live_server: str, browser: Browser, served_app: Flask
) -> None:
    # The family, with an Ascenseur game of Anne's.
    family_url = start_circle(page, live_server, "Les Martin", ["Anne", "Paul", "Léa"])
    game = finished_game(served_app, family_url.rsplit("/", 1)[1], ["Anne", "Paul", "Léa"], 4)
    anne_home = own_link(page, family_url, "Anne")

    # The club: its members, two of them with their federation numbers.
    director = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    club_url = start_circle(director, live_server, "Bridge Club", MEMBERS)
    licence = "49071" + str(ffb_check_digit("49071"))  # an FFB licence and its check digit
    give_number(director, "Anne", "FFB", licence)
    give_number(director, "Bruno", "ACBL", "J123456")
    keeper_link = director.get_by_label("Link to keep the circle").input_value()

    # Eleven weekly sessions of the club, generated as its tables' phones play them.
    club = served_app.test_client()
    club.get(path_of(keeper_link))  # keeps the club's circle, to start its sessions
    club_id = club_url.rsplit("/", 1)[1]
    sessions = twelve_sessions(club, served_app, club_id, weeks=11)

    # The twelfth, played, its pairs named from the members on the director's phone.
    last = played_session(club, club_id)
    scorer = SCORER_LINK.search(club.get(last).get_data(as_text=True))
    assert scorer
    director.goto(live_server + scorer.group(1))
    director.goto(f"{live_server}{last}/pairs")
    offered = director.locator("datalist#members option")
    expect(offered.first).to_be_attached()
    options = [o.get_attribute("value") or "" for o in offered.all()]
    assert set(MEMBERS) <= set(options) and " – " in options[0]  # partnerships first
    pairs = [
        ("Anne", "Bruno"),
        ("Chloé", "Denis"),
        ("Émile", "Fanny"),
        ("Gilles", "Hélène"),
        ("Zoé", "Yann"),  # guests, typed in
        ("Xavier", "Wanda"),
    ]
    fields = director.locator("input[list=members]")
    expect(fields).to_have_count(len(pairs))
    for index, (first, second) in enumerate(pairs):
        fields.nth(index).fill(f"{first} – {second}")
    no_sideways_scroll(director)
    director.get_by_role("button", name="Save the names").click()
    expect(director.get_by_text("The pairs' names are saved.")).to_be_visible()
    director.get_by_role("button", name="Close the session").click()
    expect(director.get_by_role("button", name="Open the session again")).to_be_visible()
    sessions.append(session_record(served_app, last.rsplit("/", 1)[1], 11, pairs))
    usebio = director.request.get(f"{live_server}{last}/session.xml")
    found: Counter[tuple[str, str]] = Counter()
    for pair in ElementTree.fromstring(usebio.body()).iter("PAIR"):
        numbers = tuple(
            (player.findtext("NATIONAL_ID_NUMBER") or "").strip()
            for player in pair.findall("PLAYER")
        )
        if any(numbers):
            found[(numbers[0], numbers[1])] += 1
    assert found == Counter({(licence, "J123456"): 1})

    # Anne takes her place in the club with her own link, on her phone.
    anne = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    club_place = own_link(director, club_url, "Anne")
    anne.goto(live_server + club_place)
    anne.get_by_text("One page for all your circles").click()
    anne.get_by_label("Your own page's link, from your other circle").fill(live_server + anne_home)
    anne.get_by_role("button", name="Put this circle on my page").click()
    expect(anne.get_by_text("Your page now shows Bridge Club too.")).to_be_visible()
    old_home, anne_home = anne_home, urlsplit(anne.url).path  # her link is new, hers alone
    assert anne_home != old_home and anne_home.startswith("/circle/person/")
    expect(anne.get_by_role("heading", name="Les Martin")).to_be_visible()
    expect(anne.get_by_role("heading", name="Bridge Club")).to_be_visible()
    expect(anne.locator(f'a[href$="{game}"]')).to_have_count(1)  # her Ascenseur game
    played = sum(1 for _d, _i, pairs in sessions for p in pairs if "Anne" in p[1])
    club_games = anne.locator(f"#place-{club_place_id(anne)} .games li")
    expect(club_games).to_have_count(played)
    expect(anne.get_by_text("In the club's ladder")).to_be_visible()
    no_sideways_scroll(anne)
    assert serious_violations(anne) == []
    anne.screenshot(path=str(ARTIFACTS / "person-two-circles.png"), full_page=True)
    for opened in (club_place, old_home):  # the offer, and her old link, open nothing now
        answer = anne.goto(live_server + opened)
        assert answer is not None and answer.status == 404

    # The season's page, on a phone with the club's address alone.
    viewer = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    viewer.goto(f"{club_url}/season?best=5")
    shown = ladder_lines(
        [
            [cells[0], cells[1].splitlines()[0], cells[2]]
            for cells in table_rows(viewer, "table.ladder")
        ]
    )
    assert shown == expected_ladder(sessions, 5, None)
    chosen = 9
    viewer.goto(f"{club_url}/season?last=4&share=50&cap=4&session={sessions[chosen][1]}")
    rows = table_rows(viewer, "table.handicapped")
    shown_h = sorted((int(cells[0].rstrip("=")), cells[2], cells[4]) for cells in rows)
    assert shown_h == expected_handicaps(sessions, chosen, 4, Fraction(1, 2), 4)
    expect(viewer.get_by_text("over their last 4 sessions")).to_be_visible()
    no_sideways_scroll(viewer)
    assert serious_violations(viewer) == []
    viewer.screenshot(path=str(ARTIFACTS / "club-season.png"), full_page=True)

    # Anne leaves the club, shown as a former member; every public page of the club says so.
    anne.goto(live_server + anne_home)
    place = anne.locator(f"#place-{club_place_id(anne)}")
    place.get_by_text("Leave this circle").click()
    place.get_by_role("button", name="Leave, shown as “a former member”").click()
    expect(
        anne.get_by_text("You left Bridge Club: its pages show you as a former member.")
    ).to_be_visible()
    public = [
        club_url,
        f"{club_url}/season",
        *(f"{live_server}/club/{session_id}{page}" for _d, session_id, _p in sessions[-2:]
          for page in ("", "/ranking", "/travellers")),
    ]  # fmt: skip
    for address in public:
        viewer.goto(address)
        expect(viewer.locator("main")).not_to_contain_text("Anne")
    viewer.goto(f"{live_server}{last}/ranking")
    expect(viewer.locator("main")).to_contain_text("A former member")
    viewer.goto(club_url)
    expect(viewer.locator("main")).to_contain_text("A former member")
    for phone in (viewer, anne, director):
        context = phone.context
        phone.close()
        context.close()


def played_session(client: FlaskClient, circle_id: str) -> str:
    """A session of the circle started and played through ``client``, its pairs not named
    yet: its address."""
    page = client.get(f"/club/new?circle={circle_id}").get_data(as_text=True)
    token, nonce = TOKEN.search(page), NONCE.search(page)
    assert token and nonce
    data = {"csrf_token": token.group(1), "nonce": nonce.group(1), "circle": circle_id}
    response = client.post("/club/new", data={**data, **SMALL})
    assert response.status_code == 302
    club = Club(client)
    club.url = response.headers["Location"]
    tables = TABLE_LINK.findall(client.get(club.url).get_data(as_text=True))
    club.tables = {int(number): link for link, number in tables}
    play_whole_session(club, 3, seed=12)
    return club.url


def club_place_id(anne: Page) -> str:
    """The id of Anne's place in the club, as her page's section for it is named."""
    section = anne.locator("section.place", has=anne.get_by_role("heading", name="Bridge Club"))
    found = section.get_attribute("id")
    assert found
    return found.removeprefix("place-")


def table_rows(page: Page, selector: str) -> list[list[str]]:
    rows = page.locator(f"{selector} tbody tr")
    return [
        [cell.strip() for cell in row.locator("th, td").all_inner_texts()] for row in rows.all()
    ]
