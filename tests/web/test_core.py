"""The table core on its own, with a family defined here and nowhere else: a tally of two
players, each entry one number to the player whose turn it is. Entering, correcting, deleting
and taking back, a form drawn before another phone's change, the same form sent twice, the
engine's refusal, the game file out and in, and the live poll: what every family gets from the
core, without a real family in the way."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Annotated, Any

import pytest
from flask import Blueprint, Flask, render_template_string
from flask.testing import FlaskClient
from flask_babel import lazy_gettext as _l
from pydantic import Field
from sqlalchemy import ForeignKey
from sqlalchemy.orm import Mapped, mapped_column, relationship
from wtforms import IntegerField
from wtforms.validators import InputRequired

from scorekeeper.extensions import db
from scorekeeper.games.entries import EntryKind, EntryWords, describer
from scorekeeper.games.forms import ChangeForm, ConfirmForm
from scorekeeper.games.models import Game, Player
from scorekeeper.games.registry import FAMILIES, Family, NewGame, Summary, TakenBack, register
from scorekeeper.games.rights import is_scorer, remember
from scorekeeper.games.routes import add_entry_routes, add_table_routes
from scorekeeper.games.transfer import (
    CorrectionFile,
    Schema,
    corrections_from_file,
    corrections_to_json,
    envelope,
    read_envelope,
    read_schema,
)
from scorekeeper.rules.common import Rule, RuleError
from scorekeeper.serving import kept_page
from tests.conftest import app_on
from tests.web.crawler import as_drawn, form_to, forms_of
from tests.web.table import text

MOST = 100
"""The most one entry may give: the tally's engine refuses more."""


class TallyGame(Game):
    __mapper_args__ = {"polymorphic_identity": "tally"}  # noqa: RUF012

    marks: Mapped[list[TallyMark]] = relationship(
        order_by="TallyMark.number", cascade="all, delete-orphan"
    )


class TallyMark(db.Model):
    __tablename__ = "tally_mark"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    number: Mapped[int]
    points: Mapped[int]

    @property
    def code(self) -> str:
        return str(self.points)


# The tally's table is the tests' own: the app's migrations know nothing of it.
db.metadata.remove(TallyMark.__table__)  # type: ignore[arg-type]


class TallyRule(Rule):
    TOO_MANY = "too-many"

    @property
    def english(self) -> str:
        return "An entry is at most {most}."


def totals(game: TallyGame) -> tuple[int, int]:
    """The tally's engine: each entry to the player whose turn it was; refuses an entry of
    more than MOST."""
    scores = [0, 0]
    for place, mark in enumerate(game.marks):
        if mark.points > MOST:
            raise RuleError(TallyRule.TOO_MANY, most=MOST)
        scores[place % 2] += mark.points
    return scores[0], scores[1]


class MarkForm(ChangeForm):
    points = IntegerField(validators=[InputRequired("Enter a number.")])

    def check(self) -> bool:
        return bool(self.validate())


PAGE = """
{% for message in get_flashed_messages() %}<p class="flash">{{ message }}</p>{% endfor %}
{% if conflict %}{% include "games/_conflict.html" %}{% endif %}
{% for error in form.form_errors if form %}<p class="error">{{ error }}</p>{% endfor %}
<p class="totals">{{ totals[0] }} – {{ totals[1] }}</p>
{% if form %}<form method="post" action="{{ action }}">{{ form.csrf_token }}{{ form.drawn_from }}
<input name="points"></form>{% endif %}
{% if undo_form %}<form method="post" action="/tally/{{ game.id }}/undo">
{{ undo_form.csrf_token }}{{ undo_form.drawn_from }}</form>{% endif %}
<ul>{% for change in game.correction_log %}
<li>{{ correction_text(game, change) }}</li>{% endfor %}</ul>
"""
EDIT = """
{% for error in form.form_errors %}<p class="error">{{ error }}</p>{% endfor %}
<form method="post" action="/tally/{{ game.id }}/marks/{{ number }}/edit">
{{ form.csrf_token }}{{ form.drawn_from }}<input name="points" value="{{ form.points.data }}">
</form>
<form method="post" action="/tally/{{ game.id }}/marks/{{ number }}/delete">
{{ delete_form.csrf_token }}{{ delete_form.drawn_from }}</form>
"""


class Marks(EntryKind[TallyGame, TallyMark]):
    game = TallyGame
    endpoint = "mark"
    listed = "marks"
    score = staticmethod(totals)
    corrected = "mark"
    deleted = "mark-deleted"
    words = EntryWords(
        label=_l("Mark %(number)d"),
        not_now="Not the next mark.",
        entered="Mark %(number)d: %(entry)s.",
        corrected="Mark %(number)d corrected.",
        unchanged="Mark %(number)d is unchanged.",
        changed_meanwhile="Mark %(number)d now reads %(now)s.",
        deleted="Mark %(number)d deleted.",
    )

    def refuse(self, game: TallyGame, key: int) -> Any:
        if key != len(game.marks) + 1:
            return self.render_page(game, key, status=422)
        return None

    def form(self, game: TallyGame, key: int, **kwargs: Any) -> MarkForm:
        return MarkForm(**kwargs)

    def form_data(self, game: TallyGame, entry: TallyMark) -> dict[str, Any]:
        return {"points": entry.points}

    def new(self, game: TallyGame, key: int) -> TallyMark:
        return TallyMark(number=max((m.number for m in game.marks), default=0) + 1)

    def put(self, game: TallyGame, entry: TallyMark, form: Any) -> None:
        entry.points = form.points.data

    def text(self, game: TallyGame, entry: TallyMark) -> str:
        return f"{entry.points} points"

    def again(self, game: TallyGame, key: int, mine: TallyMark) -> list[tuple[str, str]]:
        return self.last_alike(game, mine)

    def render_page(
        self,
        game: TallyGame,
        key: Any = None,
        form: Any = None,
        status: int = 200,
        conflict: dict[str, Any] | None = None,
    ) -> tuple[str, int]:
        scorer = is_scorer(game.id, game.family)
        if form is None and scorer:
            form = MarkForm(formdata=None, data={"drawn_from": game.version})
        try:
            shown = totals(game)
        except RuleError:
            shown = (0, 0)
        return render_template_string(
            PAGE,
            game=game,
            form=form,
            totals=shown,
            action=f"/tally/{game.id}/marks/{len(game.marks) + 1}",
            undo_form=ConfirmForm(data={"drawn_from": game.version}) if scorer else None,
            conflict=conflict,
            conflict_form=ConfirmForm() if conflict else None,
            here=f"/tally/{game.id}",
        ), status

    def render_correction(
        self, game: TallyGame, key: int, entry: TallyMark, form: Any, status: int = 200
    ) -> tuple[str, int]:
        delete_form = self.stamped(entry)
        html = render_template_string(
            EDIT, game=game, number=key, form=form, delete_form=delete_form
        )
        return html, status


MARKS = Marks()


class MarkFile(Schema):
    number: Annotated[int, Field(ge=1)]
    points: int


class TallyFile(Schema):
    format: str
    version: int
    family: str
    players: tuple[str, str]
    marks: tuple[MarkFile, ...] = ()
    corrections: tuple[CorrectionFile, ...] = ()


def export(game: Game) -> dict[str, Any]:
    assert isinstance(game, TallyGame)
    return {
        **envelope("tally"),
        "players": list(game.names),
        "marks": [{"number": mark.number, "points": mark.points} for mark in game.marks],
        "corrections": corrections_to_json(game),
    }


def read_file(raw: bytes) -> Game:
    read_envelope(raw)
    document = read_schema(TallyFile, raw)
    return TallyGame(
        players=[Player(seat=seat, name=name) for seat, name in enumerate(document.players)],
        marks=[TallyMark(number=m.number, points=m.points) for m in document.marks],
        corrections=corrections_from_file(document.corrections),
    )


def take_back(game: Game) -> TakenBack | None:
    assert isinstance(game, TallyGame)
    if not game.marks:
        return None
    mark = game.marks.pop()
    place = len(game.marks) + 1
    return TakenBack([MARKS.log_line(place, "undo-mark", mark.code)], f"Mark {place} undone.")


def tally_family() -> Family:
    return Family(
        key="tally",
        name=lambda: "Tally",
        game=TallyGame,
        entries=(TallyMark,),
        page="tally.page",
        start="tally.page",
        new_games=lambda: [NewGame("/tally/new", "Tally", "Two players, one number each turn.")],
        summary=lambda game: Summary("Tally", "", finished=False),
        export=export,
        read_file=read_file,
        take_back=take_back,
        describe=describer(
            {
                "mark": _l("Mark %(number)d corrected at %(time)s: %(old)s → %(new)s"),
                "mark-deleted": _l("Mark %(number)d deleted at %(time)s (%(old)s)"),
                "undo-mark": _l("Mark %(number)d at %(time)s: taken back (%(old)s)"),
            },
            lambda game, change, code: f"{code} points" if code else "",
        ),
        file_kind=lambda game: "tally",
    )


@pytest.fixture
def tally_app(sqlite_url: str) -> Iterator[Flask]:
    """An app with the tally family on it, beside the real ones (for this test only)."""
    family = register(tally_family())
    blueprint = Blueprint("tally", __name__, url_prefix="/tally")

    @blueprint.get("/<game_id>")
    def page(game_id: str) -> Any:
        def draw() -> str:
            game = db.session.get(TallyGame, game_id)
            return MARKS.render_page(game)[0]

        return kept_page(family, game_id, draw)

    @blueprint.post("/new")
    def new() -> Any:
        game = TallyGame(players=[Player(seat=0, name="Ana"), Player(seat=1, name="Bo")])
        db.session.add(game)
        db.session.commit()
        remember(game.id, scorer=True)
        return {"id": game.id}

    add_table_routes(blueprint, family)
    add_entry_routes(blueprint, MARKS, "/marks/<int:number>")
    try:
        for app in app_on(sqlite_url, TESTING=True):
            app.register_blueprint(blueprint)
            with app.app_context():
                TallyMark.__table__.create(db.engine)  # type: ignore[attr-defined]
            yield app
    finally:
        FAMILIES.pop("tally")


@pytest.fixture
def tally(tally_app: Flask) -> Tally:
    return Tally(tally_app.test_client(), tally_app)


class Tally:
    """A phone keeping the tally, without JavaScript."""

    def __init__(self, client: FlaskClient, app: Flask) -> None:
        self.client, self.app = client, app
        token = forms_of(text(client.get("/ascenseur/new/ascenseur")))[0].fields["csrf_token"]
        self.id = client.post("/tally/new", data={"csrf_token": token[0]}).get_json()["id"]
        self.url = f"/tally/{self.id}"

    def entry_form(self) -> dict[str, str]:
        """The entry form as the page draws it now."""
        return as_drawn(form_to(text(self.client.get(self.url)), "/marks/"))

    def enter(self, points: int, drawn: dict[str, str] | None = None, number: int = 0) -> Any:
        number = number or self.count() + 1
        data = {**(drawn or self.entry_form()), "points": str(points)}
        return self.client.post(f"{self.url}/marks/{number}", data=data)

    def count(self) -> int:
        return len(self.game().marks)

    def game(self) -> TallyGame:
        with self.app.app_context():
            game = db.session.get(TallyGame, self.id)
            assert game is not None
            list(game.marks), list(game.corrections)
            return game

    def points(self) -> list[int]:
        return [mark.points for mark in self.game().marks]

    def log(self) -> list[tuple[str, str | None, str | None]]:
        return [(c.kind, c.old, c.new) for c in self.game().corrections]

    def edit_form(self, number: int) -> dict[str, str]:
        return as_drawn(form_to(text(self.client.get(f"{self.url}/marks/{number}/edit")), "/edit"))


def test_an_entry_is_entered_once_however_often_it_is_sent(tally: Tally) -> None:
    drawn = tally.entry_form()
    response = tally.enter(7, drawn)
    assert response.status_code == 302 and response.headers["Location"] == tally.url
    assert "Mark 1: 7 points." in text(tally.client.get(tally.url))
    assert tally.enter(7, drawn, number=1).status_code == 302  # a double tap
    assert tally.points() == [7]
    assert tally.enter(5).status_code == 302
    assert tally.points() == [7, 5] and "7 – 5" in text(tally.client.get(tally.url))


def test_another_phone_s_entry_is_shown_beside_mine_and_one_tap_puts_mine(tally: Tally) -> None:
    drawn = tally.entry_form()  # drawn by the other phone too, before either entered
    assert tally.enter(7, drawn).status_code == 302
    response = tally.enter(9, drawn, number=1)
    assert response.status_code == 409
    page = text(response)
    assert "Mark 1 was entered on another phone" in page
    assert "<strong>7 points</strong>" in page and "<strong>9 points</strong>" in page
    assert tally.points() == [7]
    put_mine = form_to(page, "/edit")
    response = tally.client.post(put_mine.action, data=as_drawn(put_mine))
    assert response.status_code == 302
    assert tally.points() == [9] and tally.log() == [("mark", "7", "9")]


def test_a_correction_is_logged_and_a_stale_one_shows_what_changed(tally: Tally) -> None:
    tally.enter(7)
    tally.enter(3)
    stale = tally.edit_form(1)
    response = tally.client.post(f"{tally.url}/marks/1/edit", data={**stale, "points": "8"})
    assert response.status_code == 302
    assert "Mark 1 corrected." in text(tally.client.get(tally.url))
    response = tally.client.post(f"{tally.url}/marks/1/edit", data={**stale, "points": "6"})
    assert response.status_code == 409 and "Mark 1 now reads 8 points." in text(response)
    assert tally.points() == [8, 3]
    again = form_to(text(response), "/edit")  # the same form, drawn from the mark as it is
    response = tally.client.post(again.action, data={**as_drawn(again), "points": "6"})
    assert response.status_code == 302
    fresh = tally.edit_form(1)
    response = tally.client.post(f"{tally.url}/marks/1/edit", data=fresh)
    assert "Mark 1 is unchanged." in text(tally.client.get(tally.url))
    assert tally.log() == [("mark", "7", "8"), ("mark", "8", "6")]
    page = text(tally.client.get(tally.url))
    assert "Mark 1 corrected at" in page and "7 points → 8 points" in page


def test_what_the_engine_refuses_changes_nothing(tally: Tally) -> None:
    response = tally.enter(MOST + 1)
    assert response.status_code == 422 and f"An entry is at most {MOST}." in text(response)
    assert tally.points() == []
    tally.enter(4)
    form = tally.edit_form(1)
    response = tally.client.post(f"{tally.url}/marks/1/edit", data={**form, "points": "999"})
    assert response.status_code == 422 and f"An entry is at most {MOST}." in text(response)
    assert tally.points() == [4] and tally.log() == []
    response = tally.client.post(f"{tally.url}/marks/3", data={**tally.entry_form(), "points": "1"})
    assert response.status_code == 422 and tally.points() == [4]  # not the next mark


def test_a_deletion_and_an_undo_are_logged_and_a_stale_button_does_nothing(tally: Tally) -> None:
    for points in (1, 2, 3):
        tally.enter(points)
    delete = as_drawn(form_to(text(tally.client.get(f"{tally.url}/marks/2/edit")), "/delete"))
    tally.client.post(f"{tally.url}/marks/2/edit", data={**tally.edit_form(2), "points": "5"})
    assert tally.client.post(f"{tally.url}/marks/2/delete", data=delete).status_code == 302
    assert tally.points() == [1, 5, 3]  # the button was drawn before the correction
    delete = as_drawn(form_to(text(tally.client.get(f"{tally.url}/marks/2/edit")), "/delete"))
    assert tally.client.post(f"{tally.url}/marks/2/delete", data=delete).status_code == 302
    assert tally.points() == [1, 3]
    undo = as_drawn(form_to(text(tally.client.get(tally.url)), "/undo"))
    assert tally.client.post(f"{tally.url}/undo", data=undo).status_code == 302
    assert tally.points() == [1]
    assert tally.log() == [
        ("mark", "2", "5"),
        ("mark-deleted", "5", None),
        ("undo-mark", "3", None),
    ]
    assert tally.client.post(f"{tally.url}/undo", data=undo).status_code == 302  # stale
    assert tally.points() == [1]


def test_the_address_a_form_was_sent_to_opened_again_is_the_game_s_page(tally: Tally) -> None:
    response = tally.enter(MOST + 1)  # its page's language switch leads back to this address
    assert response.status_code == 422
    response = tally.client.get(f"{tally.url}/marks/1")
    assert response.status_code == 302 and response.headers["Location"] == tally.url


def test_a_deletion_sent_twice_deletes_one_of_two_entries_alike(tally: Tally) -> None:
    for points in (2, 2, 2):
        tally.enter(points)
    delete = as_drawn(form_to(text(tally.client.get(f"{tally.url}/marks/2/edit")), "/delete"))
    for _sent in range(2):  # a double tap: the second finds mark 2 another mark
        assert tally.client.post(f"{tally.url}/marks/2/delete", data=delete).status_code == 302
    assert tally.points() == [2, 2]
    page = text(tally.client.get(tally.url))  # what the second answer says, as it was done
    assert "Mark 2 deleted." in page and "nothing was deleted" not in page
    assert tally.log() == [("mark-deleted", "2", None)]
    # The last mark deleted twice: the second finds no mark 2 at all.
    delete = as_drawn(form_to(text(tally.client.get(f"{tally.url}/marks/2/edit")), "/delete"))
    for _sent in range(2):
        assert tally.client.post(f"{tally.url}/marks/2/delete", data=delete).status_code == 302
    assert tally.points() == [2]
    page = text(tally.client.get(tally.url))
    assert "Mark 2 deleted." in page and "nothing was deleted" not in page


def test_a_correction_sent_twice_is_made_once_and_asks_nothing(tally: Tally) -> None:
    tally.enter(7)
    form = {**tally.edit_form(1), "points": "8"}
    assert tally.client.post(f"{tally.url}/marks/1/edit", data=form).status_code == 302
    response = tally.client.post(f"{tally.url}/marks/1/edit", data=form)
    assert response.status_code == 302
    assert "Mark 1 corrected." in text(tally.client.get(tally.url))
    assert tally.points() == [8] and tally.log() == [("mark", "7", "8")]


def test_an_entry_sent_again_from_a_page_drawn_before_the_last_one_asks(tally: Tally) -> None:
    drawn = tally.entry_form()  # the page the back button brings back
    tally.enter(6, drawn)
    response = tally.enter(6, drawn, number=2)
    assert response.status_code == 409
    page = text(response)
    assert "Mark 2: the game changed since this page was drawn" in page
    assert "Mark 1 <strong>6 points</strong>" in page and tally.points() == [6]
    enter_anyway = forms_of(page)[0]  # the question's form, before the page's own
    assert tally.client.post(enter_anyway.action, data=as_drawn(enter_anyway)).status_code == 302
    assert tally.points() == [6, 6]
    assert tally.enter(4, drawn, number=3).status_code == 302  # stale, but repeats nothing
    assert tally.points() == [6, 6, 4]


def test_the_game_file_goes_out_and_comes_back_the_same(tally: Tally) -> None:
    for points in (3, 9):
        tally.enter(points)
    tally.client.post(f"{tally.url}/marks/1/edit", data={**tally.edit_form(1), "points": "4"})
    exported = tally.client.get(f"{tally.url}/game.json")
    assert exported.status_code == 200
    document = json.loads(exported.data)
    assert document["marks"] == [{"number": 1, "points": 4}, {"number": 2, "points": 9}]
    game = read_file(exported.data)
    assert isinstance(game, TallyGame)
    assert [mark.points for mark in game.marks] == [4, 9]
    assert [(c.kind, c.old, c.new) for c in game.corrections] == [("mark", "3", "4")]


def test_the_live_poll_follows_each_change(tally: Tally) -> None:
    poll = f"{tally.url}/version"
    first = tally.client.get(poll)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    assert tally.client.get(poll, headers={"If-None-Match": etag}).status_code == 304
    tally.enter(2)
    changed = tally.client.get(poll, headers={"If-None-Match": etag})
    assert (
        changed.status_code == 200 and changed.get_json()["version"] > first.get_json()["version"]
    )
