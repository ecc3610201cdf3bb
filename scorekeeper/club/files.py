"""A club session to and from the results files other club programs write and read: PBN 2.0
and USEBIO 1.2 (the reading and writing themselves are in scorekeeper.rules)."""

from __future__ import annotations

import dataclasses

from flask import flash
from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.club.labels import difference_text, file_message
from scorekeeper.club.models import (
    FROM_FILE,
    ClubDeal,
    ClubPair,
    ClubResult,
    ClubSession,
    ClubTable,
)
from scorekeeper.contract.labels import rule_message
from scorekeeper.games.transfer import TransferError
from scorekeeper.rules import pbn, usebio
from scorekeeper.rules.common import RuleError, Side
from scorekeeper.rules.duplicate import Pair, Ranking, SessionRecord, Totals
from scorekeeper.rules.files import LargerEvent, ResultsFormat, check, results_format


def pbn_of(game: ClubSession, *, names: bool = True) -> str:
    return pbn.write_pbn(shared_record(game, names))


def usebio_of(game: ClubSession, *, names: bool = True) -> bytes:
    return usebio.write_usebio(shared_record(game, names))


def shared_record(game: ClubSession, names: bool) -> SessionRecord:
    """The session as its files give it: without the pairs' names, where they are not shown."""
    record = game.record()
    return record if names else dataclasses.replace(record, names={})


def session_from_file(data: bytes) -> ClubSession:
    """A new session from a PBN or USEBIO file; the file's own figures are checked against the
    engine's and the page is told whether they agree."""
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
    game = session_of(record)
    try:
        score = record.score()
    except RuleError as error:
        raise TransferError(rule_message(error)) from None
    checked = check(record, read.published, score)
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
    if event is not None:
        flash(larger_event_text(event))
    return game


def larger_event_text(event: LargerEvent) -> str:
    """Why a file's ranking is left out of the check: it is the whole event's."""
    if event.boards is None:
        return _(
            "The file's ranking is that of the whole event, not of this session alone: its "
            "places, totals and percentages count more boards than this session, so they are "
            "left out of the check."
        )
    return _(
        "The file's ranking is that of the whole event, not of this session alone: its "
        "places, totals and percentages count about %(event)d boards a pair, this session "
        "%(session)d, so they are left out of the check.",
        event=event.boards,
        session=event.session_boards,
    )


def session_of(record: SessionRecord) -> ClubSession:
    tables = max(result.table for result in record.results)
    game = ClubSession(
        settings={
            "movement": FROM_FILE,
            "tables": tables,
            "ranking": record.ranking.value,
            "scoring": record.scoring.value,
            "event": record.event[:60],
            **({"club": record.club[:60]} if record.club else {}),
            # How the file scored its session, when it is not the default.
            **({"expected": sorted(record.expected.items())} if record.expected else {}),
            **({"totals": record.totals.value} if record.totals is not Totals.EXACT else {}),
            **({"date": record.date.isoformat()} if record.date else {}),
        }
    )
    pairs: set[Pair] = set()
    for result in record.results:
        if record.ranking is Ranking.BY_DIRECTION:
            ns, ew = Pair(result.ns, Side.NS), Pair(result.ew, Side.EW)
        else:
            ns, ew = Pair(result.ns), Pair(result.ew)
        pairs.update((ns, ew))
        contract = result.contract
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
                confirmed=True,
            )
        )
    game.pairs = [
        ClubPair(
            number=pair.number,
            direction=pair.direction.value if pair.direction else "",
            names=record.names.get(pair, "")[:60],
            tiebreak=record.tiebreaks.get(pair),
        )
        for pair in sorted(pairs, key=lambda p: (p.direction or "", p.number))
    ]
    game.deals = [ClubDeal(board=board, deal=deal[:80]) for board, deal in record.deals.items()]
    game.tables = [ClubTable(number=number) for number in range(1, tables + 1)]
    return game
