"""A game's two links, for the other phones at the table: to follow it, and to score it."""

from __future__ import annotations

import io

import segno
from flask import request, url_for
from markupsafe import escape

from scorekeeper.games.models import Game
from scorekeeper.games.registry import family_of
from scorekeeper.network import network_addresses
from scorekeeper.serving import per_browser


def share_base() -> str:
    """Where the share links start, as another phone on the network would open them: opened on
    the laptop itself (localhost), the laptop's address on the network."""
    host = request.host.rsplit(":", 1)
    if host[0] in ("localhost", "127.0.0.1", "[::1]") and (addresses := network_addresses()):
        base = f"{request.scheme}://{addresses[0]}" + (f":{host[1]}" if len(host) > 1 else "")
    else:
        base = request.host_url.rstrip("/")
    return str(escape(base))


def link_base() -> str:
    """Where a link in a page starts: this request's own address, or, in a page being drawn
    to keep, a mark that each request fills in with its own (never another's Host)."""
    return per_browser(share_base)


def share_links(game: Game) -> dict[str, str]:
    """The game's two links: to follow it (and change nothing, in every server mode), and to
    score it."""
    base = link_base()
    family = family_of(game).key
    return {
        "viewer": base + url_for(f"{family}.follow", game_id=game.id),
        "scorer": base
        + url_for(f"{family}.join_as_scorer", game_id=game.id, token=game.scorer_token),
    }


def qr_svg(link: str) -> bytes:
    """A QR code of ``link``, for another phone's camera."""
    svg = io.BytesIO()
    segno.make(link, error="m").save(
        svg, kind="svg", scale=6, border=2, xmldecl=False, svgns=True, dark="#000", light="#fff"
    )
    return svg.getvalue()
