"""The families of games, in one registry the core looks up: each gives its key, its name, its
game class and entry tables, its new-game pages, how a game of it reads in a list, its game
file, how its last entry is taken back, and how its games count in a circle's history. The
core itself imports no family, nor the circles, which it calls through :class:`Circles`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, current_app

from scorekeeper.games.models import Correction, Game
from scorekeeper.rules.history import PlayedGame


@dataclass(frozen=True)
class NewGame:
    """One game a family offers on the new-game page."""

    url: str
    name: str
    description: str


@dataclass(frozen=True)
class Summary:
    """A game as the list of games shows it."""

    title: str
    detail: str
    finished: bool


@dataclass(frozen=True)
class TakenBack:
    """What undo took back: the log's lines for it, the message the page shows, and the values
    to fill in the form again (query arguments of the game's page)."""

    logged: Sequence[Correction]
    message: str
    refill: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class CircleGame:
    """A game of a circle's history (scorekeeper.circles), with the circle's key for each of
    its people: by seat, and by a person's id for a family whose games name people elsewhere
    (a club session's pairs)."""

    game: Game
    seats: tuple[str | None, ...]
    """The key of the person in each seat (``None``: nobody of the circle)."""
    person: Callable[[int | None], str | None]
    """The key of the circle's person of this id, as they now are after a merge (``None``:
    nobody of the circle)."""


@dataclass(frozen=True)
class NamedPlace:
    """A name a game holds for one player outside its seats (one of a club pair's two), which
    a circle's person may be."""

    label: str
    """Where it is, as a page says it ("Pair 3 NS")."""
    name: str
    person_id: int | None
    seat: Callable[[int | None], None]
    """Name the circle's person of this id there (``None``: nobody)."""


@dataclass(frozen=True)
class InCircles:
    """How a family's games count in a circle's history (scorekeeper.circles). Each function
    is given the family's games of the history, in the order they were started, each with the
    circle's keys for its people (:class:`CircleGame`), and answers with the values of
    :mod:`scorekeeper.rules.history`."""

    leagues: Callable[[Sequence[CircleGame]], Mapping[str, Sequence[PlayedGame]]] = lambda games: {}
    """The leagues its games make, by a key of the family's own ("ascenseur:<preset>"): each
    the games whose points compare, each seat's finish in them."""
    league_name: Callable[[str], str] = str
    """A league's name, in the reader's language, by its key."""
    figures: Callable[[Sequence[CircleGame], str], Any] = lambda games, person: None
    """What the page of the person of this key shows of the family's games, ``None`` when
    there is nothing: values of rules.history gathered in a dataclass, written in the person's
    history file as they are."""
    figures_template: str = ""
    """The template that shows them, included in the person's page with ``figures``, ``names``
    (each person's key to the name the page shows), ``decimal`` and ``percent``."""
    loaded: Sequence[str] = ()
    """The relationships of its game read along with the games, for what these functions ask
    of each ("rounds")."""
    places: Callable[[Game], Sequence[NamedPlace]] = lambda game: ()
    """The names a game holds for players outside its seats, which the circle's people may
    be (a club session's pairs' players)."""
    shown: Callable[[Game, Mapping[int, str]], Sequence[tuple[Any, str, str]]] = (
        lambda game, hidden: ()
    )
    """What a game shows outside its seats in place of its rows' names, given the names shown
    instead of some people's (by person id): (row, attribute, value), as
    :attr:`Circles.shown_to_viewers`."""
    season: Callable[[Sequence[CircleGame]], Sequence[Any]] = lambda games: ()
    """The family's sessions of the circle's season as ranked (values of
    :class:`~scorekeeper.rules.history.RankedSession`), for its handicapped rankings and its
    ladder; a family of games with no such ranking has none."""


@dataclass(frozen=True)
class Family:
    key: str
    name: Callable[[], str]
    game: type[Game]
    """The family's subclass of :class:`Game`."""
    entries: Sequence[type[Any]]
    """The tables of its entries (rows with a ``game_id``): a game with none was never played."""
    page: str
    """The endpoint of a game's page."""
    start: str
    """The endpoint of the family's new-game page."""
    new_games: Callable[[], Sequence[NewGame]]
    summary: Callable[[Game], Summary]
    export: Callable[[Game], dict[str, Any]]
    """The game as a JSON document, with the envelope (``format``, ``version``, ``family``)."""
    read_file: Callable[[bytes], Game]
    """A new game from a file of this family; raises TransferError saying what is wrong."""
    take_back: Callable[[Game], TakenBack | None]
    """Undo the last entry in the game's rows; ``None`` when there is nothing to take back."""
    describe: Callable[[Game, Correction], str]
    """A line of the corrections log, in the reader's language."""
    file_kind: Callable[[Game], str]
    """What the game's files are named after, before the date and the id ("bridge-rubber")."""
    undo_refused: Callable[[Game], str | None] = lambda game: None
    """Why nothing may be taken back now, in the reader's language (a club session closed,
    whose results are published), or ``None``."""
    file_for_everyone: Callable[[Game], bool] = lambda game: True
    """Whether whoever has the game's address may have its file now; else its scorer alone (a
    club session's, until the director shows every result)."""
    every_phone_scores_at_home: bool = True
    """On a private server (the family's laptop) every phone scores the family's games; not
    where a game's own links give narrower rights (a club session's tables each enter their own
    results, and the director's rights come from the director's link alone)."""
    in_circles: InCircles | None = None
    """How its games count in a circle's history; ``None`` for a family whose games name no
    circle's people (they are never a circle's)."""
    parts: type[Any] | None = None
    """The rows of a game's parts that its entries are written under, each with a version of
    its own (a club session's tables), rather than under the game's row; each such write
    counts in the game's ``parts_version`` as well (see scorekeeper.games.writes.save)."""


FAMILIES: dict[str, Family] = {}


def register(family: Family) -> Family:
    FAMILIES[family.key] = family
    return family


def family_of(game: Game) -> Family:
    return FAMILIES[game.family]


def file_stem(game: Game) -> str:
    """The name of a game's files (sheet, game file), without the extension."""
    return f"{family_of(game).file_kind(game)}-{game.created_at:%Y-%m-%d}-{game.id}"


@dataclass(frozen=True)
class Circles:
    """What the circles (scorekeeper.circles: the people who play together, across every
    family) add to starting a game and to the home page. The core calls them through here and
    imports none of their code; without them registered, a game is started on its own."""

    kept: Callable[[str | None], str] = lambda circle_id: ""
    """The id of the circle of this id, if this browser keeps it; else ""."""
    check_seats: Callable[[Any], bool] = lambda form: True
    """Whether a new-game form started in a circle may start it there (its ``circle`` field
    then says what is wrong)."""
    seat: Callable[[Game, str], None] = lambda game, circle_id: None
    """Start the game in the circle of this id: its seats name the circle's people."""
    listed: Callable[[], Sequence[Any]] = lambda: ()
    """The circles the home page lists for this browser."""
    person_named: Callable[[Game, str], int | None] = lambda game, name: None
    """The id of the person of the game's circle who goes by ``name``, added to it if new
    (``None`` for a game played outside any circle), for a family that names people outside
    its seats (a club session's pairs)."""
    circle_name: Callable[[Game], str] = lambda game: ""
    """The name of the circle the game is played in ("" for one played outside any)."""
    name_problem: Callable[[str], str | None] = lambda name: None
    """What is wrong with ``name`` as a circle's person's name, in the reader's language."""
    pair_names: Callable[[Game], Sequence[str]] = lambda game: ()
    """What a session played in a circle offers its director to name its pairs with: the
    circle's regular partnerships first ("Anne – Bruno", the most sessions together first),
    then each of its people; none outside a circle."""
    federation_numbers: Callable[[Collection[int]], Mapping[int, str]] = lambda ids: {}
    """The federation number of each of these people who has one, by their id (the number of
    the person they were merged into)."""
    shown_to_viewers: Callable[[Game], Sequence[tuple[Any, str, str]]] = lambda game: ()
    """What a game of a circle shows whoever does not score it, in place of what its rows hold:
    (row, attribute, value), each name of a person who chose to show their initials replaced
    by them (see scorekeeper.games.lookup.as_seen_here)."""


def register_circles(app: Flask, circles: Circles) -> None:
    app.extensions["circles"] = circles


def circles() -> Circles:
    """The circles this app calls: without them, a game is started on its own."""
    found: Circles = current_app.extensions.get("circles", NO_CIRCLES)
    return found


NO_CIRCLES = Circles()
