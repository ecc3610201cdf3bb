"""An evening of bridge derived from its entries: each rubber (or Chicago wheel) scored by the
engine with its own seating, the next deal's dealer and vulnerability, and each player's
running total across partnerships. Nothing here is stored."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import zip_longest

from scorekeeper.bridge.models import BridgeGame, DealRecord, SeatingRecord
from scorekeeper.rules import bridge
from scorekeeper.rules.bridge import BridgeRule, BySide, DealError, Seat, Side, Vulnerability

CHICAGO_DEALS = 4


@dataclass(frozen=True)
class Round:
    """One rubber or Chicago wheel: who sat where, its deals, and the engine's score of them."""

    number: int
    seating: SeatingRecord
    records: tuple[DealRecord, ...]
    first_dealer: Seat
    scored: bridge.Rubber | bridge.Chicago

    @property
    def rubber(self) -> bridge.Rubber | None:
        return self.scored if isinstance(self.scored, bridge.Rubber) else None

    @property
    def chicago(self) -> bridge.Chicago | None:
        return self.scored if isinstance(self.scored, bridge.Chicago) else None

    @property
    def finished(self) -> bool:
        if isinstance(self.scored, bridge.Rubber):
            return self.scored.finished
        return self.scored.wheel_complete

    @property
    def totals(self) -> BySide[int]:
        return self.scored.totals

    @property
    def margin(self) -> int:
        """North-South's total less East-West's."""
        return self.totals.ns - self.totals.ew

    @property
    def next_dealer(self) -> Seat:
        return self.scored.next_dealer

    @property
    def next_vulnerability(self) -> Vulnerability:
        if isinstance(self.scored, bridge.Rubber):
            return self.scored.vulnerable
        return self.scored.next_vulnerability

    @property
    def next_deal(self) -> int:
        """The number the next deal of this rubber or wheel has, from 1 (a Chicago deal
        passed out is dealt again under its number)."""
        if isinstance(self.scored, bridge.Chicago):
            return self.scored.next_number
        return len(self.records) + 1

    def player(self, seat: Seat) -> int:
        return self.seating.player_at(seat)

    def partners(self, side: Side) -> tuple[int, int]:
        """The players of a side, by their place in the game's list of players."""
        seats = (Seat.NORTH, Seat.SOUTH) if side is Side.NS else (Seat.EAST, Seat.WEST)
        return self.player(seats[0]), self.player(seats[1])

    @staticmethod
    def pad_rows(entries: BySide[tuple[int, ...]]) -> list[tuple[int | None, int | None]]:
        """Two columns of figures (We, They), side by side as on paper."""
        return list(zip_longest(entries.ns, entries.ew))


@dataclass(frozen=True)
class Evening:
    rounds: tuple[Round, ...]
    points: tuple[int, ...]
    """Each player's running total over the rubbers or wheels played out: the margins of
    those they won, less those they lost."""
    hundreds: tuple[int, ...]
    """The same, each player's net settled in hundreds (an exact 50 rounded as the table chose)."""
    points_if_stopped: tuple[int, ...]
    """The running totals if the evening stopped now, the rubber in progress with what an
    unfinished rubber scores."""

    @property
    def current(self) -> Round:
        return self.rounds[-1]

    def place(self, record: DealRecord) -> int:
        """A deal's place in the evening, from 1."""
        return next(
            index
            for index, other in enumerate(
                (r for played in self.rounds for r in played.records), start=1
            )
            if other is record
        )


def score_evening(game: BridgeGame) -> Evening:
    """The evening as the engine scores it from the entries. Raises a DealError when the
    entries cannot be an evening: deals out of rubber order, a deal of a rubber without seats,
    a rubber or wheel followed by another before it is over, a wheel of more than four deals,
    or a deal the engine refuses (one after its rubber ended, ...)."""
    by_round: dict[int, list[DealRecord]] = defaultdict(list)
    latest = 0
    for record in game.deals:
        if record.rubber < latest:
            raise DealError(BridgeRule.ROUNDS_ORDER, value=record.rubber)
        latest = record.rubber
        by_round[record.rubber].append(record)
    if set(by_round) - {seating.number for seating in game.seatings}:
        raise DealError(BridgeRule.ROUND_SEATS, value=max(by_round))
    rounds = []
    dealer = game.first_dealer
    for index, seating in enumerate(game.seatings):
        records = tuple(by_round.get(seating.number, ()))
        deals = [record.deal for record in records]
        scored: bridge.Rubber | bridge.Chicago
        if game.chicago:
            scored = bridge.score_chicago(
                deals, first_dealer=dealer, as_duplicate=game.as_duplicate
            )
            if scored.next_number > CHICAGO_DEALS + 1:
                raise DealError(BridgeRule.WHEEL_OVER, value=seating.number)
        else:
            scored = bridge.score_rubber(deals, first_dealer=dealer)
        played = Round(seating.number, seating, records, dealer, scored)
        if index < len(game.seatings) - 1 and not played.finished:
            raise DealError(BridgeRule.ROUND_UNFINISHED, value=seating.number)
        rounds.append(played)
        dealer = played.next_dealer
    points = [0] * len(game.players)
    if_stopped = [0] * len(game.players)
    for played in rounds:
        for side, sign in ((Side.NS, 1), (Side.EW, -1)):
            for player in played.partners(side):
                if_stopped[player] += sign * played.margin
                if played.finished:
                    points[player] += sign * played.margin
    # Each player's net is settled, not each margin (RULES.md §4): two rubbers won by 450 are
    # 900, settled as 9 whichever way an exact 50 goes.
    hundreds = [bridge.settle_in_hundreds(net, game.rounding) for net in points]
    return Evening(tuple(rounds), tuple(points), tuple(hundreds), tuple(if_stopped))
