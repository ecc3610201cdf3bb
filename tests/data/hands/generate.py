"""Write dds_par.json: deals dealt at random (seeded), each with the double-dummy table and
the par of every vulnerability and dealer as Bo Haglund's DDS computes them (through endplay's
own par, not Scorekeeper's), for tests/rules/test_hands.py to check its par against.

    python tests/data/hands/generate.py
"""

import json
import random
from pathlib import Path

from endplay.dds import calc_all_tables
from endplay.dds import par as dds_par
from endplay.types import Deal, Player, Vul

SEED = 2026
DEALS = 120
VULNERABILITIES = {"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}
RANKS = "AKQJT98765432"


def random_deal(chance: random.Random) -> str:
    cards = [(suit, rank) for suit in range(4) for rank in RANKS]
    chance.shuffle(cards)
    hands = []
    for seat in range(4):
        held = cards[13 * seat : 13 * seat + 13]
        suits = (
            "".join(r for s, r in sorted(held, key=lambda c: RANKS.index(c[1])) if s == k)
            for k in range(4)
        )
        hands.append(".".join(suits))
    return "N:" + " ".join(hands)


def main() -> None:
    chance = random.Random(SEED)
    deals = [random_deal(chance) for _ in range(DEALS)]
    tables = [
        t
        for i in range(0, DEALS, 40)
        for t in calc_all_tables([Deal(d) for d in deals[i : i + 40]])
    ]
    records = []
    for deal, table in zip(deals, tables, strict=True):
        pars = {}
        for name, vul in VULNERABILITIES.items():
            for dealer in "NESW":
                found = dds_par(table, vul, Player.find(dealer))
                contracts = sorted(
                    f"{c.level}{'SHDCN'[c.denom]}{'X' if c.penalty == 2 else ''} "
                    f"{'NESW'[c.declarer]} {6 + c.level + c.result}"
                    for c in found
                )
                pars[f"{name} {dealer}"] = {"score": found.score, "contracts": contracts}
        # endplay's rows are strains (spades, hearts, diamonds, clubs, no trump), columns N E S W
        rows = table.to_list()
        tricks = {
            seat: {strain: rows[s][n] for s, strain in enumerate("SHDCN")}
            for n, seat in enumerate("NESW")
        }
        records.append({"deal": deal, "tricks": tricks, "par": pars})
    path = Path(__file__).with_name("dds_par.json")
    lines = ",\n".join(json.dumps(record, separators=(",", ":")) for record in records)
    path.write_text(f'{{"seed": {SEED}, "deals": [\n{lines}\n]}}\n')


if __name__ == "__main__":
    main()
