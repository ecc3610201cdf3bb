"""A club's season page: the ladder of twelve generated sessions and a session's handicapped
ranking, held to a count written here from each session's ranking, apart from
scorekeeper.rules.history."""

from __future__ import annotations

import html
import json
import random
import re
import unicodedata
from collections import Counter
from datetime import date, datetime, timedelta
from fractions import Fraction

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.circles.models import Circle, Person
from scorekeeper.club.models import ClubSession
from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from tests.web.table import text
from tests.web.test_circle_places import club_session
from tests.web.test_circles import Keeper
from tests.web.test_club import SMALL, Club, upload

MEMBERS = ["Anne", "Bruno", "Chloé", "Denis", "Émile", "Fanny", "Gilles", "Hélène"]
FIRST_DAY = date(2026, 9, 1)

Pair = tuple[str, str]
Session = tuple[date, str, list[tuple[str, Pair, Fraction, int, int]]]
"""A session's day, id and pairs: label, players' names, percentage, place, tied."""


def twelve_sessions(
    client: FlaskClient, app: Flask, circle_id: str, weeks: int = 12
) -> list[Session]:
    """Twelve weekly sessions of the circle (or as many as ``weeks``), their pairs drawn from
    the members with now and then a guest, each as its own ranking placed its pairs."""
    draw = random.Random(56)
    sessions: list[Session] = []
    for week in range(weeks):
        players: list[str | None] = [*draw.sample(MEMBERS, 6 if week % 3 else 5)]
        players += [None] * (12 - len(players))
        draw.shuffle(players)
        # A guest is typed in by name, and so joins the circle's people.
        pairs = [
            (players[2 * i] or f"Guest {week}{i}a", players[2 * i + 1] or f"Guest {week}{i}b")
            for i in range(6)
        ]
        names = {f"names-{i}": f"{first} – {second}" for i, (first, second) in enumerate(pairs)}
        club = club_session(client, app, circle_id, names)
        sessions.append(session_record(app, club.url.rsplit("/", 1)[1], week, pairs))
    return sessions


def session_record(app: Flask, game_id: str, week: int, pairs: list[Pair]) -> Session:
    """The session of this id, played on the week's day, its pairs so named, as its own
    ranking placed them."""
    day = FIRST_DAY + timedelta(days=7 * week)
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert isinstance(game, ClubSession)
        game.created_at = datetime(day.year, day.month, day.day, 20)
        db.session.commit()
        score = game.score()
        found = []
        for pair, names_of in zip(game.pairs, pairs, strict=True):
            standing = score.standing_of(pair.key)
            assert standing is not None and standing.percentage is not None
            (ranking,) = [r for _side, r in score.rankings if standing in r]
            tied = sum(other.rank == standing.rank for other in ranking)
            label = f"Pair {pair.number} {pair.direction}".strip()
            found.append((label, names_of, standing.percentage, standing.rank, tied))
        return (day, game.id, found)


def expected_ladder(sessions: list[Session], best: int | None, points: list[int] | None) -> list:
    """The ladder's lines as the page lists them: by place, members level as a dictionary
    orders their names (Émile between Denis and Fanny)."""
    totals = {
        name: sum(mine, Fraction(0)) for name, mine in counted(sessions, best, points).items()
    }
    lines = [
        (1 + sum(other > total for other in totals.values()), name, f"{float(total):.2f}")
        for name, total in totals.items()
    ]

    def as_in_a_dictionary(name: str) -> str:
        return "".join(c for c in unicodedata.normalize("NFKD", name.lower()) if c.isascii())

    return sorted(lines, key=lambda line: (line[0], as_in_a_dictionary(line[1])))


def ladder_lines(cells: list[list[str]]) -> list[tuple[int, str, str]]:
    """The ladder's lines in the page's order, each shared place marked so."""
    places = Counter(int(row[0].rstrip("=")) for row in cells)
    for row in cells:
        assert row[0].endswith("=") == (places[int(row[0].rstrip("="))] > 1), row
    return [(int(row[0].rstrip("=")), row[1], row[2].replace(",", "")) for row in cells]


def counted(
    sessions: list[Session], best: int | None, points: list[int] | None
) -> dict[str, list[Fraction]]:
    """Each member's results the ladder counts, the best first."""
    scores: dict[str, list[Fraction]] = {}
    for _day, _id, pairs in sessions:
        for _label, players, percentage, place, tied in pairs:
            if points is None:
                result = percentage
            else:
                won = [
                    points[p] if p < len(points) else 0 for p in range(place - 1, place - 1 + tied)
                ]
                result = Fraction(sum(won), tied)
            for name in set(players):
                scores.setdefault(name, []).append(result)
    return {name: sorted(mine, reverse=True)[: best or len(mine)] for name, mine in scores.items()}


def expected_handicaps(
    sessions: list[Session], chosen: int, last: int, share: Fraction, cap: int
) -> list:
    day = sessions[chosen][0]
    history: dict[str, list[Fraction]] = {}
    for played_on, _id, pairs in sessions:
        if played_on < day:
            for _label, players, percentage, _place, _tied in pairs:
                for name in set(players):
                    history.setdefault(name, []).append(percentage)

    def handicap(name: str) -> Fraction:
        mine = history.get(name, [])[-last:]
        if not mine:
            return Fraction(0)
        gap = (50 - sum(mine) / len(mine)) * share
        return max(Fraction(-cap), min(Fraction(cap), gap))

    lines = []
    for _label, players, percentage, _place, _tied in sessions[chosen][2]:
        pair = (handicap(players[0]) + handicap(players[1])) / 2
        lines.append((percentage, pair, percentage + pair))
    totals = [line[2] for line in lines]
    return sorted(
        (1 + sum(other > total for other in totals), f"{float(p):.2f}", f"{float(total):.2f}")
        for p, _h, total in lines
    )


def page_rows(page: str, table: str) -> list[list[str]]:
    """The cells of a table's rows, each member's results counted left out."""
    body = page.split(f'<table class="{table}">', 1)[1].split("</table>", 1)[0]
    body = re.sub(r'<span class="counted">.*?</span>', "", body)
    rows = re.findall(r"<tr>(.*?)</tr>", body, re.S)[1:]
    return [
        [html.unescape(c).strip() for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
        for row in rows
    ]


def test_the_ladder_and_the_handicapped_ranking_agree_with_a_count_of_their_own(
    client: FlaskClient, app: Flask
) -> None:
    keeper = Keeper(client)
    url = keeper.start(name="Bridge Club", people="\n".join(MEMBERS))
    circle_id = url.rsplit("/", 1)[1]
    sessions = twelve_sessions(client, app, circle_id)
    viewer = app.test_client()  # the season's page is the circle's, public

    shared = 0  # places shared by members level, listed by their names
    for best, points in [(None, None), (4, None), (None, [10, 7, 5, 3, 1]), (5, [6, 4, 2])]:
        query = f"?best={best or ''}&points={' '.join(map(str, points or []))}"
        page = text(viewer.get(f"{url}/season{query}"))
        shown = ladder_lines(page_rows(page, "ladder"))
        assert shown == expected_ladder(sessions, best, points), (best, points)
        places = Counter(place for place, _name, _score in shown)
        shared += sum(count > 1 for count in places.values())
        lines = re.findall(
            r'<th scope="row">([^<]+)<span class="counted">Counted: ([^<]*)</span>', page
        )
        assert {html.unescape(name): values for name, values in lines} == {
            name: ", ".join(f"{float(value):.2f}" for value in mine)
            for name, mine in counted(sessions, best, points).items()
        }

    assert shared

    for chosen, last, share, cap in [(6, 3, 50, 5), (11, 10, 40, 3), (0, 10, 50, 5)]:
        query = f"?last={last}&share={share}&cap={cap}&session={sessions[chosen][1]}"
        page = html.unescape(text(viewer.get(f"{url}/season{query}")))
        assert f"over their last {last} sessions" in page
        rows = page_rows(page, "handicapped")
        shown = sorted((int(r[0].rstrip("=")), r[2], r[4]) for r in rows)
        assert shown == expected_handicaps(sessions, chosen, last, Fraction(share, 100), cap)
        if chosen == 0:  # nobody has a session before the first
            assert all(r[3] == "0.00" for r in rows)

    # A session's ranking leads to its handicapped ranking.
    ranking = text(viewer.get(f"/club/{sessions[4][1]}/ranking"))
    link = re.search(r'href="([^"]*/season\?session=[^"]*)">Handicapped ranking<', ranking)
    assert link
    page = html.unescape(text(viewer.get(html.unescape(link.group(1)))))
    assert re.search(rf'<option selected value="{re.escape(sessions[4][1])}">', page)
    assert "Handicapped ranking of" in page

    # A period: the ladder of its sessions alone.
    since, until = sessions[3][0], sessions[8][0]
    page = text(viewer.get(f"{url}/season?since={since}&until={until}&best=3"))
    shown = ladder_lines(page_rows(page, "ladder"))
    assert shown == expected_ladder(sessions[3:9], 3, None)
    assert "6 sessions" in page


def test_bad_rules_are_told_in_the_page_and_the_season_still_shows(
    client: FlaskClient, app: Flask
) -> None:
    keeper = Keeper(client)
    url = keeper.start(name="Bridge Club", people="Anne\nBruno")
    for query, said in [
        ("?best=0", "From 1 to 500 results."),
        ("?best=x", "Type a whole number"),
        ("?points=10+x+3", "Type each place&#39;s points as whole numbers"),
        ("?points=" + "+".join(["1"] * 41), "At most 40 places score points."),
        ("?since=2026-10-01&until=2026-09-01", "The period ends before it begins."),
        ("?share=101", "From 0 to 100 %."),
        ("?session=nothing", ""),
        ("?since=%00", "Not a valid date value."),
    ]:
        answer = client.get(f"{url}/season{query}")
        assert answer.status_code in (200, 422), query
        assert said in text(answer), query
    with app.app_context():
        assert db.session.get(Circle, circle_id := url.rsplit("/", 1)[1]) is not None
    assert client.get(f"/circle/{circle_id}x/season").status_code == 404


def test_the_clubs_kept_rules_are_the_pages_and_each_members_line_is_on_their_page(
    client: FlaskClient, app: Flask
) -> None:
    keeper = Keeper(client)
    url = keeper.start(name="Bridge Club", people="\n".join(MEMBERS))
    sessions = twelve_sessions(client, app, url.rsplit("/", 1)[1])
    page = text(client.get(f"{url}/season?best=4&points=&last=3"))
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    rules = re.search(r'name="rules" type="hidden" value="([^"]*)"', page)
    assert token and rules
    viewer = app.test_client()
    sent = {"csrf_token": token.group(1), "rules": html.unescape(rules.group(1))}
    assert viewer.post(f"{url}/season/rules", data=sent).status_code in (400, 403)
    assert client.post(f"{url}/season/rules", data=sent).status_code == 302
    page = text(client.get(f"{url}/season"))
    assert "These are the club's rules for its season" in html.unescape(page)
    shown = ladder_lines(page_rows(page, "ladder"))
    assert shown == expected_ladder(sessions, 4, None)
    assert "over their last 3 sessions" in html.unescape(text(viewer.get(f"{url}/season")))
    # A bad rule sent to be kept is refused, the rules kept before unchanged.
    bad = {**sent, "rules": "best=0"}
    assert client.post(f"{url}/season/rules", data=bad).status_code == 302
    assert "These rules cannot be kept" in html.unescape(text(client.get(f"{url}/season")))

    # Each member's page: their ladder line by the club's rules, each session's place and
    # partner.
    expected = {name: (place, score) for place, name, score in expected_ladder(sessions, 4, None)}
    members = len(expected)
    for link in keeper.person_links():
        page = html.unescape(text(client.get(link)))
        name = re.search(r"<h1>([^<]+)</h1>", page)
        assert name
        if name.group(1) not in expected:
            assert "In the club's ladder" not in page
            continue
        place, score = expected[name.group(1)]
        assert f"Place {place} of {members}, with {score} from" in page, name.group(1)
        assert "Each member counts 4 results of the season, their best." in page
        mine = [
            (played_on, percentage, rank, tied, players)
            for played_on, _id, pairs in sessions
            for _label, players, percentage, rank, tied in pairs
            if name.group(1) in players
        ]
        body = page.split("Your sessions: percentage, place and partner", 1)[1]
        body = body.split("</table>", 1)[0]
        rows = re.findall(r"<tr><th scope=\"row\">.*?</tr>", body, re.S)
        assert len(rows) == len(mine)
        for row, (_day, percentage, rank, tied, players) in zip(rows, mine, strict=True):
            partner = players[1] if players[0] == name.group(1) else players[0]
            cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
            assert cells == [
                f"{float(percentage):.2f}",
                f"{rank}{'=' if tied > 1 else ''}",
                partner,
            ]


def test_a_new_sessions_pairs_are_offered_from_the_regular_partnerships_then_the_members(
    client: FlaskClient, app: Flask
) -> None:
    keeper = Keeper(client)
    url = keeper.start(name="Bridge Club", people="\n".join(MEMBERS))
    circle_id = url.rsplit("/", 1)[1]
    sessions = twelve_sessions(client, app, circle_id, weeks=4)
    with app.app_context():  # one who chose initials is named by nobody but the director
        hidden = db.session.scalars(db.select(Person).where(Person.name == "Hélène")).one()
        hidden.shows_name = False
        db.session.commit()
    sessions = [
        (day, game_id, [pair for pair in pairs if "Hélène" not in pair[1]])
        for day, game_id, pairs in sessions
    ]
    page = text(client.get(f"/club/new?circle={circle_id}"))
    token, nonce = (
        re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page),
        re.search(r'name="nonce" type="hidden" value="([^"]+)"', page),
    )
    assert token and nonce
    data = {"csrf_token": token.group(1), "nonce": nonce.group(1), "circle": circle_id}
    response = client.post("/club/new", data={**data, **SMALL})
    assert response.status_code == 302, text(response)
    names_page = html.unescape(text(client.get(response.headers["Location"] + "/pairs")))
    offered = re.findall(r'<option value="([^"]*)"></option>', names_page)
    assert 'list="members"' in names_page
    together: Counter[frozenset[str]] = Counter(
        frozenset(players) for _day, _id, pairs in sessions for _l, players, *_rest in pairs
    )
    regular = offered[: len(together)]
    assert {frozenset(names.split(" – ")) for names in regular} == set(together)
    counts = [together[frozenset(names.split(" – "))] for names in regular]
    assert counts == sorted(counts, reverse=True)
    with app.app_context():
        circle = db.session.get(Circle, circle_id)
        assert circle is not None
        assert offered[len(together) :] == [
            person.name for person in circle.current_people if person.name != "Hélène"
        ]
    assert "Hélène" not in names_page.split("<main", 1)[1]
    # A session outside any circle offers nothing.
    outside = Club(client)
    outside.start(**SMALL)
    assert "<datalist" not in text(client.get(f"{outside.url}/pairs"))
    assert "Handicapped ranking" not in text(client.get(f"{outside.url}/ranking"))


def test_the_circles_file_keeps_the_clubs_rules_and_refuses_rules_that_do_not_read(
    client: FlaskClient, app: Flask
) -> None:
    keeper = Keeper(client)
    url = keeper.start(name="Bridge Club", people="Anne\nBruno")
    page = text(client.get(f"{url}/season?best=4&points=10+7+5&last=3&since=2026-09-01"))
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    rules = re.search(r'name="rules" type="hidden" value="([^"]*)"', page)
    assert token and rules
    sent = {"csrf_token": token.group(1), "rules": html.unescape(rules.group(1))}
    assert client.post(f"{url}/season/rules", data=sent).status_code == 302
    document = json.loads(client.get(f"{url}/circle.json").data)
    assert document["season_rules"] == sent["rules"]

    def imported(document: dict) -> tuple[int, str]:
        response = upload(client, "/circle/import", json.dumps(document).encode(), "c.json")
        return response.status_code, response.headers.get("Location", html.unescape(text(response)))

    status, where = imported(document)
    assert status == 302, where
    season = html.unescape(text(client.get(f"{where}/season")))
    assert "These are the club's rules for its season" in season
    fields = dict(re.findall(r'<input[^>]* name="(\w+)"[^>]* value="([^"]*)"', season))
    assert {name: fields.get(name) for name in ("since", "last", "best", "points")} == {
        "since": "2026-09-01",
        "last": "3",
        "best": "4",
        "points": "10 7 5",
    }

    for bad in ["best=0", "since=2026-13-01", "points=ten", "since=2026-09-02&until=2026-09-01"]:
        status, said = imported({**document, "season_rules": bad})
        assert status == 422 and "the club's rules for its season do not read" in said, bad
    status, where = imported({key: v for key, v in document.items() if key != "season_rules"})
    assert status == 302
    assert "These are the club's rules" not in html.unescape(text(client.get(f"{where}/season")))
