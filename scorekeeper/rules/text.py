"""Text as every file read gives it (a results file, a game file), cleaned of the characters no
name can hold."""

from __future__ import annotations

import re
import unicodedata

__all__ = ["clean_text"]

_LINE_BREAKS = re.compile(r"[\t\n\v\f\r\x1c-\x1f\x85\u2028\u2029]+")


def clean_text(text: str) -> str:
    """``text`` as a name is kept, shown and written back on one line, whatever it was read
    from: a tab or a line break (a run of them) made a space; every other control character
    (C0, DEL, C1: a NUL, an escape sequence's start), a lone surrogate and the non-characters
    U+FFFE and U+FFFF removed, as PostgreSQL (a NUL), XML (C0) or a page cannot hold or show
    them. Every other character is kept.

    >>> clean_text("Anne\\tMartin\\r\\n"), clean_text("\\x1b[31mBruno\\x00\\x9b")
    ('Anne Martin ', '[31mBruno')
    >>> clean_text("Zoé\\u00a0Martin")
    'Zoé\\xa0Martin'
    """
    if text.isprintable():
        return text
    return "".join(
        char
        for char in _LINE_BREAKS.sub(" ", text)
        if unicodedata.category(char) not in ("Cc", "Cs") and char not in "\ufffe\uffff"
    )
