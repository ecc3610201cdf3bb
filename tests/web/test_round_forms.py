"""The forms of the round pages say in the page what is wrong, row by row; the browser's own
checks never stand in for them."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from tests.web.table import Table, text


def test_a_missing_bid_is_listed_at_the_top_and_marked_on_its_row(game: Table) -> None:
    response = game.bids(2, (None, 1, None, 0))
    assert response.status_code == 422
    page = text(response)
    summary = page.split('class="error-summary"', 1)[1].split("</div>", 1)[0]
    assert "Enter Anne&#39;s bid." in summary and "Enter Chloé&#39;s bid." in summary
    assert 'href="#row-bid_0"' in summary
    assert re.search(r'<fieldset class="numbers invalid" id="row-bid_0"', page)
    assert not re.search(r'<fieldset class="numbers invalid" id="row-bid_1"', page)


def test_every_form_of_the_round_pages_leaves_checking_to_the_page(game: Table) -> None:
    for url in (game.game_url, f"{game.game_url}/rounds/1/edit", "/ascenseur/new/ascenseur"):
        page = text(game.client.get(url))
        forms = re.findall(r"<form [^>]*>", page)
        entry_forms = [form for form in forms if 'class="entry' in form or 'class="setup' in form]
        assert entry_forms, url
        assert all("novalidate" in form for form in entry_forms), url


def test_the_correction_page_tags_each_trick_row_with_its_bid(game: Table) -> None:
    page = text(game.client.get(f"{game.game_url}/rounds/1/edit"))
    tricks = page.split("<h2>Tricks</h2>", 1)[1]
    bids = zip(("Anne", "Bruno", "Chloé", "Denis"), (1, 1, 0, 0), strict=True)
    for seat, (name, bid) in enumerate(bids):
        assert re.search(
            rf'{name} <span class="tag" data-bid-of="{seat}"[^>]*>bid {bid}</span>', tricks
        ), name


def test_the_setup_says_why_no_player_can_be_added(client: FlaskClient) -> None:
    table = Table(client)
    data = table.setup_data("ascenseur", ("A", "B", "C", "D", "E"), action="preview")
    page = text(client.post("/ascenseur/new/ascenseur", data=data))
    assert "Add a player" not in page
    assert "This game is for at most 5 players: there is no room for another." in page
    page = text(client.get("/ascenseur/new/ascenseur"))
    assert "Add a player" in page and "no room for another" not in page


def test_a_players_name_in_a_message_is_text_not_markup(client: FlaskClient) -> None:
    table = Table(client)
    table.start("ascenseur", ("<b>Zoé</b>", "Bruno", "Chloé", "Denis"))
    page = text(table.bids(1, (None, 0, 0, 0)))
    assert "Enter &lt;b&gt;Zoé&lt;/b&gt;&#39;s bid." in page
    assert "<b>Zoé</b>" not in page
