"""Several phones keeping one circle at once: a change is checked against what it depends on,
so that changes to different things all apply, whatever each page was drawn from; a change
drawn from what another phone changed since is shown beside that one, with what was typed and
one tap to put it in; the same change made twice is one change, said done."""

from __future__ import annotations

import html
import re
import threading

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.circles.models import Circle, CircleChange
from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from tests.web.crawler import PageForm, as_drawn, forms_of
from tests.web.table import text
from tests.web.test_circles import KEEP_LINK, Keeper, finished_game, person_id


def two_keepers(client: FlaskClient, app: Flask, people: str) -> tuple[Keeper, Keeper]:
    """A circle of ``people``, kept by ``client`` and by a second phone given its keeper
    link."""
    first = Keeper(client)
    first.start(people=people)
    link = KEEP_LINK.search(text(client.get(first.url)))
    assert link
    second = Keeper(app.test_client())
    second.url = first.url
    assert second.client.get(link.group(1)).status_code == 302
    return first, second


def names_now(app: Flask, circle_id: str) -> list[str]:
    with app.app_context():
        circle = db.session.get(Circle, circle_id)
        assert circle is not None
        return sorted(person.name for person in circle.current_people)


def form_at(page: str, action: str) -> PageForm:
    """The one form of ``page`` sent to ``action`` (whatever fragment follows it)."""
    (form,) = [form for form in forms_of(page) if form.action.split("#")[0] == action]
    return form


def tap(keeper: Keeper, page: str) -> int:
    """The tap of a conflict shown on ``page`` that puts this phone's change in; its status."""
    shown = page.split('<section class="conflict"', 1)[1].split("</section>", 1)[0]
    (form,) = forms_of("<section" + shown)
    response = keeper.client.post(form.action, data=as_drawn(form))
    return response.status_code


def sent(keeper: Keeper, page: str, path: str, **fields: str) -> tuple[int, str]:
    """The form of ``page`` (drawn earlier) sent to ``path``, with ``fields`` typed in; the
    answer's status and the page it leads to."""
    form = form_at(page, keeper.url + path)
    response = keeper.client.post(form.action, data={**as_drawn(form), **fields})
    if response.status_code == 302:
        return 302, html.unescape(text(keeper.client.get(response.headers["Location"])))
    return response.status_code, html.unescape(text(response))


def test_changes_to_different_things_apply_whatever_the_page_was_drawn_from(
    client: FlaskClient, app: Flask
) -> None:
    anne_keeper, bruno_keeper = two_keepers(client, app, "Anne\nBruno\nChloé\nDenis\nDenys")
    circle_id = anne_keeper.url.rsplit("/", 1)[1]
    game_id = finished_game(app, circle_id, ["Anne", "Bruno", "Chloé"], seed=1)
    stale = html.unescape(text(bruno_keeper.client.get(bruno_keeper.url)))
    anne, bruno, denis, denys = (
        person_id(app, circle_id, name) for name in ("Anne", "Bruno", "Denis", "Denys")
    )
    # The first phone changes the circle four times...
    assert anne_keeper.post("/people", name="Emma").status_code == 302
    assert anne_keeper.post(f"/people/{anne}/name", name="Anne-Marie").status_code == 302
    assert anne_keeper.post(f"/games/{game_id}/out").status_code == 302
    assert anne_keeper.post(f"/games/{game_id}/back").status_code == 302
    # ... and the second, from its page drawn before them all, changes other things.
    status, page = sent(bruno_keeper, stale, "/people", name="Farid")
    assert status == 302 and "Farid joined the circle." in page
    status, page = sent(bruno_keeper, stale, f"/people/{bruno}/name", name="Bruno Petit")
    assert status == 302 and "Bruno is now called Bruno Petit." in page
    status, page = sent(bruno_keeper, stale, "/merge", merged=str(denys), kept=str(denis))
    assert status == 302 and "Denys and Denis are now one person." in page
    assert names_now(app, circle_id) == [
        "Anne-Marie",
        "Bruno Petit",
        "Chloé",
        "Denis",
        "Emma",
        "Farid",
    ]


def test_a_rename_drawn_before_another_phone_s_is_shown_beside_it_with_one_tap_to_put_it_in(
    client: FlaskClient, app: Flask
) -> None:
    first, second = two_keepers(client, app, "Anne\nBruno")
    circle_id = first.url.rsplit("/", 1)[1]
    anne = person_id(app, circle_id, "Anne")
    stale = html.unescape(text(second.client.get(second.url)))
    assert first.post(f"/people/{anne}/name", name="Annie").status_code == 302
    status, page = sent(second, stale, f"/people/{anne}/name", name="Anne-Marie")
    assert status == 409
    assert "Anne was renamed on another phone" in page
    assert re.search(r"There: Name <strong>Annie</strong>", page)
    assert re.search(r"Yours: Name <strong>Anne-Marie</strong>", page)  # what was typed
    assert names_now(app, circle_id) == ["Annie", "Bruno"]
    # One tap puts it in.
    assert tap(second, page) == 302
    assert names_now(app, circle_id) == ["Anne-Marie", "Bruno"]
    assert "Annie is now called Anne-Marie." in html.unescape(text(second.client.get(second.url)))
    # The same rename sent again from the page drawn before is made already: said done.
    status, page = sent(second, stale, f"/people/{anne}/name", name="Anne-Marie")
    assert status == 302 and "Anne is now called Anne-Marie." in page
    with app.app_context():
        renames = db.session.query(CircleChange).filter_by(kind="renamed").count()
    assert renames == 2


def test_a_rename_of_a_person_merged_since_renames_the_person_they_now_are(
    client: FlaskClient, app: Flask
) -> None:
    first, second = two_keepers(client, app, "Anne\nAnnie\nBruno")
    circle_id = first.url.rsplit("/", 1)[1]
    anne, annie = person_id(app, circle_id, "Anne"), person_id(app, circle_id, "Annie")
    stale = html.unescape(text(second.client.get(second.url)))
    assert first.post("/merge", merged=annie, kept=anne).status_code == 302
    status, page = sent(second, stale, f"/people/{annie}/name", name="Annie Martin")
    assert status == 409 and "Annie was merged into Anne on another phone" in page
    assert "Annie Martin" in page
    assert tap(second, page) == 302
    assert names_now(app, circle_id) == ["Annie Martin", "Bruno"]


def test_a_merge_with_someone_merged_since_offers_to_make_the_three_one(
    client: FlaskClient, app: Flask
) -> None:
    first, second = two_keepers(client, app, "Anne\nAnnie\nAnna\nBruno")
    circle_id = first.url.rsplit("/", 1)[1]
    anne, annie, anna = (person_id(app, circle_id, name) for name in ("Anne", "Annie", "Anna"))
    stale = html.unescape(text(second.client.get(second.url)))
    assert first.post("/merge", merged=annie, kept=anne).status_code == 302
    status, page = sent(second, stale, "/merge", merged=str(annie), kept=str(anna))
    assert status == 409 and "Annie was merged into Anne on another phone" in page
    assert "Merge Anne into Anna" in page
    assert names_now(app, circle_id) == ["Anna", "Anne", "Bruno"]
    assert tap(second, page) == 302
    assert names_now(app, circle_id) == ["Anna", "Bruno"]
    # Asked again from the page drawn before: the two are one already.
    status, page = sent(second, stale, "/merge", merged=str(annie), kept=str(anna))
    assert status == 302 and "Annie and Anna are now one person." in page


def test_undo_takes_back_the_change_its_page_showed_and_no_other(
    client: FlaskClient, app: Flask
) -> None:
    first, second = two_keepers(client, app, "Anne\nBruno\nChloé")
    circle_id = first.url.rsplit("/", 1)[1]
    anne, bruno = person_id(app, circle_id, "Anne"), person_id(app, circle_id, "Bruno")
    assert first.post(f"/people/{anne}/name", name="Annie").status_code == 302
    stale = html.unescape(text(second.client.get(second.url)))
    assert "The last change: Anne renamed Annie." in stale
    # Another phone renames someone else meanwhile: undo still takes back what it showed.
    assert first.post(f"/people/{bruno}/name", name="Bruno Petit").status_code == 302
    status, page = sent(second, stale, "/undo")
    assert status == 302 and "Annie is called Anne again." in page
    assert names_now(app, circle_id) == ["Anne", "Bruno Petit", "Chloé"]
    # Sent again, it is undone already; what was changed again since is left as it is.
    status, page = sent(second, stale, "/undo")
    assert status == 302 and "“Anne renamed Annie” is undone." in page
    assert names_now(app, circle_id) == ["Anne", "Bruno Petit", "Chloé"]
    stale = html.unescape(text(second.client.get(second.url)))
    assert first.post(f"/people/{bruno}/name", name="Bruno P.").status_code == 302
    assert "The last change: Bruno renamed Bruno Petit." in stale
    status, page = sent(second, stale, "/undo")
    assert "was changed again since, on another phone: undo that first." in page
    assert names_now(app, circle_id) == ["Anne", "Bruno P.", "Chloé"]


def test_the_same_person_added_on_two_phones_is_one_person_and_both_are_told(
    client: FlaskClient, app: Flask
) -> None:
    first, second = two_keepers(client, app, "Anne")
    circle_id = first.url.rsplit("/", 1)[1]
    stale = html.unescape(text(second.client.get(second.url)))
    assert first.post("/people", name="Zoé").status_code == 302
    status, page = sent(second, stale, "/people", name="zoé ")
    assert status == 302 and '<p class="flash message" role="status">Zoé joined the circle.' in page
    assert names_now(app, circle_id) == ["Anne", "Zoé"]
    # From a page that showed her already, it is a mistake, said, with what was typed kept.
    status, page = sent(second, html.unescape(text(second.client.get(second.url))), "/people",
                        name="zoé ")  # fmt: skip
    assert status == 422 and "already one of the circle's people" in page
    assert 'value="zoé"' in page


KEEPERS = 4
CHANGES = 6


def test_keepers_changing_the_circle_at_the_same_moment_lose_nothing(
    client: FlaskClient, app: Flask
) -> None:
    """Four phones, each from its page drawn once, send their changes at the same moments:
    each adds people, renames its own person and takes its own game out of the history."""
    first = Keeper(client)
    first.start(people="\n".join(f"Keeper {number}" for number in range(KEEPERS)))
    circle_id = first.url.rsplit("/", 1)[1]
    link = KEEP_LINK.search(text(client.get(first.url)))
    assert link
    games = [
        finished_game(
            app, circle_id, [f"Keeper {number}", f"Keeper {(number + 1) % KEEPERS}"], number
        )
        for number in range(KEEPERS)
    ]
    keepers = [first]
    for _ in range(KEEPERS - 1):
        keeper = Keeper(app.test_client())
        keeper.url = first.url
        keeper.client.get(link.group(1))
        keepers.append(keeper)
    pages = [html.unescape(text(keeper.client.get(keeper.url))) for keeper in keepers]
    own = [person_id(app, circle_id, f"Keeper {number}") for number in range(KEEPERS)]
    barrier = threading.Barrier(KEEPERS)
    answers: list[list[int]] = [[] for _ in range(KEEPERS)]

    def keep(number: int) -> None:
        keeper, page = keepers[number], pages[number]
        changes = [("/people", {"name": f"Guest {number}-{n}"}) for n in range(CHANGES - 2)]
        changes += [
            (f"/people/{own[number]}/name", {"name": f"Keeper {number} renamed"}),
            (f"/games/{games[number]}/out", {}),
        ]
        for path, fields in changes:
            form = form_at(page, keeper.url + path)
            barrier.wait()
            response = keeper.client.post(form.action, data={**as_drawn(form), **fields})
            answers[number].append(response.status_code)

    threads = [threading.Thread(target=keep, args=(number,)) for number in range(KEEPERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [[302] * CHANGES] * KEEPERS
    expected = [f"Guest {k}-{n}" for k in range(KEEPERS) for n in range(CHANGES - 2)]
    expected += [f"Keeper {k} renamed" for k in range(KEEPERS)]
    assert names_now(app, circle_id) == sorted(expected)
    with app.app_context():
        out = db.session.query(Game).filter(Game.out_of_history.is_(True)).count()
        logged = db.session.query(CircleChange).count()
    assert out == KEEPERS and logged == 2 * KEEPERS  # each rename and each game taken out
