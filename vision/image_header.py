"""An image file's size in pixels, read from its header without decoding it.

A photo is decoded whole into memory: a 0.9 MB PNG that claims 30000 x 30000 pixels becomes 5.3 GB and a minute of
work before anything could say it is too large.  Its header says the size in its first few bytes (PNG: the IHDR
chunk; JPEG: the first start-of-frame segment, the size its decoder uses; BMP: the info header), so a file can be
refused before it is opened for decoding.  Other formats OpenCV would read by their content (TIFF, WebP, ...) are
not photos of the sets and are not looked into.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import BinaryIO

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# JPEG start-of-frame markers (baseline, progressive, lossless, arithmetic); C4, C8 and CC are not frames
JPEG_FRAMES = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
JPEG_STANDALONE = {0x01, *range(0xD0, 0xD8)}  # markers without a length (TEM, restart markers)


class HeaderError(ValueError):
    """A file whose header does not give an image size (not PNG, JPEG or BMP, or cut short)."""


def image_size(path: str | Path) -> tuple[int, int]:
    """``(width, height)`` in pixels as the header of the PNG, JPEG or BMP file at ``path`` says;
    :class:`HeaderError` when it does not say (another format, a file cut short)."""
    with open(path, "rb") as file:
        start = file.read(26)
        if start.startswith(PNG_SIGNATURE):
            if len(start) < 24 or start[12:16] != b"IHDR":
                raise HeaderError("a PNG without its IHDR header")
            return struct.unpack(">II", start[16:24])
        if start.startswith(b"\xff\xd8"):
            file.seek(2)
            return _jpeg_size(file)
        if start.startswith(b"BM") and len(start) >= 26:
            header_size = struct.unpack("<I", start[14:18])[0]
            if header_size == 12:  # the old OS/2 core header: 16-bit sizes
                width, height = struct.unpack("<HH", start[18:22])
            else:
                width, height = struct.unpack("<ii", start[18:26])
            return abs(width), abs(height)  # a negative height is a top-down bitmap
    raise HeaderError("not a PNG, JPEG or BMP image")


def _jpeg_size(file: BinaryIO) -> tuple[int, int]:
    """The size in the first start-of-frame segment, walking the segments before it (EXIF, tables) by their
    lengths, never reading their content."""
    while True:
        byte = file.read(1)
        if not byte:
            break
        if byte != b"\xff":
            raise HeaderError("a JPEG whose segments do not follow one another (corrupt)")
        marker = file.read(1)
        while marker == b"\xff":  # fill bytes before a marker
            marker = file.read(1)
        if not marker:
            break
        code = marker[0]
        if code in JPEG_STANDALONE:
            continue
        if code in (0xD9, 0xDA):  # end of image, or the scan data, before any frame header
            break
        length = file.read(2)
        if len(length) < 2 or struct.unpack(">H", length)[0] < 2:
            break
        if code in JPEG_FRAMES:
            frame = file.read(5)
            if len(frame) < 5:
                break
            height, width = struct.unpack(">HH", frame[1:5])
            return width, height
        file.seek(struct.unpack(">H", length)[0] - 2, 1)
    raise HeaderError("a JPEG without a frame header (corrupt or cut short)")
