"""A small helper that plays at the table through Flask's test client, as a phone without
JavaScript would: it reads each form's CSRF token from the page it was drawn on."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.ascenseur.forms import SetupForm
from scorekeeper.rules.ascenseur import PRESETS

TOKEN = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
NONCE = re.compile(r'id="nonce" name="nonce" type="hidden" value="([^"]*)"')
DRAWN_FROM = re.compile(r'id="drawn_from" name="drawn_from" type="hidden" value="([^"]*)"')
"""What a form was drawn from: the game's version, or the entry a correction form changes."""
VERSION = ORIGINAL = DRAWN_FROM


def text(response: TestResponse) -> str:
    return response.get_data(as_text=True)


class Table:
    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.game_url = ""

    def token(self, url: str) -> str:
        page = text(self.client.get(url))
        match = TOKEN.search(page)
        assert match, f"no form on {url}"
        return match.group(1)

    def setup_data(
        self,
        preset: str,
        names: Sequence[str],
        first_dealer: int = 0,
        action: str = "start",
        **rules: Any,
    ) -> dict[str, Any]:
        page = text(self.client.get(f"/ascenseur/new/{preset}"))
        token, nonce = TOKEN.search(page), NONCE.search(page)
        assert token and nonce
        data: dict[str, Any] = {}
        for key, value in {**SetupForm.defaults(PRESETS[preset]), **rules}.items():
            if isinstance(value, bool):
                if value:
                    data[key] = "y"
            elif value is not None:
                data[key] = str(value)
        data.update(
            {f"players-{seat}": name for seat, name in enumerate(names)},
            first_dealer=str(first_dealer),
            csrf_token=token.group(1),
            nonce=nonce.group(1),
            action=action,
        )
        return data

    def start(
        self,
        preset: str = "ascenseur",
        names: Sequence[str] = ("Anne", "Bruno", "Chloé", "Denis"),
        first_dealer: int = 0,
        **rules: Any,
    ) -> str:
        data = self.setup_data(preset, names, first_dealer, **rules)
        response = self.client.post(f"/ascenseur/new/{preset}", data=data)
        assert response.status_code == 302, text(response)
        self.game_url = response.headers["Location"]
        return self.game_url

    def round_data(self, prefix: str, values: Sequence[int | str | None]) -> dict[str, Any]:
        page = text(self.client.get(self.game_url))
        token, version = TOKEN.search(page), VERSION.search(page)
        assert token and version
        data: dict[str, Any] = {"csrf_token": token.group(1), "drawn_from": version.group(1)}
        for seat, value in enumerate(values):
            if value is not None:
                data[f"{prefix}_{seat}"] = str(value)
        return data

    def bids(self, number: int, bids: Sequence[int | str | None], trump: str = "") -> TestResponse:
        data = self.round_data("bid", bids)
        data["trump"] = trump
        return self.client.post(f"{self.game_url}/rounds/{number}/bids", data=data)

    def tricks(self, number: int, tricks: Sequence[int | str | None]) -> TestResponse:
        data = self.round_data("tricks", tricks)
        return self.client.post(f"{self.game_url}/rounds/{number}/tricks", data=data)

    def play(self, number: int, bids: Sequence[int], tricks: Sequence[int]) -> None:
        assert self.bids(number, bids).status_code == 302
        assert self.tricks(number, tricks).status_code == 302

    def correct(
        self, number: int, bids: Sequence[int], tricks: Sequence[int], trump: str = ""
    ) -> TestResponse:
        """Send round ``number``'s correction form with these numbers."""
        data = {
            **self.edit_data(number),
            **{f"bid_{seat}": str(bid) for seat, bid in enumerate(bids)},
            **{f"tricks_{seat}": str(taken) for seat, taken in enumerate(tricks)},
            "trump": trump,
        }
        return self.client.post(f"{self.game_url}/rounds/{number}/edit", data=data)

    def edit_data(self, number: int) -> dict[str, Any]:
        """The hidden fields of the correction form of a round, as drawn now."""
        page = text(self.client.get(f"{self.game_url}/rounds/{number}/edit"))
        token, original = TOKEN.search(page), ORIGINAL.search(page)
        assert token and original
        return {"csrf_token": token.group(1), "drawn_from": html.unescape(original.group(1))}
