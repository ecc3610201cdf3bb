"""A club's duplicate pairs session on the table core: what the director chose (movement,
tables, boards a round, scoring), the pairs and their names, and each table's result on each
board as North entered it. The movement, the matchpoints and the ranking are derived.

Each table keeps a version of its own: fifteen tables entering at once never wait on one
another, and a phone's stale form is caught for its own table only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Mapping
from datetime import date, datetime
from enum import StrEnum

from sqlalchemy import JSON, ForeignKey, String, false, true
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.club import field_scores
from scorekeeper.club.rows import ClubDeal, ClubPair, ClubResult, ClubTable, _decimal
from scorekeeper.club.seating import movement_of
from scorekeeper.extensions import Model
from scorekeeper.games.models import Game, Setting, new_game_id, new_scorer_token, utcnow
from scorekeeper.rules.bridge import Side
from scorekeeper.rules.duplicate import (
    Pair,
    Ranking,
    Scoring,
    SessionRecord,
    SessionScore,
    TableResult,
    Totals,
    pairs_of,
)
from scorekeeper.rules.field import FieldScore, Section, free_section_name, score_field
from scorekeeper.rules.movements import Movement, MovementKind, Seating, howell, mitchell
from scorekeeper.rules.published import Convention, Published, PublishedResult

FROM_FILE = "file"
"""The movement of a session read from a results file: the file says who sat where."""


class Shown(StrEnum):
    """What the tables' phones and those looking on see of the results before the session
    closes (the director sees everything, and everyone does once it is closed)."""

    AT_THE_END = "end"
    """Nothing: the ranking, the travellers and the files when the session closes."""
    PLAYED = "played"
    """Each table the travellers of the boards both its pairs have played; everyone the
    ranking as it stands."""
    ROUNDS = "rounds"
    """As PLAYED, but the ranking as it stood when every table had finished the last round
    they all finished: it moves round by round, not board by board."""
    ALL = "all"
    """Every result as it comes in, to whoever has the session's address."""


class ClubField(Model):
    """Sections played on one evening as one field (RULES.md §2 and §4): each section is a
    session of its own (its movement, tables, links and director's page), and sections on the
    same boards are scored across the field, or each on its own, as the director chooses."""

    __tablename__ = "club_field"

    id: Mapped[str] = mapped_column(String(16), primary_key=True, default=new_game_id)
    across: Mapped[bool] = mapped_column(default=True, server_default=true())
    """Whether sections on the same boards are matchpointed together (or each on its own)."""
    overall: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Whether the players' pages rank the whole field (or their own section)."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    # --- A simultaneous across clubs: the organiser's event, each club a section of it ---

    simultaneous: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Whether the field is an event clubs join, each with its own director (or one evening's
    sections under one director)."""
    ended: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Whether the organiser has closed the event: no club joins any more (until then the
    field is never whole, whatever its clubs so far have done)."""
    name: Mapped[str] = mapped_column(String(80), default="", server_default="")
    played_on: Mapped[date | None]
    scoring: Mapped[str] = mapped_column(String(16), default="", server_default="")
    """The event's scoring (a Scoring value): every club's section is scored so."""
    deals: Mapped[dict[str, str] | None] = mapped_column(JSON)
    """The event's deals, by board (PBN's deal text): every club plays these boards."""
    organiser_token: Mapped[str | None] = mapped_column(String(32))
    """The secret of the organiser's link (an event's alone)."""
    join_token: Mapped[str | None] = mapped_column(String(32))
    """The secret of the link a club joins the event by."""
    setup_nonce: Mapped[str | None] = mapped_column(String(32), unique=True)
    """The one-time value of the form that set the event up (a double tap is one event)."""

    sections: Mapped[list[ClubSession]] = relationship(
        back_populates="field", order_by="ClubSession.created_at, ClubSession.id"
    )

    @classmethod
    def event(
        cls, name: str, played_on: date, scoring: Scoring, deals: dict[int, str]
    ) -> ClubField:
        """A simultaneous: its organiser's and its clubs' links, its deals."""
        return cls(
            simultaneous=True,
            name=name,
            played_on=played_on,
            scoring=scoring.value,
            deals={str(board): deal for board, deal in deals.items()},
            organiser_token=new_scorer_token(),
            join_token=new_scorer_token(),
        )

    @property
    def event_deals(self) -> dict[int, str]:
        return {int(board): deal for board, deal in (self.deals or {}).items()}

    @property
    def event_scoring(self) -> Scoring:
        try:
            return Scoring(self.scoring)
        except ValueError:
            return Scoring.MATCHPOINTS

    @property
    def closed_everywhere(self) -> bool:
        """Every section is closed (a section uploaded from its club's file is), and, for a
        simultaneous, the organiser has closed the event: a club may join until then."""
        if self.simultaneous and not self.ended:
            return False
        return bool(self.sections) and all(section.closed for section in self.sections)

    def score(self, seen_from: ClubSession | None = None, rounds: int | None = None) -> FieldScore:
        """The field scored, every section with every result in (RuleError: a section the
        engine refuses). Seen from a club's section of a simultaneous (``seen_from``), before
        every club has closed: that club's results of its first ``rounds`` (all where
        ``None``) and every club's results of the boards those are on, so that nothing of a
        board is seen at a club before it is played there (a club yet to start sees nothing).
        The whole field's score is kept once per state of its sections; a board's figures
        are the same whether the whole field or a club sees it, and scored once."""
        if seen_from is None or not self.simultaneous or self.closed_everywhere:
            return field_scores.field_score(self.id, self.state(), self._scored)
        own = [result for result in seen_from.results if rounds is None or result.round <= rounds]
        begun = {result.board for result in own}
        sections = []
        for section in self.sections:
            record = section.record()
            kept = tuple(
                result
                for result in record.results
                if result.board in begun
                and (section is not seen_from or rounds is None or result.round <= rounds)
            )
            record = dataclasses.replace(record, results=kept)
            sections.append(Section(section.section, record, section.board_set))
        return score_field(sections, across=self.across)

    def state(self) -> Hashable:
        """What the field's score depends on: how it is scored, and each section's versions
        (a result entered in one section counts a change in each of them)."""
        return field_scores.state_of(self.across, self.sections)

    def _scored(self) -> FieldScore:
        records = field_scores.records_of(self.sections)  # as each section's record()
        sections = [
            Section(section.section, record, section.board_set)
            for section, record in zip(self.sections, records, strict=True)
        ]
        return score_field(sections, across=self.across)

    def shown_to_players(self) -> bool:
        """Whether the players' pages show the whole field's ranking: where the director
        chose it, and every section shows its ranking as it stands (or is closed)."""
        return self.overall and all(section.ranks_as_it_stands() for section in self.sections)

    def section(self, name: str) -> ClubSession | None:
        return next((section for section in self.sections if section.section == name), None)

    def next_name(self) -> str:
        """The first section's name none of the field's sections has."""
        return free_section_name({section.section for section in self.sections})


class ClubSession(Game):
    """A duplicate pairs session, or one section of a field."""

    # Its own column is read with the game row whichever class the query names (a test reads
    # a session through Game, and its score after the request).
    __mapper_args__ = {"polymorphic_identity": "club", "polymorphic_load": "inline"}  # noqa: RUF012

    field_id: Mapped[str | None] = mapped_column(
        ForeignKey("club_field.id", ondelete="SET NULL"), index=True
    )
    """The field the session is a section of, if any."""
    field: Mapped[ClubField | None] = relationship(back_populates="sections")

    pairs: Mapped[list[ClubPair]] = relationship(
        back_populates="game",
        order_by="(ClubPair.direction, ClubPair.number)",
        cascade="all, delete-orphan",
    )
    tables: Mapped[list[ClubTable]] = relationship(
        back_populates="game", order_by="ClubTable.number", cascade="all, delete-orphan"
    )
    results: Mapped[list[ClubResult]] = relationship(
        back_populates="game",
        order_by="(ClubResult.round, ClubResult.table, ClubResult.board)",
        cascade="all, delete-orphan",
    )
    deals: Mapped[list[ClubDeal]] = relationship(
        back_populates="game", order_by="ClubDeal.board", cascade="all, delete-orphan"
    )

    # --- What the director chose ---

    section = Setting(str, "")
    """The section's name in its field ("A")."""
    board_set = Setting(str, "")
    """The set of boards a section plays: sections of a field on the same set ("", the usual
    case) are scored across the field together."""

    movement_kind = Setting(str, MovementKind.MITCHELL, key="movement")
    """ "mitchell", "howell", or "file" for a session read from a results file."""
    table_count = Setting(int, 0, key="tables")
    boards_per_round = Setting(int, 0)
    pair_count = Setting(int, 0, key="pairs")
    scoring = Setting(Scoring, Scoring.MATCHPOINTS)

    @property
    def ranking(self) -> Ranking:
        movement = self.movement
        if movement is not None:
            return movement.ranking
        return Ranking(self.settings.get("ranking", Ranking.ONE_FIELD))

    event = Setting(str, "")
    club = Setting(str, "")
    """The club's name, for its results files (USEBIO's CLUB), when given."""

    @property
    def file_expected(self) -> dict[int, int] | None:
        """For a session read from a file, the boards its file scored against another number
        of results than the most any board has (each board's Neuberg N)."""
        pairs = self.settings.get("expected") or ()
        return {int(board): int(wanted) for board, wanted in pairs} or None

    totals = Setting(Totals, Totals.EXACT)
    """How per-board matchpoints add up: exactly, unless the file was scored otherwise."""

    @property
    def convention(self) -> Convention:
        """How the program that wrote this session's results file scored it, as its figures
        showed (Scorekeeper's own way for a session played here)."""
        kept = self.settings.get("convention")
        return Convention.from_settings(kept) if isinstance(kept, dict) else Convention()

    def published(self) -> Published | None:
        """What this session's results file published, as it wrote it: each result's
        figures (in the order of :meth:`record`'s results) and its ranking, by place;
        ``None`` for a session played here, or a section of a field (it is ranked by the
        field's figures, not by those its club published of it alone)."""
        if self.field_id is not None:
            return None
        in_imps = self.scoring.in_imps
        results = []
        for result in self.results:
            ns, ew = (_decimal(text) for text in (result.published_ns, result.published_ew))
            results.append(
                PublishedResult(imp_ns=ns, imp_ew=ew)
                if in_imps
                else PublishedResult(mp_ns=ns, mp_ew=ew)
            )
        standings = [pair.published for pair in self.pairs if pair.published is not None]
        if not standings and all(result == PublishedResult() for result in results):
            return None
        standings.sort(
            key=lambda line: (line.pair.direction or "", line.rank or 0, line.pair.number)
        )
        return Published(tuple(results), tuple(standings))

    @property
    def played_on(self) -> date | None:
        """The day the session was played, as its results file gave it; ``None`` for a
        session run here (or a file that gave no date): the day it was created stands."""
        written = self.settings.get("date")
        return date.fromisoformat(written) if written else None

    closed = Setting(bool, False)
    late_from = Setting(lambda value: None if value is None else int(value), None)
    """The round from which a late pair took the sit-out's place (see Movement.with_late_pair)."""

    added_from = Setting(lambda value: None if value is None else int(value), None)
    """The round from which a table added for late pairs plays (Movement.with_added_table)."""
    added_pairs = Setting(int, 2)
    left_pair = Setting(lambda value: None if value is None else int(value), None)
    """A pair that left before the end (Movement.with_pair_leaving): its number, ..."""
    left_direction = Setting(str, "")
    """... its direction in a Mitchell ("NS", "EW"), ..."""
    left_from = Setting(lambda value: None if value is None else int(value), None)
    """... and the first round it did not play."""
    """The late pairs the added table came for: 2, or 1 and a sit-out each round."""

    def reseat(self) -> None:
        """The movement changed (a late pair, a table added, a pair leaving, an arrow
        switch): every table's phone seats its pairs anew, and a table's form drawn before is
        caught (see drawn_before_reseating)."""
        reseated = dict(self.settings.get("reseated") or {})
        for table in self.tables:
            reseated[str(table.number)] = table.version or 0
            table.changed()
        self.setting("reseated", reseated)

    def drawn_before_reseating(self, table: int, drawn_from: str) -> bool:
        """Whether a table's form drawn from ``drawn_from`` (the table's version then) was
        drawn before the movement last changed: the pairs it names may sit elsewhere now."""
        last = (self.settings.get("reseated") or {}).get(str(table))
        return last is not None and drawn_from.isdigit() and int(drawn_from) <= int(last)

    @property
    def switched_rounds(self) -> frozenset[int]:
        """The rounds of a Mitchell's arrow switch (see Movement.with_arrow_switch)."""
        return frozenset(int(number) for number in self.settings.get("switched_rounds") or ())

    @property
    def shown(self) -> Shown:
        """What the director shows before the session closes (a session read from a file was
        played elsewhere: all of it; a club's section of a field uploaded from its file, what
        every closed section shows until the field's last section closes)."""
        if self.movement_kind == FROM_FILE:
            return Shown.ALL if self.field_id is None else Shown.AT_THE_END
        try:
            return Shown(self.settings.get("shown", Shown.PLAYED))
        except ValueError:
            return Shown.PLAYED

    asks_lead = Setting(bool, False)
    """Whether the tables' phones ask for the opening lead with each result (checked against
    the hand records, where the session has them)."""

    names_shown = Setting(bool, True)
    """Whether the pairs' names are on the pages the players and those looking on see (the
    director always sees them); pair numbers alone otherwise."""

    def public_name_of(self, pair: Pair, scorer: bool) -> str:
        """A pair's names as a page shows them: to the director, or where they are shown."""
        return self.name_of(pair) if scorer or self.names_shown else ""

    @property
    def closed_everywhere(self) -> bool:
        """Closed, and so is every section of its field on the same boards: until then the
        boards are still played elsewhere."""
        if not self.closed or self.field_id is None or self.field is None:
            return self.closed
        if self.field.simultaneous:
            return self.field.closed_everywhere
        return all(
            section.closed for section in self.field.sections if section.board_set == self.board_set
        )

    def shows_everything(self) -> bool:
        """Whether every result, the travellers, the score cards and the files are for all
        who have the session's address: once it is closed (and every section playing its
        boards), or where the director shows every result as it comes in."""
        return self.closed_everywhere or self.shown is Shown.ALL

    def hands_public(self) -> bool:
        """Whether the boards' hands are for everyone: once the session is closed (and every
        section playing its boards), or for a session played elsewhere (read from its results
        file). Until then a board's hands are for those who have played it."""
        return self.closed_everywhere or (self.movement_kind == FROM_FILE and self.field_id is None)

    def results_files_for_everyone(self) -> bool:
        """Whether whoever has the session's address may have its PBN and USEBIO files: once
        every result is shown, and only if the hands they hold are public too."""
        return self.shows_everything() and (self.hands_public() or not self.deals)

    def game_file_for_everyone(self) -> bool:
        """The whole session's file holds the pairs' names as well: for everyone only where
        the director shows them."""
        return self.results_files_for_everyone() and self.names_shown

    def ranks_as_it_stands(self) -> bool:
        """Whether the players see the ranking as it stands: closed, or shown so."""
        return self.closed or self.shown in (Shown.PLAYED, Shown.ALL)

    def shows_ranking(self) -> bool:
        return self.closed or self.shown is not Shown.AT_THE_END

    def boards_shown_at(self, seating: Seating) -> set[int]:
        """The boards whose travellers a table's phone shows to the pairs seated there: those
        both have played, or every board once everything is shown."""
        if self.shows_everything():
            return {result.board for result in self.results}
        if self.shown not in (Shown.PLAYED, Shown.ROUNDS):
            return set()
        return self.boards_played_at(seating)

    def boards_played_at(self, seating: Seating) -> set[int]:
        """The boards both pairs seated at a table have played (a table's phone stays while
        pairs move on, and the pair arriving has still to play what the pair before played):
        whose hands the phone may show before the session closes."""
        movement = self.movement
        assert movement is not None
        seated = [self.pair_key(seating.ns, Side.NS), self.pair_key(seating.ew, Side.EW)]
        if (sitting := movement.sitting_out(seating)) is not None:
            seated = [self.pair_key(*sitting)]
        played_by: dict[Pair, set[int]] = {pair: set() for pair in seated}
        numbers = {pair.number for pair in seated}
        for result in self.results:
            if result.ns not in numbers and result.ew not in numbers:
                continue  # played by other pairs (a result's engine form costs its scoring)
            for pair in pairs_of(result.table_result(), self.ranking):
                if pair in played_by:
                    played_by[pair].add(result.board)
        return set.intersection(*played_by.values())

    @property
    def movement(self) -> Movement | None:
        """The movement (who sits where, which boards), derived from the settings; ``None``
        for a session read from a file."""
        kind = self.movement_kind
        if kind == FROM_FILE:
            return None
        build = mitchell if kind == MovementKind.MITCHELL else howell
        return movement_of(
            build,
            self.table_count,
            self.boards_per_round,
            self.pair_count,
            self.late_from,
            self.switched_rounds,
            (self.added_from, self.added_pairs) if self.added_from is not None else None,
            (self.left_pair, self.left_direction, self.left_from)
            if self.left_pair is not None and self.left_from is not None
            else None,
        )

    @property
    def last_change(self) -> datetime:
        return max([self.updated_at, *(table.updated_at for table in self.tables)])

    # --- What the engine derives ---

    def pair_key(self, number: int, direction: Side | None) -> Pair:
        return Pair(number, direction if self.ranking.numbered_by_direction else None)

    def record(self) -> SessionRecord:
        """The session as the engine and the results files take it."""
        return self.record_with(
            tuple(result.table_result() for result in self.results),
            names={pair.key: pair.names for pair in self.pairs if pair.names},
            deals={deal.board: deal.deal for deal in self.deals},
            tiebreaks={pair.key: pair.tiebreak for pair in self.pairs if pair.tiebreak is not None},
        )

    def record_with(
        self,
        results: tuple[TableResult, ...],
        *,
        names: Mapping[Pair, str],
        deals: Mapping[int, str],
        tiebreaks: Mapping[Pair, int],
        expected_of: Callable[[Movement, tuple[TableResult, ...]], Mapping[int, int]] = (
            Movement.expected_results
        ),
    ) -> SessionRecord:
        """The session's record from its rows however they were read (a field's sections are
        read together): its results, its pairs' names and tiebreaks, its deals; each board's
        N as ``expected_of`` gives it from the movement."""
        movement = self.movement
        return SessionRecord(
            results=results,
            ranking=self.ranking,
            scoring=self.scoring,
            event=self.event,
            club=self.club,
            date=self.played_on or self.created_at.date(),
            names=names,
            deals=deals,
            tiebreaks=tiebreaks,
            expected=expected_of(movement, results) if movement is not None else self.file_expected,
            totals=self.totals,
        )

    def score(self) -> SessionScore:
        field = self.field if self.field_id is not None else None
        if field is not None and field.across and len(field.sections) >= 2:
            # Scored once per state of the field, for every section's pages.
            return field_scores.section_score(field.id, field.state(), field._scored, self.section)
        return self.scored(self.record(), lambda section: section.record())

    def scored(
        self, record: SessionRecord, record_of: Callable[[ClubSession], SessionRecord]
    ) -> SessionScore:
        """The session's ``record`` scored: alone, or, as a section of a field scored across
        the field, against the other sections' results (each as ``record_of`` gives it)."""
        # A session of its own reads no relationship: its score is read off detached rows too.
        field = self.field if self.field_id is not None else None
        if field is None or not field.across or len(field.sections) < 2:
            return record.score()
        sections = [
            Section(
                section.section,
                record if section is self else record_of(section),
                section.board_set,
            )
            for section in field.sections
        ]
        return score_field(sections).section_score(self.section)

    def shown_with(self) -> list[str]:
        """The other sections of the field: their pages show this one's results."""
        if self.field_id is None or self.field is None:
            return []
        return [other.id for other in self.field.sections if other.id != self.id]

    def started_with(self) -> list[str]:
        """The sections set up with this one by the same director: an evening's field's
        others (a club's section of a simultaneous is its own director's alone)."""
        if self.field_id is None or self.field is None or self.field.simultaneous:
            return []
        return self.shown_with()

    def rounds_finished(self) -> int:
        """The last round every table has finished (0 before the first is)."""
        movement = self.movement
        return 0 if movement is None else movement.rounds_finished(self.entered)

    def ranking_shown_after(self, scorer: bool) -> int | None:
        """The round whose end the ranking shows, where the director shows it round by round
        (to all but the director, until the session closes); ``None`` for the ranking as it
        stands."""
        if scorer or self.closed or self.shown is not Shown.ROUNDS:
            return None
        return self.rounds_finished()

    def score_shown(self, scorer: bool) -> SessionScore | None:
        """The session scored as the page's reader may see it: every result, or those of the
        rounds every table has finished (``None`` before the first is)."""
        until = self.ranking_shown_after(scorer)
        if until is None:
            return self.score()
        if until == 0:
            return None
        field = self.field if self.field_id is not None else None
        if field is not None and field.simultaneous and len(field.sections) >= 2:
            # Every club's results on the boards of this club's rounds finished, as the
            # event's ranking shows them: other clubs' rounds are not this club's.
            return field.score(self, until).section_score(self.section)

        def until_then(session: ClubSession) -> SessionRecord:
            """A section's results of the rounds every table of it has finished, up to this
            section's: sections' rounds need not end together."""
            last = until if session is self else min(until, session.rounds_finished())
            record = session.record()
            results = tuple(result for result in record.results if result.round <= last)
            return dataclasses.replace(record, results=results)

        return self.scored(until_then(self), until_then)

    @property
    def last_round_begun(self) -> int:
        """The latest round with a result in (0 before any): the movement may change only
        after it."""
        return max((result.round for result in self.results), default=0)

    @property
    def entered(self) -> set[tuple[int, int, int]]:
        """The round, the table and the board of each result in."""
        return {(result.round, result.table, result.board) for result in self.results}

    def table(self, number: int) -> ClubTable | None:
        for table in self.tables:
            if table.number == number:
                return table
        return None

    def result_at(self, board: int, table: int, round_: int) -> ClubResult | None:
        for result in self.results:
            if (result.board, result.table, result.round) == (board, table, round_):
                return result
        return None

    def name_of(self, pair: Pair) -> str:
        # Compared column by column: a page names every pair of the ranking, and building
        # each row's key for each of them cost the players' page a tenth of its drawing.
        direction = pair.direction.value if pair.direction is not None else ""
        for known in self.pairs:
            if known.number == pair.number and known.direction == direction:
                return known.names
        return ""
