"""Two scorers enter the same rounds at the same moment, against a real server process: every
accepted entry is stored, every refused one says so, and the game is the accepted entries."""

from __future__ import annotations

import json
import re
import threading

from tests.server.processes import Phone, Server

NAMES = ("Ana", "Bob")
ROUNDS = 25


def start(phone: Phone) -> str:
    """A two-player Ascenseur game; its address."""
    data = {
        "csrf_token": phone.token("/ascenseur/new/ascenseur"),
        "players-0": NAMES[0],
        "players-1": NAMES[1],
        "first_dealer": "0",
        "top_rounds": "once",
        "bidding": "in-turn",
        "hook": "y",
        "hook_from": "1",
        "first_lead": "left-of-dealer",
        "play": "free",
        "made_base": "0",
        "made_per_trick": "1",
        "missed_flat": "0",
        "missed_per_trick": "1",
        "shape": "up-and-down",
        "hands": "all",
        "trump": "every-round",
        "nonce": "concurrent",
        "action": "start",
    }
    status, body, location = phone.request("/ascenseur/new/ascenseur", data)
    assert status == 302, body
    return location


def race(phones: list[Phone], path: str, forms: list[dict[str, str]]) -> list[tuple[int, str]]:
    """Each phone sends its form at the same moment; the answers in the phones' order."""
    answers: list[tuple[int, str]] = [(0, "")] * len(phones)
    barrier = threading.Barrier(len(phones))

    def send(index: int) -> None:
        barrier.wait()
        status, body, _location = phones[index].request(path, forms[index])
        answers[index] = (status, body)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(phones))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_two_scorers_on_the_same_rounds(servers: list[Server]) -> None:
    ana, bob = Phone(servers[0].url), Phone(servers[-1].url)  # on two processes where there are two
    game = start(ana)
    game_path = game.removeprefix(servers[0].url)
    page = ana.request(game_path)[1]
    # A private server lets both score; the club deployment, the phone given the scorer link.
    scorer_link = re.search(rf"{re.escape(game_path)}/score/[\w-]+", page)
    bob.request(scorer_link.group() if scorer_link else game_path)
    accepted: list[dict[str, object]] = []
    for number in range(1, ROUNDS + 1):
        cards = min(number, 30 - number)
        # Two legal sets of bids: nobody bids (a total of 0), or both bid 1 (a total of 2; in a
        # two-card round the dealer's 1 is forbidden, so one bids 0).
        forms = []
        both_bid = ("1", "0") if cards == 2 else ("1", "1")
        for phone, bids in ((ana, ("0", "0")), (bob, both_bid)):
            token = phone.token(game_path)
            forms.append({"csrf_token": token, "bid_0": bids[0], "bid_1": bids[1], "trump": ""})
        answers = race([ana, bob], f"{game_path}/rounds/{number}/bids", forms)
        winners = [i for i, (status, _body) in enumerate(answers) if status == 302]
        assert len(winners) == 1, [status for status, _ in answers]
        loser = 1 - winners[0]
        assert answers[loser][0] == 409
        assert f"Round {number} was entered on another phone" in answers[loser][1]
        bids = [int(forms[winners[0]]["bid_0"]), int(forms[winners[0]]["bid_1"])]

        tricks_forms = []
        for phone, split in ((ana, (cards, 0)), (bob, (0, cards))):
            tricks_forms.append(
                {
                    "csrf_token": phone.token(game_path),
                    "tricks_0": str(split[0]),
                    "tricks_1": str(split[1]),
                }
            )
        answers = race([ana, bob], f"{game_path}/rounds/{number}/tricks", tricks_forms)
        winners = [i for i, (status, _body) in enumerate(answers) if status == 302]
        assert len(winners) == 1, [status for status, _ in answers]
        assert answers[1 - winners[0]][0] == 409
        form = tricks_forms[winners[0]]
        accepted.append(
            {
                "number": number,
                "bids": bids,
                "tricks": [int(form["tricks_0"]), int(form["tricks_1"])],
                "trump": None,
            }
        )
    status, body, _ = ana.request(f"{game_path}/game.json")
    assert status == 200
    assert json.loads(body)["rounds"] == accepted
