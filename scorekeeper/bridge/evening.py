"""An evening of bridge derived from its entries: each rubber (or Chicago wheel) scored by the
engine with its own seating, the next deal's dealer and vulnerability, and each player's
running total across partnerships. Nothing here is stored."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import zip_longest

from scorekeeper.bridge.models import BridgeGame, DealRecord, SeatingRecord
from scorekeeper.rules import bridge
from scorekeeper.rules.bridge import BySide, Seat, Side, Vulnerability


@dataclass(frozen=True)
class Round:
    """One rubber or Chicago wheel: who sat where, its deals, and the engine's score of them."""

    number: int
    seating: SeatingRecord
    records: tuple[DealRecord, ...]
    first_dealer: Seat
    rubber: bridge.Rubber | None
    chicago: bridge.Chicago | None

    @property
    def finished(self) -> bool:
        if self.rubber is not None:
            return self.rubber.finished
        assert self.chicago is not None
        return self.chicago.wheel_complete

    @property
    def totals(self) -> BySide[int]:
        scored = self.rubber or self.chicago
        assert scored is not None
        return scored.totals

    @property
    def margin(self) -> int:
        """North-South's total less East-West's."""
        return self.totals.ns - self.totals.ew

    @property
    def next_dealer(self) -> Seat:
        scored = self.rubber or self.chicago
        assert scored is not None
        return scored.next_dealer

    @property
    def next_vulnerability(self) -> Vulnerability:
        if self.rubber is not None:
            return self.rubber.vulnerable
        assert self.chicago is not None
        return self.chicago.next_vulnerability

    @property
    def next_deal(self) -> int:
        """The number the next deal of this rubber or wheel would have, from 1."""
        if self.chicago is not None:
            return self.chicago.next_number
        return len(self.records) + 1

    def player(self, seat: Seat) -> int:
        return self.seating.player_at(seat)

    def partners(self, side: Side) -> tuple[int, int]:
        """The players of a side, by their place in the game's list of players."""
        seats = (Seat.NORTH, Seat.SOUTH) if side is Side.NS else (Seat.EAST, Seat.WEST)
        return self.player(seats[0]), self.player(seats[1])

    def pad_rows(self, entries: BySide[tuple[int, ...]]) -> list[tuple[int | None, int | None]]:
        """Two columns of figures (We, They), side by side as on paper."""
        return list(zip_longest(entries.ns, entries.ew))


@dataclass(frozen=True)
class Evening:
    rounds: tuple[Round, ...]
    points: tuple[int, ...]
    """Each player's running total: the margins of the rubbers they won, less those they lost."""
    hundreds: tuple[int, ...]
    """The same, each rubber's margin settled in hundreds."""

    @property
    def current(self) -> Round:
        return self.rounds[-1]


def score_evening(game: BridgeGame) -> Evening:
    """The evening as the engine scores it from the entries; raises the engine's RuleError
    when an entry breaks a rule (a deal entered after its rubber ended, ...)."""
    rounds = []
    dealer = game.first_dealer
    points = [0] * len(game.players)
    hundreds = [0] * len(game.players)
    for seating in game.seatings:
        records = tuple(record for record in game.deals if record.rubber == seating.number)
        deals = [record.deal for record in records]
        if game.chicago:
            chicago = bridge.score_chicago(
                deals, first_dealer=dealer, as_duplicate=game.as_duplicate
            )
            played = Round(seating.number, seating, records, dealer, None, chicago)
        else:
            rubber = bridge.score_rubber(deals, first_dealer=dealer)
            played = Round(seating.number, seating, records, dealer, rubber, None)
        rounds.append(played)
        dealer = played.next_dealer
        for side, sign in ((Side.NS, 1), (Side.EW, -1)):
            for player in played.partners(side):
                points[player] += sign * played.margin
                hundreds[player] += sign * bridge.settle_in_hundreds(played.margin)
    return Evening(tuple(rounds), tuple(points), tuple(hundreds))
