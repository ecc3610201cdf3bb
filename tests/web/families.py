"""A game of every family, a little played, and the addresses of its pages: what a reader sees
of each family, for the tests that read every page (its language, its controls' size)."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.web.table import Table
from tests.web.test_bridge import Evening
from tests.web.test_club import SMALL, Club, director_post
from tests.web.test_echelons import Log
from tests.web.test_tarot import FIVE, Tarot, deal_fields
from tests.web.test_teams import Match


def every_familys_pages(client: FlaskClient) -> list[str]:
    """Games of every family begun through ``client`` (its browser scores them), with one
    entry, or a few, and a correction each; the addresses of their pages, and of the pages
    that start them."""
    ascenseur = Table(client)
    ascenseur.start("ascenseur", ("Anne", "Bruno", "Chloé"))
    ascenseur.play(1, (1, 0, 1), (0, 0, 1))
    assert ascenseur.correct(1, (1, 0, 1), (1, 0, 0)).status_code == 302
    assert ascenseur.bids(2, (1, 0, 0)).status_code == 302

    evening = Evening(client)
    evening.start()
    evening.played(1, "4S", "N", 0)
    evening.played(2, "2H", "E", -1)
    deleted = client.post(f"{evening.url}/deals/2/delete", data=evening.fields())
    assert deleted.status_code == 302

    club = Club(client)
    club.start(**SMALL, lead="asked")  # the lead's cards on the tables' phones too
    club.enter(1, {"level": "4", "strain": "S", "declarer": "N", "doubled": "0", "result": "0",
                   "lead": "HT"})  # fmt: skip
    club.enter(2, {"level": "3", "strain": "NT", "declarer": "S", "doubled": "0", "result": "1",
                   "lead": "S3"})  # fmt: skip
    club.enter(1, {"result": "passed"})
    edit = f"{club.url}/results/1/1/1"
    corrected = director_post(client, edit, action="result", level="4", strain="S",
                              declarer="N", doubled="0", result="1", lead="HT")  # fmt: skip
    assert corrected.status_code == 302  # type: ignore[attr-defined]
    Club(client).start(**SMALL)  # no result yet

    match = Match(client)
    match.start(boards="1")
    # Board 1, nobody vulnerable: 1NT +1 (120) against 1NT made (90): 1 IMP to the Lions.
    match.board(1, ("1NT", "N", 1), ("1NT", "N", 0))
    assert match.edit(1, 2, ("1NT", "S", 0)).status_code == 302
    unfinished = Match(client)
    unfinished.start(boards="2")
    unfinished.enter(1, 1, ("3NT", "N", 0))

    log = Log(client)
    log.start("Zoé")
    for played_on, fields in [
        ("2026-11-02", {"result": "won"}),
        ("2026-11-03", {"result": "cards", "cards_home": 31, "minutes": 1}),
        ("2026-11-10", {"result": "cards", "cards_home": 20}),
    ]:
        assert log.post(played_on=played_on, **fields).status_code == 302
    assert log.correct(3, result="cards", cards_home=1, played_on="2026-11-10").status_code == 302
    one_game = Log(client)
    one_game.start("Yves")
    assert one_game.post(played_on="2026-11-02", result="cards", cards_home=1).status_code == 302
    Log(client).start("Xavier")  # no game yet
    race = Log(client)
    race.start("Zoé", "Yann")
    assert race.post(left_a=5, left_b=5, played_on="2026-11-20").status_code == 302

    tarot = Tarot(client)
    tarot.start(FIVE)
    tarot.deal(1, 0, "garde", 2, 49, partner=2, petit_au_bout="defence")
    tarot.passed(2)
    tarot.deal(3, 4, "prise", 1, 40.5, partner="alone", poignee_taker="simple")
    assert tarot.correct(1, deal_fields(0, "garde-sans", 2, 49, partner=2)).status_code == 302
    three = Tarot(client)
    three.start(("Anne", "Bruno", "Chloé"))  # no deal yet

    return [
        "/",
        "/new",
        "/import",
        "/ascenseur/new/ascenseur",
        ascenseur.game_url,
        f"{ascenseur.game_url}/sheet",
        f"{ascenseur.game_url}/rounds/1/edit",
        "/bridge/new",
        evening.url,
        f"{evening.url}/sheet",
        f"{evening.url}/deals/1/edit",
        "/club/new",
        "/club/import",
        "/club/event/new",
        club.url,
        club.tables[1],
        club.tables[2],
        f"{club.url}/ranking",
        f"{club.url}/travellers",
        f"{club.url}/cards",
        f"{club.url}/movement",
        edit,
        "/teams/new",
        match.url,
        f"{match.url}/sheet",
        f"{match.url}/boards/1/tables/1/edit",
        unfinished.url,
        "/echelons/new",
        log.url,
        f"{log.url}/games/1/edit",
        one_game.url,
        race.url,
        "/tarot/new",
        tarot.url,
        f"{tarot.url}/sheet",
        f"{tarot.url}/deals/1/edit",
        three.url,
        f"{three.url}/sheet",
    ]
