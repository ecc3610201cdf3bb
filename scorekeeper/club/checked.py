"""A session read from a results file, as its pages show it: the figures its club published
(each traveller line's, each pair's place, total and percentage), each beside Scorekeeper's
check of it (see scorekeeper.rules.published)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from scorekeeper.club.labels import (
    boards_counted_text,
    check_text,
    larger_event_text,
    note_text,
    own_figures_text,
)
from scorekeeper.club.models import FROM_FILE, ClubSession
from scorekeeper.rules.common import Side
from scorekeeper.rules.duplicate import Pair, ScoredResult, Scoring, SessionScore, pairs_of
from scorekeeper.rules.published import (
    CountedPair,
    Figure,
    FigureCheck,
    FileCheck,
    LargerEvent,
    Note,
    Published,
    PublishedStanding,
    Reason,
    Verdict,
    check,
)

# Notes said once for the session, not at each figure they explain.
_SESSION_WIDE = (Reason.UNSCALED_TOTALS, Reason.SCALED_TOTALS, Reason.ROUNDED, Reason.SESSION_TOP)
# Notes on boards, said at their travellers: a pair's total names its boards scored so.
_OF_BOARDS = (Reason.NOT_SCALED, Reason.SCALED_TO, Reason.DATUM, Reason.ARTIFICIAL)


@dataclass(frozen=True, slots=True)
class Shown:
    """A published figure as a page shows it: its value as the file wrote it, and its
    check (``None``: nothing to check it against)."""

    value: Decimal
    checked: FigureCheck | None

    @property
    def mark(self) -> str:
        """How a page marks the figure: "" where Scorekeeper's count confirms it, "explained"
        where the file's own way of scoring gives it, "unexplained" where nothing does."""
        if self.checked is None or self.checked.verdict is Verdict.CONFIRMED:
            return ""
        return "explained" if self.checked.verdict is Verdict.EXPLAINED else "unexplained"


@dataclass(frozen=True, slots=True)
class PublishedSheet:
    """What a results file published for its session, checked, for the session's pages."""

    published: Published
    checked: FileCheck
    scoring: Scoring
    places: Mapping[tuple[int, int, int], int]
    """A result's place (board, table, round) to its index in the session's results."""
    boards_of: Mapping[Pair, frozenset[int]]
    """The boards each pair played."""

    def datum(self, board: int) -> int | None:
        """A Butler board's datum as the file counted it, where it is not Scorekeeper's."""
        return self.checked.convention.data.get(board)

    def line(self, scored: ScoredResult) -> tuple[Shown | None, Shown | None]:
        """North-South's and East-West's published figures on a traveller line."""
        result = scored.result
        index = self.places.get((result.board, result.table, result.round))
        if index is None:
            return None, None
        figures = self.published.of_result(index).figures(self.scoring)
        return (
            None
            if figures[0] is None
            else Shown(figures[0], self.checked.lines.get((index, Side.NS))),
            None
            if figures[1] is None
            else Shown(figures[1], self.checked.lines.get((index, Side.EW))),
        )

    def of_side(self, scored: ScoredResult, north: bool) -> Shown | None:
        """The published figure of one side of a line (a pair's score card)."""
        return self.line(scored)[0 if north else 1]

    @property
    def ranks(self) -> bool:
        """Whether the file published a ranking."""
        return any(line.rank is not None for line in self.published.standings)

    def rankings(
        self, fields: tuple[Side | None, ...]
    ) -> list[tuple[Side | None, list[PublishedStanding]]]:
        """The file's ranking, one per field of the session, by place as published."""
        return [
            (
                side,
                [
                    line
                    for line in self.published.standings
                    if side is None or line.pair.direction == side
                ],
            )
            for side in fields
        ]

    def counted(self, side: Side | None) -> tuple[CountedPair, ...]:
        """A ranking the file did not publish, counted its way."""
        return dict(self.checked.count.rankings).get(side, ())

    def standing(self, pair: Pair) -> PublishedStanding | None:
        return self.published.standing_of(pair)

    def shown(self, pair: Pair, figure: Figure) -> Shown | None:
        """A pair's published total, percentage or place, with its check."""
        line = self.published.standing_of(pair)
        if line is None:
            return None
        value = {Figure.TOTAL: line.total, Figure.PERCENTAGE: line.percentage}.get(figure)
        if figure is Figure.RANK:
            value = None if line.rank is None else Decimal(line.rank)
        return None if value is None else Shown(value, self.checked.standings.get((pair, figure)))

    def pair_notes(self, pair: Pair) -> list[str]:
        """What Scorekeeper says of a pair's published total, percentage and place where it
        counts otherwise: its own figures, then why (the boards the file scored its own way
        named once: their travellers say how), or the figures the results give."""
        figures: list[str] = []
        notes: list[Note] = []
        for figure in (Figure.TOTAL, Figure.PERCENTAGE, Figure.RANK):
            checked = self.checked.standings.get((pair, figure))
            if checked is None or checked.verdict is Verdict.CONFIRMED:
                continue
            figures.append(check_text(checked, in_imps=self.scoring.in_imps))
            notes += [note for note in checked.notes if note not in notes]
        if not figures:
            return []
        said = ["; ".join(figures) + "."]
        said += [
            note_text(note)
            for note in notes
            if note.reason not in _SESSION_WIDE and note.reason not in _OF_BOARDS
        ]
        played = self.boards_of.get(pair, frozenset())
        boards = sorted(played & self._boards_of(notes))
        if boards:
            said.append(boards_counted_text(tuple(boards), every=len(boards) == len(played)))
        return said

    @staticmethod
    def _boards_of(notes: list[Note]) -> set[int]:
        boards: set[int] = set()
        for note in notes:
            if note.reason in _OF_BOARDS:
                boards.update(note.values.get("boards") or (note.values["board"],))
        return boards

    def board_notes(self, board: int) -> list[str]:
        """What Scorekeeper says of a board's published figures where it counts otherwise:
        why, once for the board (an artificial score with Scorekeeper's own figures beside
        the file's), and each figure its results do not bear out."""
        said: list[str] = []
        notes: list[Note] = []
        own: list[tuple[Note, Decimal | None]] = []  # an artificial line's own figures
        for checked in self.checked.lines.values():
            if checked.board != board or checked.verdict is Verdict.CONFIRMED:
                continue
            if checked.verdict is Verdict.DIFFERS:
                said.append(check_text(checked, in_imps=self.scoring.in_imps))
            for note in checked.notes:
                if note.reason in (Reason.NOT_SCALED, Reason.SCALED_TO):
                    note = Note(note.reason, {**note.values, "boards": (board,)})
                if note not in notes:
                    notes.append(note)
                if note.reason is Reason.ARTIFICIAL:
                    own.append((note, checked.own))
        sentences = []
        for note in notes:
            sentence = note_text(note)
            figures = [figure for said_of, figure in own if said_of == note]
            if len(figures) == 2 and None not in figures:
                ns, ew = figures
                assert ns is not None and ew is not None
                sentence += " " + own_figures_text(ns, ew, in_imps=self.scoring.in_imps)
            sentences.append(sentence)
        return sentences + said

    @property
    def session_notes(self) -> list[str]:
        """How the file scored its session, where it is not Scorekeeper's way; whether its
        ranking is a larger event's."""
        said = [note_text(note) for note in self.checked.notes]
        if self.checked.larger_event is not None:
            said.append(larger_event_text(self.checked.larger_event))
        return said

    @property
    def differences(self) -> list[str]:
        """Each published figure the results do not bear out, said."""
        return [
            check_text(checked, in_imps=self.scoring.in_imps)
            for checked in self.checked.figures
            if checked.verdict is Verdict.DIFFERS
        ]

    @property
    def larger_event(self) -> LargerEvent | None:
        return self.checked.larger_event

    @property
    def ranking_note(self) -> str | None:
        """What the ranking the file published is, where it is not this session's."""
        event = self.checked.larger_event
        return None if event is None else larger_event_text(event)

    @property
    def counts(self) -> dict[str, int]:
        """How many published figures are confirmed, explained, and differ."""
        found = {"confirmed": 0, "explained": 0, "unexplained": 0}
        for checked in self.checked.figures:
            found[Shown(checked.published, checked).mark or "confirmed"] += 1
        return found


SHEETS_KEPT = 64
"""Imported sessions' checks, the newest state of each: the session's page, its ranking, its
travellers and its score cards each show the same check, which costs a few times the scoring
of the session to make."""
_kept: OrderedDict[str, tuple[int, PublishedSheet | None]] = OrderedDict()
_kept_lock = threading.Lock()


def published_sheet(game: ClubSession, score: SessionScore | None) -> PublishedSheet | None:
    """For a session read from a results file, what the file published checked against
    ``score`` (the session as its reader sees it: every result, an imported session showing
    all); ``None`` for a session played here. Made once per state of the session in a
    server process."""
    if game.movement_kind != FROM_FILE or score is None:
        return None
    version = game.live_version
    with _kept_lock:
        kept = _kept.get(game.id)
        if kept is not None and kept[0] == version:
            _kept.move_to_end(game.id)
            return kept[1]
    sheet = _sheet(game, score)
    with _kept_lock:
        _kept[game.id] = (version, sheet)
        _kept.move_to_end(game.id)
        while len(_kept) > SHEETS_KEPT:
            _kept.popitem(last=False)
    return sheet


def _sheet(game: ClubSession, score: SessionScore) -> PublishedSheet | None:
    published = game.published()
    if published is None:
        return None
    record = game.record()
    if len(published.results) != len(record.results):
        return None
    checked = check(record, published, game.convention, score)
    places = {(r.board, r.table, r.round): index for index, r in enumerate(record.results)}
    boards: dict[Pair, set[int]] = {}
    for result in record.results:
        for pair in pairs_of(result, record.ranking):
            boards.setdefault(pair, set()).add(result.board)
    boards_of = {pair: frozenset(played) for pair, played in boards.items()}
    return PublishedSheet(published, checked, game.scoring, places, boards_of)


__all__ = ["PublishedSheet", "Shown", "published_sheet"]
