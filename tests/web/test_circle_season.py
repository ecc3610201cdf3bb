"""A season of 30 generated games of three families in one circle (Ascenseur, Chicago at home,
Échelons races), each scored by its own family's engine: the league of each, as the circle's
page shows it, and each person's figures, as their own page shows them, are those counted
here independently, person by person, game by game."""

from __future__ import annotations

import html
import random
import re
from collections import defaultdict
from datetime import date, datetime, timedelta
from fractions import Fraction

from babel.numbers import format_decimal, format_percent
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.ascenseur.models import AscenseurGame, RoundRecord
from scorekeeper.bridge.evening import score_evening
from scorekeeper.bridge.models import BridgeGame, DealRecord, SeatingRecord
from scorekeeper.circles.models import Circle
from scorekeeper.echelons.models import EchelonsGame, PatienceRecord
from scorekeeper.extensions import db
from scorekeeper.games.models import Game, Player
from scorekeeper.rules import ascenseur as rules
from scorekeeper.rules.echelons import race_winner
from tests.games import play_out
from tests.web.table import text
from tests.web.test_circles import PERSON_LINK, Keeper

PEOPLE = ("Anne", "Bruno", "Chloé", "Denis", "Emma")
OPENING = datetime(2026, 9, 6, 15)
LEAGUES = ("ascenseur:ascenseur", "bridge:chicago", "echelons:race")


def seat(game: Game, circle: Circle, names: list[str], played: datetime) -> None:
    game.circle_id = circle.id
    game.created_at = played
    game.players = [Player(seat=n, name=name) for n, name in enumerate(names)]
    for player in game.players:
        person = circle.person_named(player.name)
        assert person is not None
        player.person_id = person.id


Season = dict[str, list[tuple[date, dict[str, tuple[int, int]]]]]
Bids = list[tuple[list[str], list[rules.RoundEntry]]]


def generate_season(app: Flask, circle_id: str, bidding: Bids) -> Season:
    """30 games stored in the circle, 10 of each family; what each league counts of each game,
    as its family's engine scored it: the day, and each person's points and place. The
    Ascenseur games' names and entries go to ``bidding``."""
    rng = random.Random(30)
    season: Season = defaultdict(list)
    with app.app_context():
        circle = db.session.get(Circle, circle_id)
        assert circle is not None
        for number in range(30):
            played = OPENING + timedelta(days=number)
            kind = LEAGUES[number % 3]
            if kind == "ascenseur:ascenseur":
                names = rng.sample(PEOPLE, rng.randint(3, 5))
                entries = play_out(rules.PRESETS["ascenseur"], len(names), 0, rng.randrange(10**6))
                game: Game = AscenseurGame(
                    preset="ascenseur",
                    house_rules={},
                    first_dealer=0,
                    rounds=RoundRecord.from_entries(entries),
                )
                seat(game, circle, names, played)
                bidding.append((names, entries))
                sheet = rules.score_game(rules.PRESETS["ascenseur"], names, 0, entries)
                totals = sheet.totals
                counted = {
                    name: (totals[n], 1 + sum(other > totals[n] for other in totals))
                    for n, name in enumerate(names)
                }
            elif kind == "bridge:chicago":
                names = rng.sample(PEOPLE, 4)
                game = BridgeGame(chicago=True, first_dealer="N")
                game.seatings = [SeatingRecord(number=1, seats={"N": 0, "E": 1, "S": 2, "W": 3})]
                game.deals = [
                    DealRecord(
                        number=deal,
                        rubber=1,
                        level=rng.randint(1, 7),
                        strain=rng.choice(["C", "D", "H", "S", "NT"]),
                        doubled=rng.choice([0, 0, 1]),
                        declarer=rng.choice("NESW"),
                        tricks=rng.randint(4, 13),
                    )
                    for deal in range(1, 5)
                ]
                seat(game, circle, names, played)
                evening = score_evening(game)  # type: ignore[arg-type]
                wheel = evening.rounds[0]
                assert wheel.finished
                ns, ew = wheel.totals.ns, wheel.totals.ew
                counted = {}
                for n, name in enumerate(names):
                    mine, theirs = (ns, ew) if n in (0, 2) else (ew, ns)
                    counted[name] = (mine, 2 if mine < theirs else 1)
            else:
                names = rng.sample(PEOPLE, 2)
                game = EchelonsGame(race=True)
                seat(game, circle, names, played)
                lefts = []
                for race in range(1, rng.randint(2, 4) + 1):
                    left_a, left_b = rng.randint(0, 20), rng.randint(1, 20)
                    lefts.append((left_a, left_b))
                    game.entries.append(  # type: ignore[attr-defined]
                        PatienceRecord(
                            number=race, played_on=played.date(), left_a=left_a, left_b=left_b
                        )
                    )
                for left_a, left_b in lefts:  # each race game counts as a game of the league
                    winner = race_winner(left_a, left_b)
                    places = [1 if winner in (None, n) else 2 for n in (0, 1)]
                    season[kind].append(
                        (played.date(), {names[0]: (0, places[0]), names[1]: (0, places[1])})
                    )
            db.session.add(game)
            if kind != "echelons:race":
                season[kind].append((played.date(), counted))
        db.session.commit()
    return season


def expected_league(games: list[tuple[date, dict[str, tuple[int, int]]]]) -> list[tuple[str, ...]]:
    """The league's rows as the page writes them, counted here: name, games, wins, average
    place, points per game and handicap, ranked by wins, average place, then points."""
    points: dict[str, list[int]] = defaultdict(list)
    placed: dict[str, list[int]] = defaultdict(list)
    for _day, finishes in games:
        for name, (score, place) in finishes.items():
            points[name].append(score)
            placed[name].append(place)
    rows = []
    for name in points:
        average = Fraction(sum(placed[name]), len(placed[name]))
        per_game = Fraction(sum(points[name]), len(points[name]))
        wins = placed[name].count(1)
        rows.append((name, len(points[name]), wins, average, per_game))
    ids = {name: number for number, name in enumerate(PEOPLE, 1)}
    rows.sort(key=lambda r: (-r[2], r[3], -r[4], str(ids[r[0]])))
    best = max(row[4] for row in rows)
    has_points = any(row[4] for row in rows) or any(p for ps in points.values() for p in ps)
    shown = []
    for name, played, wins, average, per_game in rows:
        cells = [name, str(played), str(wins), format_decimal(float(average), "0.00", locale="en")]
        if has_points:
            handicap = int((best - per_game) * Fraction(4, 5) + Fraction(1, 2))
            figure = format_decimal(float(per_game), "0.0", locale="en").replace("-", "−")
            cells += [figure, str(handicap)]
        shown.append(tuple(cells))
    return shown


def shown_league(page: str) -> list[tuple[str, ...]]:
    body = page.split('<table class="league">', 1)[1].split("</tbody>", 1)[0].split("<tbody>")[1]
    rows = []
    for row in re.findall(r"<tr>(.*?)</tr>", body, re.DOTALL):
        cells = re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row)
        rows.append(tuple(cells[1:]))  # the place's number is the row's order
    return rows


def test_a_season_of_three_families_shows_what_an_independent_count_gives(
    client: FlaskClient, app: Flask
) -> None:
    keeper = Keeper(client)
    url = keeper.start(people="\n".join(PEOPLE))
    bidding: Bids = []
    season = generate_season(app, url.rsplit("/", 1)[1], bidding)
    assert sum(1 for _ in season["ascenseur:ascenseur"]) == 10
    assert len(season["bridge:chicago"]) == 10
    for league in LEAGUES:
        page = html.unescape(text(client.get(f"{url}?league={league}")))
        assert shown_league(page) == expected_league(season[league]), league
    # A period: September's second week alone.
    week = [
        g for g in season["ascenseur:ascenseur"] if date(2026, 9, 13) <= g[0] <= date(2026, 9, 19)
    ]
    page = html.unescape(
        text(client.get(f"{url}?league=ascenseur:ascenseur&since=2026-09-13&until=2026-09-19"))
    )
    assert shown_league(page) == expected_league(week)
    assert f"{len(week)} game" in page

    # Each person's own page: their line in each league, and their record at each family.
    links = PERSON_LINK.findall(text(client.get(url)))
    assert len(links) == len(PEOPLE)
    for link in links:
        page = html.unescape(text(client.get(link)))
        name = re.search(r"<h1>([^<]*)</h1>", page)
        assert name
        person = name.group(1)
        for league in LEAGUES:
            mine = [row for row in expected_league(season[league]) if row[0] == person]
            if mine:
                played, wins, average = mine[0][1:4]
                assert re.search(
                    rf"<td class=\"num\">{played}</td><td class=\"num\">{wins}</td>"
                    rf"<td class=\"num\">{re.escape(average)}</td>",
                    page,
                ), (person, league)
        chicagos = [f for _d, f in season["bridge:chicago"] if person in f]
        won = sum(
            1 for f in chicagos if f[person][1] == 1 and not all(p == 1 for _s, p in f.values())
        )
        if chicagos:
            row = re.search(
                r'<th scope="row">Chicagos</th>'
                r'<td class="num">(\d+)</td><td class="num">(\d+)</td>',
                page,
            )
            assert row and (int(row.group(1)), int(row.group(2))) == (len(chicagos), won), person
        races = [f for _d, f in season["echelons:race"] if person in f]
        for other in PEOPLE:
            against = [f for f in races if other in f and other != person]
            if against:
                won = sum(1 for f in against if f[person][1] == 1 and f[other][1] == 2)
                lost = sum(1 for f in against if f[person][1] == 2)
                races_played = "race" if len(against) == 1 else "races"
                assert (
                    f"Against {other}: {len(against)} {races_played} played; "
                    f"won: {won}, lost: {lost}." in page
                ), (person, other)
        made = over = under = 0
        for names, entries in bidding:
            if person in names:
                mine = names.index(person)
                for entry in entries:
                    bid, took = entry.bids[mine], entry.tricks[mine]
                    made, over, under = (
                        made + (bid == took),
                        over + (bid > took),
                        under + (bid < took),
                    )
        rounds = made + over + under
        share = format_percent(made / rounds, "0%", locale="en")
        counted = "round" if rounds == 1 else "rounds"
        assert f"Contracts made: {share} of {rounds} {counted}." in page, person
        assert f"Bid over: {over}; under: {under}." in page, person


def test_one_race_and_one_patience_game_are_counted_in_the_singular(
    client: FlaskClient, app: Flask
) -> None:
    keeper = Keeper(client)
    url = keeper.start(people="Anne\nBruno")
    played = OPENING
    with app.app_context():
        circle = db.session.get(Circle, url.rsplit("/", 1)[1])
        assert circle is not None
        race = EchelonsGame(race=True)
        seat(race, circle, ["Anne", "Bruno"], played)
        race.entries.append(  # type: ignore[attr-defined]
            PatienceRecord(number=1, played_on=played.date(), left_a=0, left_b=7)
        )
        log = EchelonsGame(race=False)
        seat(log, circle, ["Anne"], played)
        log.entries.append(  # type: ignore[attr-defined]
            PatienceRecord(number=1, played_on=played.date(), cards_home=52)
        )
        db.session.add_all([race, log])
        db.session.commit()
    (anne,) = [
        link
        for link in PERSON_LINK.findall(text(client.get(url)))
        if "<h1>Anne</h1>" in text(client.get(link))
    ]
    english = html.unescape(text(client.get(anne, headers={"Accept-Language": "en"})))
    assert "Against Bruno: 1 race played; won: 1, lost: 0." in english
    assert "Your patience log: 1 game; won: 1 (100%)." in english
    french = html.unescape(text(client.get(anne, headers={"Accept-Language": "fr"})))
    assert "Contre Bruno\u00a0: 1 course jouée\u00a0; gagnées\u00a0: 1, perdues\u00a0: 0." in french
    whole = format_percent(1, "0%", locale="fr")
    assert f"Votre carnet de réussites\u00a0: 1 partie\u00a0; gagnées\u00a0: 1 ({whole})." in french
