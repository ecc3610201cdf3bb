"""Text as every file read gives it (a results file, a game file): decoded in the encoding its
first bytes show, and cleaned of the characters no name can hold."""

from __future__ import annotations

import codecs
import re
import unicodedata

__all__ = ["clean_text", "decode_text", "text_encoding"]

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


def text_encoding(data: bytes) -> str | None:
    """The encoding a file's first bytes show: a byte order mark (UTF-8, UTF-16), or UTF-16
    without one (an ASCII character beside a zero byte); ``None`` when they show none.

    >>> text_encoding("<USEBIO>".encode("utf-16")), text_encoding("[Event".encode("utf-16-be"))
    ('utf-16', 'utf-16-be')
    >>> text_encoding(b"\\xef\\xbb\\xbf[Event"), text_encoding("[Événement".encode("cp1252"))
    ('utf-8-sig', None)
    """
    if data.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    if len(data) >= 2 and data[1] == 0 and 0 < data[0] < 0x80:
        return "utf-16-le"
    if len(data) >= 2 and data[0] == 0 and 0 < data[1] < 0x80:
        return "utf-16-be"
    return None


def decode_text(data: bytes) -> str:
    """A text file's text, without its byte order mark: in the encoding its first bytes show
    (:func:`text_encoding`), else UTF-8 when the bytes are, else Windows-1252 or Latin-1 (as
    PBN 2.0 files are). Bytes that are none of these are read as Latin-1, for the reader to
    refuse what they make.

    >>> decode_text("[Event \\"Séance\\"]".encode("utf-16")), decode_text(b"S\\xe9ance")
    ('[Event "Séance"]', 'Séance')
    """
    shown = text_encoding(data)
    for candidate in ([shown] if shown else []) + ["utf-8", "cp1252"]:
        try:
            return data.decode(candidate).removeprefix("\ufeff")
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")
