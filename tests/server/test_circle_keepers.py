"""Several phones keeping one circle, against real server processes: each draws the circle's
page once, then all send their changes at the same moments, on two processes where there are
two. Counted from the circle's file afterwards: every change sent is in, none lost, and every
phone was answered that its change was made."""

from __future__ import annotations

import html
import json
import re
import threading

from tests.server.processes import Phone, Server
from tests.web.crawler import as_drawn, forms_of

KEEPERS = 6
GUESTS = 5
"""The people each phone adds; it also renames its own person and merges its own two."""
KEEP_LINK = re.compile(r'value="[^"]*(/circle/[A-Za-z0-9_-]+/keep/[A-Za-z0-9_-]+)"')


def form_at(page: str, action: str) -> dict[str, str]:
    """The fields of the one form of ``page`` sent to ``action``, as drawn."""
    (form,) = [form for form in forms_of(page) if form.action.split("#")[0] == action]
    return as_drawn(form)


def test_keepers_changing_a_circle_at_the_same_moments_lose_nothing(
    servers: list[Server],
) -> None:
    first = Phone(servers[0].url)
    people = [f"Keeper {k}" for k in range(KEEPERS)] + [f"Keeper {k} bis" for k in range(KEEPERS)]
    token = first.token("/circle/new")
    data = {"csrf_token": token, "name": "Le club", "people": "\n".join(people)}
    status, body, location = first.request("/circle/new", data)
    assert status == 302, body
    circle = "/circle/" + location.rsplit("/circle/", 1)[1]
    link = KEEP_LINK.search(first.request(circle)[1])
    assert link
    phones = [first]
    for number in range(1, KEEPERS):  # on both processes where there are two
        phone = Phone(servers[number % len(servers)].url)
        assert phone.request(link.group(1))[0] == 302
        phones.append(phone)
    pages = [html.unescape(phone.request(circle)[1]) for phone in phones]
    filed = json.loads(first.request(f"{circle}/circle.json")[1])
    ids = {person["name"]: person["id"] for person in filed["people"]}

    def changes(k: int) -> list[tuple[str, dict[str, str]]]:
        """Keeper ``k``'s changes, each sent from the page it drew at first."""
        added = [(f"{circle}/people", {"name": f"Guest {k}-{n}"}) for n in range(GUESTS)]
        own = ids[f"Keeper {k}"]
        return [
            *added,
            (f"{circle}/people/{own}/name", {"name": f"Keeper {k} renamed"}),
            (f"{circle}/merge", {"merged": str(ids[f"Keeper {k} bis"]), "kept": str(own)}),
        ]

    barrier = threading.Barrier(KEEPERS)
    answers: list[list[tuple[int, str]]] = [[] for _ in range(KEEPERS)]

    def keep(k: int) -> None:
        for action, fields in changes(k):
            form = {**form_at(pages[k], action), **fields}
            barrier.wait()
            status, _body, location = phones[k].request(action, form)
            told = phones[k].request(location.removeprefix(phones[k].base))[1] if location else ""
            answers[k].append((status, html.unescape(told)))

    threads = [threading.Thread(target=keep, args=(k,)) for k in range(KEEPERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    sent = KEEPERS * (GUESTS + 2)
    status, body, _ = first.request(f"{circle}/circle.json")
    assert status == 200
    document = json.loads(body)
    current = {p["name"] for p in document["people"] if p["merged_into"] is None}
    expected = {f"Guest {k}-{n}" for k in range(KEEPERS) for n in range(GUESTS)}
    expected |= {f"Keeper {k} renamed" for k in range(KEEPERS)}
    kinds = [change["kind"] for change in document["log"]]
    made = len(current & expected) + kinds.count("merged")
    assert made == sent, f"{sent - made} of {sent} changes lost"
    assert current == expected and kinds.count("renamed") == KEEPERS
    refused = [(k, status) for k in range(KEEPERS) for status, told in answers[k] if status != 302]
    assert not refused
    untold = [
        (k, n)
        for k in range(KEEPERS)
        for n, (_status, told) in enumerate(answers[k])
        if 'class="flash message"' not in told or 'class="flash error"' in told
    ]
    assert not untold
