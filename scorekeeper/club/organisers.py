"""Who directs a field: one evening's sections are their director's, who scores every one of
them; a simultaneous is its organiser's, each club's section its own director's.

A field's own link (the evening director's, for another phone; a simultaneous's organiser's)
and the link clubs join an event by carry secrets of their own. Opening
one notes the event in this browser's signed cookie (as a circle's keeper link does) and moves
the address bar on, so that the secret is in no page a player sees. The organiser sees every
club's progress and the whole field; a club's director scores their own section alone.
"""

from __future__ import annotations

import secrets

from flask import session

from scorekeeper.club.models import ClubField
from scorekeeper.games.rights import RECENT, browser_id, is_scorer, remember

ORGANISES = "organises"
INVITED = "invited_to"


def directs(field: ClubField) -> bool:
    """Whether this browser directs the field: organises the simultaneous, or directs the
    evening's field (its link was opened here, or it scores every section of it)."""
    if field.simultaneous or organises(field):
        return organises(field)
    return bool(field.sections) and all(
        is_scorer(section.id, section.family, sure=True) for section in field.sections
    )


def organises(field: ClubField) -> bool:
    """Whether the field's own link (the organiser's, or the evening director's) was opened
    in this browser."""
    return field.id in session.get(ORGANISES, [])


def direct_every_section(field: ClubField) -> None:
    """The evening's director scores every section, those added since the link was opened
    too (a simultaneous's organiser scores no club's section)."""
    if field.simultaneous:
        return
    for section in field.sections:
        remember(section.id, scorer=True)


def invited(field: ClubField) -> bool:
    """Whether this browser was given the event's link for clubs (or organises it)."""
    return field.simultaneous and (field.id in session.get(INVITED, []) or organises(field))


def may_join(field: ClubField) -> bool:
    """Whether this browser may add a club's section to the simultaneous: it was given the
    clubs' link, and the organiser has not closed the event."""
    return invited(field) and not field.ended


def token_matches(given: str, kept: str | None) -> bool:
    return kept is not None and secrets.compare_digest(given.encode(), kept.encode())


def remember_organiser(field: ClubField) -> None:
    _remember(ORGANISES, field.id)


def remember_invited(field: ClubField) -> None:
    _remember(INVITED, field.id)


def _remember(key: str, field_id: str) -> None:
    browser_id()
    session.permanent = True  # a phone keeps its events when the browser is closed
    known = session.get(key, [])
    if known[:1] != [field_id]:
        session[key] = [field_id, *(other for other in known if other != field_id)][:RECENT]
