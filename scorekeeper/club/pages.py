"""What every page of a club session stands on: the session found by its address, scored as
its reader may see it (kept once scored), a table's link, a director's form refused, a printout."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

from flask import flash, render_template, request, url_for
from flask_babel import gettext as _

from scorekeeper.club.checked import published_sheet
from scorekeeper.club.family import (
    table_token,
)
from scorekeeper.club.models import ClubSession
from scorekeeper.contract.labels import rule_message
from scorekeeper.games.forms import ChangeForm
from scorekeeper.games.links import link_base
from scorekeeper.games.lookup import get_game_or_404
from scorekeeper.games.writes import Outcome, drawn_from_now, game_page
from scorekeeper.rules.common import RuleError
from scorekeeper.rules.duplicate import SessionScore


def club_session(game_id: str) -> ClubSession:
    return get_game_or_404(game_id, ClubSession)


def scored(game: ClubSession, scorer: bool = True) -> tuple[SessionScore | None, str | None]:
    """The session scored as its reader may see it (see ClubSession.score_shown), or the
    engine's refusal (a session is only as good as its rows)."""
    try:
        return kept_score(game, scorer), None
    except RuleError as error:
        return None, rule_message(error)


SCORES_KEPT = 256


"""Sessions scored, the newest state of each: a result entered changes the director's page,
the players' (the ranking as it stands) and the table's phone (its pairs' cards), each scoring
the same session; scored once, the three draw in a third of the time. An older state is not
kept: no page asks for it again, and a session's score is large."""


kept_scores: OrderedDict[Hashable, tuple[int, SessionScore | None]] = OrderedDict()


kept_scores_lock = threading.Lock()


def kept_score(game: ClubSession, scorer: bool) -> SessionScore | None:
    """``game.score_shown(scorer)``, scored once per state of the session in a server process:
    kept under the session and what its reader may see, with the version it was scored at,
    for a page being drawn (a GET changes nothing; a form's request may have changed the
    session it scores)."""
    if request.method not in ("GET", "HEAD"):
        return game.score_shown(scorer)
    scope = (game.id, game.ranking_shown_after(scorer))
    version = game.live_version
    with kept_scores_lock:
        kept = kept_scores.get(scope)
        if kept is not None and kept[0] == version:
            kept_scores.move_to_end(scope)
            return kept[1]
    score = game.score_shown(scorer)
    with kept_scores_lock:
        kept = kept_scores.get(scope)
        if kept is None or kept[0] < version:  # a request that read the session later won
            kept_scores[scope] = (version, score)
            kept_scores.move_to_end(scope)
            while len(kept_scores) > SCORES_KEPT:
                kept_scores.popitem(last=False)
    return score


def table_links(game: ClubSession) -> list[tuple[int, str]]:
    return [(table.number, link_base() + table_path(game, table.number)) for table in game.tables]


def table_path(game: ClubSession, table: int, **arguments: Any) -> str:
    return url_for(
        ".table_page", game_id=game.id, table=table, token=table_token(game, table), **arguments
    )


def refused(game: ClubSession, form: ChangeForm, invalid: str | None) -> Outcome | None:
    """The page again, saying why a director's form of the session's own row changes
    nothing: ``invalid`` (what is wrong with it), or that it was drawn before the session's
    last change; ``None`` when it may change the session."""
    if invalid is None and not drawn_from_now(form, game.version):
        invalid = _("The session changed since this page was drawn; try again.")
    if invalid is None:
        return None
    flash(invalid, "error")
    return game_page(game)


def printout(
    game: ClubSession, template: str, *, scorer: bool, whole: bool = False, **context: Any
) -> str:
    """A printout, scored as its reader may see it (``whole``: every result, where the page
    itself keeps to what its reader may see)."""
    score, problem = scored(game, scorer or whole)
    sheet = published_sheet(game, score)
    return render_template(
        template, game=game, score=score, sheet=sheet, problem=problem, scorer=scorer, **context
    )


def not_yet(game: ClubSession) -> tuple[str, int]:
    """What the players may not see yet, by the director's choice."""
    return render_template("club/not_yet.html", game=game), 403
