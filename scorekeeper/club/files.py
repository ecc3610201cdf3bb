"""A club session to and from the results files other club programs write and read: PBN 2.0
and USEBIO 1.2 (the reading and writing themselves are in scorekeeper.rules)."""

from __future__ import annotations

import dataclasses

from flask import flash
from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.club.labels import difference_text, file_message, larger_event_text
from scorekeeper.club.models import FROM_FILE, ClubField, ClubSession
from scorekeeper.club.rows import ClubDeal, ClubPair, ClubResult, ClubTable
from scorekeeper.contract.labels import rule_message
from scorekeeper.games.registry import circles
from scorekeeper.games.transfer import TransferError
from scorekeeper.rules import pbn, usebio
from scorekeeper.rules.common import RuleError
from scorekeeper.rules.duplicate import Pair, SessionRecord, SessionScore, pairs_of
from scorekeeper.rules.field import Section
from scorekeeper.rules.files import ResultsFormat, results_format
from scorekeeper.rules.published import Convention, Published, Verdict, check


def pbn_of(game: ClubSession, *, names: bool = True) -> str:
    """The session's PBN file: a session read from a results file with the figures its club
    published, a section of a field with its figures in the field."""
    return pbn.write_pbn(
        shared_record(game, names), score=field_score(game), published=game.published()
    )


def usebio_of(game: ClubSession, *, names: bool = True) -> bytes:
    """The session's USEBIO file: a session read from a results file with the figures its
    club published, a section of a field with its figures in the field."""
    return usebio.write_usebio(
        shared_record(game, names), score=field_score(game), published=game.published()
    )


def field_score(game: ClubSession) -> SessionScore | None:
    """A section's figures in its field, for its files; ``None`` for a session of its own."""
    return game.score() if game.field_id is not None else None


def field_usebio(field: ClubField, *, director: bool) -> bytes:
    """The field's USEBIO file: a SECTION for each section, each with its figures in the
    field, the pairs' names for the director or where their section shows them."""
    return usebio.write_field_usebio(field_sections(field, director), field.score())


def field_pbn(field: ClubField, *, director: bool) -> str:
    """The field's PBN file: every section's boards, each with its figures in the field."""
    return pbn.write_field_pbn(field_sections(field, director), field.score())


def field_sections(field: ClubField, director: bool) -> list[Section]:
    """The field's sections as its files give them: the pairs' names for the director or
    where their section shows them."""
    return [
        Section(
            section.section,
            shared_record(section, director or section.names_shown),
            section.board_set,
        )
        for section in field.sections
    ]


def shared_record(game: ClubSession, names: bool) -> SessionRecord:
    """The session as its files give it: each player's federation number beside their name,
    and neither the names nor the numbers where the names are not shown."""
    record = game.record()
    if not names:
        return dataclasses.replace(record, names={})
    return dataclasses.replace(record, numbers=federation_numbers(game))


def federation_numbers(game: ClubSession) -> dict[Pair, tuple[str, str]]:
    """Each pair's two players' federation numbers: a circle's person's as the circle gives
    it, else as the results file read gave it."""
    ids = [person for pair in game.pairs for person in pair.person_ids if person is not None]
    of_people = circles().federation_numbers(ids)
    numbers = {}
    for pair in game.pairs:
        both = tuple(
            of_people.get(person, "") if person is not None else "" for person in pair.person_ids
        )
        read = (pair.first_number or "", pair.second_number or "")
        first, second = (mine or theirs for mine, theirs in zip(both, read, strict=True))
        if first or second:
            numbers[pair.key] = (first, second)
    return numbers


def session_from_file(data: bytes) -> ClubSession:
    """A new session from a PBN or USEBIO file, keeping the figures it published and how its
    program scored the session (as its figures show); the page is told how they check
    against Scorekeeper's count."""
    try:
        usebio_file = results_format(data) is ResultsFormat.USEBIO
        read = usebio.read_usebio(data) if usebio_file else pbn.read_pbn(data)
    except RuleError as error:
        raise TransferError(file_message(error)) from None
    except RecursionError:  # a document nested beyond any real file's depth
        raise TransferError(_("This file is not a results file Scorekeeper reads.")) from None
    record = read.session
    if not record.results:
        raise TransferError(_("This file has no results."))
    try:
        checked = check(record, read.published, score=record.score())
    except RuleError as error:
        raise TransferError(rule_message(error)) from None
    game = session_of(record, read.published, checked.convention)
    found, event = checked.differences, checked.larger_event
    if found:
        flash(
            ngettext(
                "%(num)d of the file's published figures differs from Scorekeeper's scoring: "
                "%(first)s",
                "%(num)d of the file's published figures differ from Scorekeeper's scoring; "
                "the first: %(first)s",
                len(found),
                first=difference_text(found[0]),
            ),
            "error",
        )
    elif event is None:
        flash(_("Every score, matchpoint, total and place the file publishes is confirmed."))
    else:
        flash(_("Every score and matchpoint the file publishes for this session is confirmed."))
    explained = sum(figure.verdict is Verdict.EXPLAINED for figure in checked.figures)
    if explained:
        flash(
            ngettext(
                "%(num)d of them is the file's own way of scoring, not Scorekeeper's: the "
                "session shows the published figures, and says beside them where and why "
                "Scorekeeper counts otherwise.",
                "%(num)d of them are the file's own way of scoring, not Scorekeeper's: the "
                "session shows the published figures, and says beside them where and why "
                "Scorekeeper counts otherwise.",
                explained,
            )
        )
    if event is not None:
        flash(larger_event_text(event))
    return game


def session_of(
    record: SessionRecord,
    published: Published | None = None,
    convention: Convention | None = None,
) -> ClubSession:
    """The session a results file gives, with what the file published and how its program
    scored the session."""
    published = published or Published()
    kept = convention.as_settings() if convention is not None else {}
    tables = max(result.table for result in record.results)
    game = ClubSession(
        settings={
            "movement": FROM_FILE,
            "tables": tables,
            "ranking": record.ranking.value,
            "scoring": record.scoring.value,
            "event": record.event[:60],
            **({"club": record.club[:60]} if record.club else {}),
            # How the file scored its session, when it is not Scorekeeper's way.
            **({"convention": kept} if kept else {}),
            **({"date": record.date.isoformat()} if record.date else {}),
        }
    )
    pairs: set[Pair] = {line.pair for line in published.standings}
    for index, result in enumerate(record.results):
        pairs.update(pairs_of(result, record.ranking))
        contract = result.contract
        figure_ns, figure_ew = published.of_result(index).figures(record.scoring)
        game.results.append(
            ClubResult(
                board=result.board,
                table=result.table,
                round=result.round,
                ns=result.ns,
                ew=result.ew,
                level=contract.level if contract else None,
                strain=contract.strain.value if contract else None,
                doubled=contract.doubled if contract else 0,
                declarer=result.declarer.value if result.declarer else None,
                tricks=result.tricks,
                artificial_ns=result.artificial_ns.value if result.artificial_ns else None,
                artificial_ew=result.artificial_ew.value if result.artificial_ew else None,
                lead=result.lead[:3],
                switched=result.switched,
                confirmed=True,
                published_ns=None if figure_ns is None else str(figure_ns),
                published_ew=None if figure_ew is None else str(figure_ew),
            )
        )
    game.pairs = []
    for pair in sorted(pairs, key=lambda p: (p.direction or "", p.number)):
        line = published.standing_of(pair)
        game.pairs.append(
            ClubPair(
                number=pair.number,
                direction=pair.direction.value if pair.direction else "",
                names=record.names.get(pair, "")[:60],
                tiebreak=record.tiebreaks.get(pair),
                first_number=record.numbers.get(pair, ("", ""))[0][:20] or None,
                second_number=record.numbers.get(pair, ("", ""))[1][:20] or None,
                published_place=None
                if line is None or line.rank is None
                else f"{line.rank}{'=' if line.tied else ''}",
                published_total=None if line is None or line.total is None else str(line.total),
                published_percentage=None
                if line is None or line.percentage is None
                else str(line.percentage),
                published_boards=None if line is None else line.boards,
            )
        )
    game.deals = [ClubDeal(board=board, deal=deal[:80]) for board, deal in record.deals.items()]
    game.tables = [ClubTable(number=number) for number in range(1, tables + 1)]
    return game
