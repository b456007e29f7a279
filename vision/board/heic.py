"""A HEIC photo, whatever its name: told by its header, not its suffix.

An iPhone saves HEIC photos (HEIF holding HEVC pictures), and some phones and transfers name such a file
``IMG_1234.jpg``; OpenCV cannot decode it, and the header check (vision/image_header.py) saw only "not a PNG, JPEG
or BMP".  A HEIF file is an ISO base media file: its first box is ``ftyp``, whose major brand and compatible
brands name what it holds (ISO/IEC 23008-12: ``heic``/``heix`` HEVC pictures, ``hevc``/``hevx`` HEVC sequences,
``mif1``/``msf1`` any HEIF picture or sequence, ``heim``/``heis``/``hevm``/``hevs`` their multi-layer kinds).  An
MP4 video's ``ftyp`` names ``isom``/``mp42`` instead and is not taken for one.  Light on purpose (no OpenCV): the
pictures list sniffs a row's file on the UI thread.
"""

from __future__ import annotations

from pathlib import Path

HEIF_BRANDS = frozenset({b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"hevm", b"hevs", b"mif1", b"msf1"})


def heic_brand(path: str | Path) -> str | None:
    """The HEIF brand ``path``'s header names (``"heic"``, ``"mif1"``, ...), or None: not a HEIF file, or not
    readable (the caller's own check says why)."""
    try:
        with open(path, "rb") as file:
            head = file.read(64)
    except OSError:
        return None
    if len(head) < 12 or head[4:8] != b"ftyp":
        return None
    box = int.from_bytes(head[:4], "big")
    end = min(len(head), box if box >= 16 else 16)
    brands = [head[8:12]] + [head[i:i + 4] for i in range(16, end - 3, 4)]  # major, then the compatible ones
    return next((brand.decode("ascii") for brand in brands if brand in HEIF_BRANDS), None)


def heic_problem(path: str | Path) -> str | None:
    """What to say of a HEIC file (English, the command's words), or None when it is not one."""
    brand = heic_brand(path)
    if brand is None:
        return None
    return f"{path}: a HEIC photo (its header says '{brand}'), which this reader cannot decode; send it as JPEG"
