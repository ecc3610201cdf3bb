"""Template helpers every family's pages may use."""

from __future__ import annotations


def signed(points: int) -> str:
    """Points with their sign, a true minus sign for losses: +14, −4, 0."""
    if points > 0:
        return f"+{points}"
    return f"−{-points}" if points < 0 else "0"
