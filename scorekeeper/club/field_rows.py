"""A field of sections (RULES.md §2 and §4): one evening's sections under one director, or a
simultaneous across clubs, each club's section its own director's. The field keeps how it is
scored and, for a simultaneous, its name, day, deals and links; each section is a club session
(scorekeeper.club.models); the field's figures are derived."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from datetime import date, datetime
from typing import TYPE_CHECKING

from sqlalchemy import JSON, String, false, true
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.club import field_scores
from scorekeeper.extensions import Model
from scorekeeper.games.models import new_game_id, new_scorer_token, utcnow
from scorekeeper.rules.duplicate import Scoring
from scorekeeper.rules.field import FieldScore, Section, score_field

if TYPE_CHECKING:
    from scorekeeper.club.models import ClubSession


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
        """The first section's letter none of the field's sections has: A, B, ... Z, AA ..."""
        taken = {section.section for section in self.sections}
        count = 0
        while self.next_name_after(count) in taken:
            count += 1
        return self.next_name_after(count)

    @staticmethod
    def next_name_after(count: int) -> str:
        """The name of the section after ``count`` others: A, B, ... Z, then AA, AB ..."""
        letters = ""
        while True:
            count, letter = divmod(count, 26)
            letters = chr(ord("A") + letter) + letters
            if count == 0:
                return letters
            count -= 1
