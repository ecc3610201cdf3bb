"""Every whole number a form of the app takes, typed wrong: far too large, far below zero, in
other digits than 0 to 9, with a fraction. The fields are found in the forms themselves, so a
new form's number is walked as soon as it is written; their pages, by reading every page of a
game of each family as a crawler does (the approach of test_fuzz.py, with each form sent as
drawn but for the one field). Each such number is refused with the field's message beside it,
what else was typed is drawn again, and nothing is ever a server error."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict
from wtforms import IntegerField
from wtforms.fields.core import UnboundField
from wtforms.form import BaseForm

from scorekeeper import create_app
from scorekeeper.forms import Form, WholeNumberField
from tests.web.crawler import PageForm, as_drawn, every_form_of, forms_of
from tests.web.families import every_familys_pages
from tests.web.table import text
from tests.web.test_circles import Keeper

WRONG = {
    "far too large": "1" + "0" * 400,
    "far below zero": "-" + "9" * 400,
    "a fraction": "2.5",
    "a decimal comma": "2,5",
    "Arabic-Indic digits": "١٢",
    "full-width digits": "１２",
    "a power of ten": "1e3",
}
OUT_OF_RANGE = {"far too large", "far below zero"}
NOT_A_NUMBER = "Type a whole number, in figures (such as 12)."


def forms_of_the_app() -> Iterator[type[Form]]:
    """Every form class of the app (not of the tests), but those a view makes for one page."""
    waiting: list[type[Form]] = [Form]
    while waiting:
        form = waiting.pop()
        waiting.extend(form.__subclasses__())
        if form.__module__.startswith("scorekeeper.") and "<locals>" not in form.__qualname__:
            yield form


def declared_in(form: type[Any], name: str) -> str:
    """The form class that declares the field ``name``, by its full name (none for a field
    that no class declares: a list's entries, the CSRF token)."""
    owner = next((cls for cls in form.__mro__ if name in vars(cls)), None)
    return f"{owner.__module__}.{owner.__qualname__}" if owner else ""


def number_fields() -> dict[tuple[str, str], UnboundField[Any]]:
    """Every field that takes a whole number typed in, by its form (the class declaring it)
    and its name."""
    found = {}
    for form in forms_of_the_app():
        for name in dir(form):
            field = getattr(form, name)
            if isinstance(field, UnboundField) and issubclass(field.field_class, IntegerField):
                found[declared_in(form, name), name] = field
    return found


def test_the_app_has_number_fields_to_walk(app: Flask) -> None:
    names = {name for _form, name in number_fields()}
    assert {"boards", "first_board", "left_a", "left_b", "cards_home", "minutes"} <= names


def messages_beside(page: str, name: str) -> list[str]:
    """The messages drawn in the row of the field named ``name``."""
    for row in re.findall(r'<div class="field invalid">(.*?)</div>', page, re.DOTALL):
        if f'name="{name}"' in row:
            found = re.findall(r'<p class="error" role="alert">(.*?)</p>', row, re.DOTALL)
            return [html.unescape(message) for message in found]
    return []


def a_right_number(field: UnboundField[Any]) -> str:
    """A number the field takes, not its lowest (so that it shows it was kept)."""
    low, high = field.kwargs["low"], field.kwargs["high"]
    return str(low + 1 if low < high else low)


def typed_in(form: PageForm, numbers: dict[str, str]) -> dict[str, str]:
    """The form as drawn, with every empty box typed in as a person would: a name in each
    (every one different), and a number each field takes where one is asked."""
    names = iter(["Anne", "Bruno", "Chloé", "Denis", "Élodie", "Fanny", "Gérard", "Hélène"])
    data = as_drawn(form)
    for name, kind in form.kinds.items():
        if name in numbers:
            data[name] = numbers[name]
        elif kind in ("text", "textarea") and not data.get(name):
            data[name] = next(names, "Zoé")
    return data


def buttons(form: PageForm) -> list[tuple[str, str] | None]:
    """The form's buttons that send a value, in the page's order (the first is the one the
    Enter key sends), or none."""
    named = [button for button in form.buttons if button[0]]
    return list(named) or [None]


@pytest.fixture
def validated(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, str]]:
    """Each field a form of the app checked: (its form, its name, what was sent)."""
    seen: list[tuple[str, str, str]] = []
    original: Callable[..., bool] = BaseForm.validate

    def validate(self: BaseForm, extra_validators: Any = None) -> bool:
        for field in self:
            if field.raw_data and isinstance(field.raw_data[0], str):
                seen.append((declared_in(type(self), field.short_name), field.short_name,
                             field.raw_data[0]))  # fmt: skip
        return original(self, extra_validators)

    monkeypatch.setattr(BaseForm, "validate", validate)
    return seen


def expected_message(field: UnboundField[Any], wrong_kind: str) -> str:
    """What the page says beside ``field`` of a number of ``wrong_kind``."""
    if wrong_kind not in OUT_OF_RANGE:
        return NOT_A_NUMBER
    bounds = {"min": field.kwargs["low"], "max": field.kwargs["high"]}
    return str(field.kwargs["out_of_range"]) % bounds


def test_every_number_field_refuses_a_wrong_number_with_its_message_and_keeps_the_rest(
    app: Flask, client: FlaskClient, validated: list[tuple[str, str, str]]
) -> None:
    app.config["PRIVATE_SERVER"] = True  # as many games as the walk starts
    fields = number_fields()
    right = {name: a_right_number(field) for (_form, name), field in fields.items()}
    refused: set[tuple[str, str, str]] = set()
    season = Keeper(client).start() + "/season"  # a page whose form is sent in its address
    walk = [
        (url, index, name, wrong_kind)
        for url in [*every_familys_pages(client), season]
        for index, form in enumerate(every_form_of(text(client.get(url))))
        for name in form.fields
        if name in right
        for wrong_kind in WRONG
    ]
    for url, index, name, wrong_kind in walk:
        for button in buttons(every_form_of(text(client.get(url)))[index]):
            # Drawn again each time: an entry another button made changes the page.
            drawn = every_form_of(text(client.get(url)))[index]
            numbers = {other: right[other] for other in drawn.fields if other in right}
            data = (
                typed_in(drawn, numbers)
                | {name: WRONG[wrong_kind]}
                | dict([button] if button else [])
            )
            del validated[:]
            if drawn.method == "get":
                response = client.get(drawn.action, query_string=data)
            else:
                response = client.post(drawn.action, data=data)
            where = (url, drawn.action, name, wrong_kind, button)
            assert response.status_code < 500, where
            read_by = [form for form, field, _sent in validated if field == name]
            if response.status_code == 302 or not read_by:
                continue  # that button does not go by the field: the next one
            assert response.status_code == 422, where
            page = text(response)
            message = expected_message(fields[read_by[0], name], wrong_kind)
            assert messages_beside(page, name) == [message], where
            (again,) = [form for form in every_form_of(page) if form.action == drawn.action]
            for key, value in data.items():
                if again.kinds.get(key) in ("text", "textarea", "hidden") and key != "csrf_token":
                    assert as_drawn(again)[key] == value, (where, key)
            refused.add((read_by[0], name, wrong_kind))
            break
    missing = {
        (form, name, wrong_kind)
        for form, name in fields
        for wrong_kind in WRONG
        if (form, name, wrong_kind) not in refused
    }
    assert not missing, f"number fields no page sent wrong, or that took it: {sorted(missing)}"


def test_no_whole_number_sent_for_a_choice_breaks_the_server(
    app: Flask, client: FlaskClient
) -> None:
    """The choices sent as numbers (a seat, a level, a round): a number not offered, however
    written, is refused or ignored, never a server error."""
    app.config["PRIVATE_SERVER"] = True
    chosen = {
        name
        for form in forms_of_the_app()
        for name in dir(form)
        if isinstance(field := getattr(form, name), UnboundField)
        and field.kwargs.get("coerce") is int
    }
    assert {"first_dealer", "north", "level", "from_round", "kept"} <= chosen
    circle = Keeper(client).start()
    names: set[str] = set()
    deck_shared = "/ascenseur/new/ascenseur-reguliere"  # the deck fields: its games alone
    for url in [*every_familys_pages(client), circle, deck_shared]:
        for index, form in enumerate(forms_of(text(client.get(url)))):
            for name in chosen & set(form.fields):
                for wrong_kind, wrong in WRONG.items():
                    drawn = forms_of(text(client.get(url)))[index]
                    data = typed_in(drawn, {}) | {name: wrong}
                    response = client.post(drawn.action, data=data)
                    assert response.status_code < 500, (url, drawn.action, name, wrong_kind)
                    names.add(name)
    assert names == chosen, f"no page sent: {sorted(chosen - names)}"


@pytest.fixture(scope="module")
def bare_app() -> Flask:
    return create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": "sqlite://"})


class Counted(Form):
    count = WholeNumberField(low=-5, high=40, out_of_range="From %(min)d to %(max)d.")


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(typed=st.one_of(st.text(max_size=12), st.from_regex(r"\A\s*[-−+]?[0-9]{1,12}\s*\Z")))
def test_a_number_field_takes_digits_0_to_9_alone_within_its_range(
    bare_app: Flask, typed: str
) -> None:
    with bare_app.test_request_context():
        form = Counted(formdata=MultiDict({"count": typed}), meta={"csrf": False})
        valid = form.validate()
    stripped = typed.strip()
    digits = stripped[1:] if stripped[:1] in ("+", "-", "−") else stripped
    if not stripped:
        assert valid and form.count.data is None
    elif not digits or any(digit not in "0123456789" for digit in digits):
        assert not valid and form.count.errors == [NOT_A_NUMBER]
    else:
        value = -int(digits) if stripped[0] in "-−" else int(digits)
        if -5 <= value <= 40:
            assert valid and form.count.data == value
        else:
            assert not valid and form.count.errors == ["From -5 to 40."]
