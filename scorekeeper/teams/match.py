"""A teams match as the engine scores it: each board's result at both tables, North-South's
score at each, the IMPs it is worth to team A, the running totals, and the victory points on
the scale of the match's length."""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.rules import bridge
from scorekeeper.rules.bridge import Seat, Vulnerability
from scorekeeper.teams.models import TABLES, TableResult, TeamsGame


@dataclass(frozen=True)
class BoardLine:
    """A board with at least one table's result entered."""

    number: int
    dealer: Seat
    vulnerability: Vulnerability
    results: tuple[TableResult | None, TableResult | None]
    """Table 1's and table 2's results; ``None`` until entered."""
    ns_scores: tuple[int | None, int | None]
    imps: int | None
    """IMPs to team A (negative: to team B), once both tables are in."""
    running: tuple[int, int]
    """The IMPs team A and team B have won on the boards so far, this one included."""

    @property
    def imps_a(self) -> int:
        return max(self.imps or 0, 0)

    @property
    def imps_b(self) -> int:
        return max(-(self.imps or 0), 0)


@dataclass(frozen=True)
class Match:
    """The match so far, from team A's point of view."""

    lines: tuple[BoardLine, ...]
    imps: tuple[int, int]
    """Team A's and team B's IMPs on the boards complete."""
    victory_points: tuple[float, float]
    """On the scale of the whole match, whatever its boards played so far."""
    boards_complete: int
    next: tuple[int, int] | None
    """The board and the table whose result comes next; ``None`` once the match is over."""

    @property
    def margin(self) -> int:
        return self.imps[0] - self.imps[1]

    @property
    def finished(self) -> bool:
        return self.next is None


def next_entry(game: TeamsGame) -> tuple[int, int] | None:
    """Results come board after board, table 1 then table 2."""
    entered = {(r.board, r.table) for r in game.results}
    for board in game.board_numbers:
        for table in TABLES:
            if (board, table) not in entered:
                return board, table
    return None


def score_match(game: TeamsGame) -> Match:
    """The match so far (raises a RuleError if a stored result breaks a rule)."""
    stored = {(r.board, r.table): r for r in game.results}
    played = [n for n in game.board_numbers if (n, 1) in stored or (n, 2) in stored]
    pairs, lines = [], []
    for number in played:
        first, second = stored.get((number, 1)), stored.get((number, 2))
        scores = (
            first.ns_score if first is not None else None,
            second.ns_score if second is not None else None,
        )
        if scores[0] is not None and scores[1] is not None:
            pairs.append((scores[0], scores[1]))
        lines.append((number, (first, second), scores))
    scored = bridge.score_team_match(pairs) if pairs else None
    board_imps = iter(scored.board_imps if scored else ())
    running_a = running_b = 0
    board_lines = []
    for number, results, scores in lines:
        imps = next(board_imps) if None not in scores else None
        running_a += max(imps or 0, 0)
        running_b += max(-(imps or 0), 0)
        board_lines.append(
            BoardLine(
                number,
                bridge.board_dealer(number),
                bridge.board_vulnerability(number),
                results,
                scores,
                imps,
                (running_a, running_b),
            )
        )
    totals = (scored.imps_a, scored.imps_b) if scored else (0, 0)
    return Match(
        lines=tuple(board_lines),
        imps=totals,
        victory_points=bridge.victory_points(totals[0] - totals[1], game.boards),
        boards_complete=len(pairs),
        next=next_entry(game),
    )
