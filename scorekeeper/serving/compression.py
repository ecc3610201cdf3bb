"""Pages and files sent gzip-compressed to the browsers that accept it.

A kept page (see :mod:`scorekeeper.serving.pages`) differs from browser to browser only in a few
fill-ins (the form's security token, the address the share links start with). It is kept
compressed in parts, and each browser's copy is the parts with its fill-ins between them as
stored blocks: a valid gzip stream (RFC 1951 allows any mix of blocks) without compressing the
page again.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence

from flask import Flask, request
from werkzeug.wrappers import Response

COMPRESSIBLE = {
    "text/html",
    "text/css",
    "text/csv",
    "text/javascript",
    "application/javascript",
    "application/json",
    "image/svg+xml",
}
SMALLEST = 512
"""Below this many bytes, compressing saves less than it costs."""
GZIP_HEADER = bytes([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF])  # deflate, no name, no time
LAST_BLOCK = bytes([1, 0, 0, 0xFF, 0xFF])  # an empty stored block marked final


def accepts_gzip() -> bool:
    return request.accept_encodings["gzip"] > 0  # "gzip;q=0" refuses it; "*" accepts it


def deflate_part(data: bytes) -> bytes:
    """Raw deflate blocks for ``data``, ending on a byte boundary and not final, so that other
    blocks may follow."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)


def stored_blocks(data: bytes) -> bytes:
    """``data`` as non-final stored (uncompressed) blocks."""
    blocks = []
    for start in range(0, len(data), 0xFFFF):
        chunk = data[start : start + 0xFFFF]
        blocks.append(struct.pack("<BHH", 0, len(chunk), len(chunk) ^ 0xFFFF) + chunk)
    return b"".join(blocks)


def gzip_spliced(
    parts: Sequence[bytes], deflated: Sequence[bytes], fill_ins: Sequence[bytes]
) -> bytes:
    """A gzip stream of ``parts[0] + fill_ins[0] + parts[1] + ...``, from the parts already
    deflated (:func:`deflate_part`) and the fill-ins stored as they are."""
    body = [GZIP_HEADER]
    whole = []
    for index, part in enumerate(parts):
        body.append(deflated[index])
        whole.append(part)
        if index < len(fill_ins):
            body.append(stored_blocks(fill_ins[index]))
            whole.append(fill_ins[index])
    data = b"".join(whole)
    body.append(LAST_BLOCK)
    body.append(struct.pack("<II", zlib.crc32(data), len(data) & 0xFFFFFFFF))
    return b"".join(body)


def compress_response(response: Response) -> Response:
    """Compress a response the app drew, for a browser that accepts it."""
    if response.mimetype in COMPRESSIBLE:
        response.vary.add("Accept-Encoding")
    if (
        response.status_code != 200
        or "Content-Encoding" in response.headers
        or response.mimetype not in COMPRESSIBLE
        or not accepts_gzip()
    ):
        return response
    data = response.get_data()
    if len(data) < SMALLEST:
        return response
    compressor = zlib.compressobj(6, zlib.DEFLATED, zlib.MAX_WBITS | 16)  # a gzip wrapper
    response.set_data(compressor.compress(data) + compressor.flush())
    response.headers["Content-Encoding"] = "gzip"
    return response


def init_app(app: Flask) -> None:
    app.after_request(compress_response)
