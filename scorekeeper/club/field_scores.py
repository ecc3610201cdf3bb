"""A field's score kept in the server process: scored once per state of its sections, for
every page that shows it (each section's director's page, its players' and its tables', the
field's own page and its ranking).

A result entered in one section counts a change in every section of the field (see
``ClubSession.shown_with``): the field's state is each of its sections' versions, its own row
and the count of its parts' changes (``Game.version`` and ``Game.parts_version``), and how
the field is scored. A page read from a state keeps the score it drew from under that state;
a page read from a newer state scores the field again, and what it scores is kept, in place of
the older one. A score is only ever served under the versions of the rows it was read with,
so a page never shows a field older than the rows it read.

Only a page being drawn (a GET) takes and keeps a score: a form's request may have changed
rows not yet counted in their versions.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Protocol

from flask import has_request_context, request

from scorekeeper.rules.duplicate import SessionScore
from scorekeeper.rules.field import FieldScore

FIELDS_KEPT = 32
"""Fields kept, the newest state of each (a federation's simultaneous evening is one field;
a club's evening of sections another)."""


class Versioned(Protocol):
    id: str
    version: int
    parts_version: int


class _Kept:
    """A field's score at one state, with each section's share of it as its pages show it."""

    __slots__ = ("score", "sections", "state")

    def __init__(self, state: Hashable, score: FieldScore) -> None:
        self.state = state
        self.score = score
        self.sections: dict[str, SessionScore] = {}


kept_fields: OrderedDict[str, _Kept] = OrderedDict()
kept_lock = threading.Lock()


def state_of(across: bool, sections: Sequence[Versioned]) -> Hashable:
    """What a field's score depends on, as its sections' rows count it."""
    return (across, tuple((s.id, s.version, s.parts_version) for s in sections))


def _drawing() -> bool:
    return has_request_context() and request.method in ("GET", "HEAD")


def _kept(field_id: str, state: Hashable, scored: Callable[[], FieldScore]) -> _Kept:
    if _drawing():
        with kept_lock:
            kept = kept_fields.get(field_id)
            if kept is not None and kept.state == state:
                kept_fields.move_to_end(field_id)
                return kept
    kept = _Kept(state, scored())
    if _drawing():
        with kept_lock:
            kept_fields[field_id] = kept
            kept_fields.move_to_end(field_id)
            while len(kept_fields) > FIELDS_KEPT:
                kept_fields.popitem(last=False)
    return kept


def field_score(field_id: str, state: Hashable, scored: Callable[[], FieldScore]) -> FieldScore:
    """The field's score at ``state``: kept, or ``scored()`` (and kept, for a page)."""
    return _kept(field_id, state, scored).score


def section_score(
    field_id: str, state: Hashable, scored: Callable[[], FieldScore], section: str
) -> SessionScore:
    """One section's share of the field's score at ``state`` (FieldScore.section_score),
    kept with it."""
    kept = _kept(field_id, state, scored)
    found = kept.sections.get(section)
    if found is None:
        found = kept.sections[section] = kept.score.section_score(section)
    return found


def forget() -> None:
    """Drop every kept score (the tests' fresh start)."""
    with kept_lock:
        kept_fields.clear()
